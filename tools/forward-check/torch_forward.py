#!/usr/bin/env python3
"""The partition step's SINGLE forward shapes through plain PyTorch, beside the suite's own step.

Usage: python3 torch_forward.py OURS.tsv [MODEL...]   (OURS.tsv: io.p2pbench.partition.ForwardCheck's output)

For each model (DENSE_8B, MOE_8X_TOP2) and phase it builds a Llama-style forward in bf16 with the
same shapes as the suite's step: RMSNorm (F.rms_norm) and residual adds, the fused QKV projection,
rotary embedding (rotate-half, as Hugging Face's Llama), the KV-cache write, SDPA attention (flash
backend, enable_gqa; prefill causal), output projection, SiLU-gated MLP (or, for the mixture, the
router, a softmax over each token's chosen experts and one loop over the experts with index_add_,
routing fixed and even as the suite's step routes), final norm and LM head (decode: every sequence;
prefill: each sequence's last token). Like the suite's step it cycles through as many copies of a
layer's weights and KV cache as make at least 256 MiB, so the weights are never found in L2.

Timing: decode (batch 8, context 4096, the new token written at position 4095) as one CUDA graph,
the median over 9 rounds of 10 replays; prefill (8 x 2048, eager) the median of 5 forwards; 3
untimed runs first. Bounds: the memory-bound minimum (every weight byte of the step and every KV byte
read once at the copy bandwidth measured here: a 2 GiB device-to-device copy, bytes read plus
written over its time) and the compute-bound minimum (the step's GEMM and attention FLOPs at the
bf16 rate of an 8192^3 matmul measured here); the larger of the two is the lower bound.

Prints: per model and phase, ours, torch, their ratio, both bounds and ours over the bound; then our
per-kernel breakdown (from OURS.tsv).
"""
import math
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

PRESETS = {
    "DENSE_8B": dict(hidden=4096, layers=32, ffn=14336, heads=32, kv=8, vocab=128256, experts=0, topk=0),
    "MOE_8X_TOP2": dict(hidden=4096, layers=32, ffn=14336, heads=32, kv=8, vocab=32000, experts=8, topk=2),
}
D = 128
ROTATION = 256 << 20
THETA = 500000.0
EPS = 1e-5
BATCH, PROMPT, CONTEXT = 8, 2048, 4096
BF = torch.bfloat16


def weight(inner, *shape):
    """Random weights of about 1/sqrt(inner), as the suite's step scales its pattern."""
    return (torch.randn(*shape, device="cuda", dtype=torch.float32) / math.sqrt(inner)).to(BF)


class Model:
    def __init__(self, p, max_ctx):
        self.p = p
        h, e = p["hidden"], p["experts"]
        self.qkv_cols = (p["heads"] + 2 * p["kv"]) * D
        layer_bytes = 2 * (h * self.qkv_cols + p["heads"] * D * h + 3 * h * p["ffn"] * max(1, e) + h * e + 2 * h)
        self.layer_bytes = layer_bytes
        sets = max(1, min(p["layers"], math.ceil(ROTATION / layer_bytes)))
        self.sets = []
        for _ in range(sets):
            w = dict(n1=weight(1, h) + 1, n2=weight(1, h) + 1, qkv=weight(h, h, self.qkv_cols),
                     o=weight(p["heads"] * D, p["heads"] * D, h))
            if e == 0:
                w["gu"] = weight(h, h, 2 * p["ffn"])
                w["d"] = weight(p["ffn"], p["ffn"], h)
            else:
                w["r"] = weight(h, h, e)
                w["gu"] = weight(h, e, h, 2 * p["ffn"])
                w["d"] = weight(p["ffn"], e, p["ffn"], h)
            self.sets.append(w)
        kv_bytes = 2 * BATCH * p["kv"] * max_ctx * D * 2
        kv_sets = max(1, min(p["layers"], math.ceil(ROTATION / kv_bytes)))
        self.caches = [(torch.randn(BATCH, p["kv"], max_ctx, D, device="cuda", dtype=BF),
                        torch.randn(BATCH, p["kv"], max_ctx, D, device="cuda", dtype=BF)) for _ in range(kv_sets)]
        self.emb = torch.randn(p["vocab"], h, device="cuda", dtype=BF)
        self.head = weight(h, h, p["vocab"])
        self.final = weight(1, h) + 1
        self.inv_freq = 1.0 / (THETA ** (torch.arange(0, D, 2, device="cuda", dtype=torch.float32) / D))
        self.backend = None

    def rope(self, positions):
        f = positions.float()[:, None] * self.inv_freq[None, :]
        emb = torch.cat((f, f), dim=-1)
        return emb.cos().to(BF), emb.sin().to(BF)

    @staticmethod
    def rotate(x, cos, sin):
        x1, x2 = x[..., : D // 2], x[..., D // 2:]
        return x * cos + torch.cat((-x2, x1), dim=-1) * sin

    def routing(self, tokens):
        """Token t's choice k goes to expert (t * topk + k) % experts, as the suite's step routes."""
        e, k = self.p["experts"], self.p["topk"]
        pairs = torch.arange(tokens * k, device="cuda")
        choice = (pairs % e).view(tokens, k)
        per_expert = []
        for x in range(e):
            sel = pairs[pairs % e == x]
            per_expert.append((sel // k, sel % k))
        return choice, per_expert

    def mlp(self, w, x, routes):
        if self.p["experts"] == 0:
            g, u = (x @ w["gu"]).chunk(2, dim=-1)
            return (F.silu(g) * u) @ w["d"]
        choice, per_expert = routes
        logits = x @ w["r"]
        gates = torch.softmax(logits.gather(1, choice).float(), dim=-1)
        out = torch.zeros_like(x)
        for e, (tok, k) in enumerate(per_expert):
            g, u = (x[tok] @ w["gu"][e]).chunk(2, dim=-1)
            y = (F.silu(g) * u) @ w["d"][e]
            out.index_add_(0, tok, (y * gates[tok, k, None]).to(BF))
        return out

    def forward(self, tokens, positions, seq, prefill, routes):
        """tokens [BATCH * seq], positions [seq]; writes the KV cache at the positions; returns the logits."""
        p = self.p
        h = p["hidden"]
        x = self.emb[tokens]
        res = x
        cos, sin = self.rope(positions)
        cos, sin = cos[None, None], sin[None, None]
        for layer in range(p["layers"]):
            w = self.sets[layer % len(self.sets)]
            kc, vc = self.caches[layer % len(self.caches)]
            if layer > 0:
                res = res + x
            hn = F.rms_norm(res, (h,), w["n1"], EPS)
            qkv = (hn @ w["qkv"]).view(BATCH, seq, p["heads"] + 2 * p["kv"], D).transpose(1, 2)
            q, k, v = qkv.split([p["heads"], p["kv"], p["kv"]], dim=1)
            q, k = self.rotate(q, cos, sin), self.rotate(k, cos, sin)
            if prefill:
                kc[:, :, :seq] = k
                vc[:, :, :seq] = v
                keys, values = k, v
            else:
                kc[:, :, CONTEXT - 1:CONTEXT] = k
                vc[:, :, CONTEXT - 1:CONTEXT] = v
                keys, values = kc[:, :, :CONTEXT], vc[:, :, :CONTEXT]
            a = F.scaled_dot_product_attention(q, keys, values, is_causal=prefill, enable_gqa=True)
            a = a.transpose(1, 2).reshape(BATCH * seq, p["heads"] * D)
            res = res + a @ w["o"]
            x = self.mlp(w, F.rms_norm(res, (h,), w["n2"], EPS), routes)
        res = res + x
        hn = F.rms_norm(res, (h,), self.final, EPS)
        if prefill:
            hn = hn.view(BATCH, seq, h)[:, -1]
        return hn @ self.head


def attention_backend(model, run):
    """Runs `run` under flash SDPA, else cuDNN, and says which one answered."""
    for name, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)):
        try:
            with sdpa_kernel([backend]):
                run()
            torch.cuda.synchronize()
            model.backend = (name, backend)
            return
        except RuntimeError as e:
            print("# SDPA %s refused: %s" % (name, str(e).splitlines()[0]), file=sys.stderr)
    raise SystemExit("no SDPA backend took these shapes")


def timed(fn, rounds, reps):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    out = []
    for _ in range(rounds):
        start.record()
        for _ in range(reps):
            fn()
        stop.record()
        stop.synchronize()
        out.append(start.elapsed_time(stop) * 1000.0 / reps)
    return statistics.median(out)


def copy_bandwidth():
    n = 1 << 30
    a = torch.empty(n, device="cuda", dtype=BF)
    b = torch.empty_like(a)
    a.normal_()
    t = timed(lambda: b.copy_(a), 5, 5)
    del a, b
    torch.cuda.empty_cache()
    return 2 * 2 * n / (t * 1e-6)


def matmul_rate():
    a = torch.randn(8192, 8192, device="cuda", dtype=BF)
    b = torch.randn(8192, 8192, device="cuda", dtype=BF)
    t = timed(lambda: a @ b, 5, 5)
    del a, b
    torch.cuda.empty_cache()
    return 2 * 8192 ** 3 / (t * 1e-6)


def step_bytes(p, model, prefill):
    """Weight bytes of every layer, the LM head and the norms, plus the KV bytes the step reads (decode) or writes (prefill)."""
    weights = p["layers"] * model.layer_bytes + p["vocab"] * p["hidden"] * 2
    tokens = PROMPT if prefill else CONTEXT
    kv = p["layers"] * 2 * BATCH * p["kv"] * tokens * D * 2
    return weights + kv


def step_flops(p, prefill):
    t = BATCH * (PROMPT if prefill else 1)
    h, f, e, k = p["hidden"], p["ffn"], p["experts"], p["topk"]
    qkv = (p["heads"] + 2 * p["kv"]) * D
    gemm = 2 * t * h * qkv + 2 * t * p["heads"] * D * h
    gemm += 2 * t * k * 3 * h * f + 2 * t * h * e if e else 2 * t * 3 * h * f
    pairs = PROMPT * (PROMPT + 1) / 2 if prefill else CONTEXT
    attn = 4.0 * p["heads"] * D * pairs * BATCH
    head = 2 * BATCH * h * p["vocab"]
    return p["layers"] * (gemm + attn) + head


def main(ours_path, models):
    ours, kernels = {}, []
    with open(ours_path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts[0] == "step":
                ours[(parts[1], parts[2])] = (float(parts[7]), parts[6], int(parts[10]))
            elif parts[0] == "kernel":
                kernels.append(parts[1:])
    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))
    bw = copy_bandwidth()
    peak = matmul_rate()
    print("# copy bandwidth %.0f GB/s (read + written); bf16 8192^3 matmul %.0f TFLOP/s" % (bw / 1e9, peak / 1e12))
    rows = []
    for name in models:
        p = PRESETS[name]
        model = Model(p, CONTEXT)
        routes_decode = model.routing(BATCH) if p["experts"] else None
        routes_prefill = model.routing(BATCH * PROMPT) if p["experts"] else None
        tok_d = torch.randint(0, p["vocab"], (BATCH,), device="cuda")
        pos_d = torch.full((1,), CONTEXT - 1, device="cuda", dtype=torch.int64)
        tok_p = torch.randint(0, p["vocab"], (BATCH * PROMPT,), device="cuda")
        pos_p = torch.arange(PROMPT, device="cuda")

        def decode():
            return model.forward(tok_d, pos_d, 1, False, routes_decode)

        def prefill():
            return model.forward(tok_p, pos_p, PROMPT, True, routes_prefill)

        attention_backend(model, decode)
        backend_name, backend = model.backend
        with sdpa_kernel([backend]):
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                for _ in range(3):
                    decode()
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                decode()
            for _ in range(3):
                graph.replay()
            t_decode = timed(graph.replay, 9, 10)
            del graph
            for _ in range(3):
                prefill()
            t_prefill = timed(prefill, 5, 1)
        for phase, t, prefilling in (("DECODE", t_decode, False), ("PREFILL", t_prefill, True)):
            mem = step_bytes(p, model, prefilling) / bw * 1e6
            comp = step_flops(p, prefilling) / peak * 1e6
            bound = max(mem, comp)
            us, how, verified = ours.get((name, phase), (float("nan"), "?", 0))
            rows.append((name, phase, us, how, t, mem, comp, bound, verified, backend_name))
        del model
        torch.cuda.empty_cache()
    print("model\tphase\tours_us\tours_mode\ttorch_us\tours_over_torch\tmemory_bound_us\tcompute_bound_us"
          "\tours_over_bound\tours_verified_bytes\ttorch_sdpa")
    for name, phase, us, how, t, mem, comp, bound, verified, backend in rows:
        print("%s\t%s\t%.1f\t%s\t%.1f\t%.3f\t%.1f\t%.1f\t%.2f\t%d\t%s" % (name, phase, us, how, t, us / t, mem, comp,
                                                                       us / bound, verified, backend))
    print("model\tphase\tkernel\tours_us")
    for k in kernels:
        print("\t".join(k))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:] or ["DENSE_8B", "MOE_8X_TOP2"])
