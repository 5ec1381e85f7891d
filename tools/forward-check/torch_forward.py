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

Three PyTorch forwards of each shape (column torch_variant), all in plain PyTorch ops:
- listed: what issue 27 lists for its reference (bf16, RMSNorm, SDPA flash attention over the KV cache,
  SiLU-gated MLP, residuals, LM head, CUDA graph): no rotary and no KV-cache write. Less work than ours.
- hf: listed + rotary as Hugging Face's Llama writes it (rotate-half through slicing, negation and cat,
  applied to q and k apart: five elementwise kernels each) + the KV-cache write (one copy each for k and v).
  The same work as ours.
- lean: the same work as hf with the rotary written for fewer kernels: q and k rotated together on the QKV
  output, the rotate-half as one flip of the two halves with the sign folded into a precomputed sine, and
  the sum as one addcmul (three kernels for q and k together instead of ten).
Per-kernel breakdown of the PyTorch side (lines starting "torchkernel"): one eager forward of DENSE_8B per
phase and variant under torch.profiler (CUPTI device times, summed per kernel class and per kernel name).

Timing: decode (batch 8, context 4096, the new token written at position 4095) as one CUDA graph,
the median over 9 rounds of 10 replays; prefill (8 x 2048, eager) the median of 5 forwards; 3
untimed runs first. Bounds: the memory-bound minimum (every weight byte of the step and every KV byte
read once at the copy bandwidth measured here: a 2 GiB device-to-device copy, bytes read plus
written over its time) and the compute-bound minimum (the step's GEMM and attention FLOPs at the
bf16 rate of an 8192^3 matmul measured here); the larger of the two is the lower bound.

Prints: per model, phase and variant, ours, torch, their ratio, both bounds and ours over the bound; then
our per-kernel breakdown (from OURS.tsv), then PyTorch's.
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
    def signed_sine(sin):
        """sin with its first half negated: rotate_half(x) * sin == flip_halves(x) * signed_sine(sin)."""
        return torch.cat((-sin[..., : D // 2], sin[..., D // 2:]), dim=-1)

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

    def forward(self, tokens, positions, seq, prefill, routes, variant):
        """tokens [BATCH * seq], positions [seq]; writes the KV cache at the positions (not in variant listed);
        returns the logits."""
        p = self.p
        h = p["hidden"]
        x = self.emb[tokens]
        res = x
        cos, sin = self.rope(positions)
        cos_l, sin_l = cos[None, :, None], self.signed_sine(sin)[None, :, None]
        cos, sin = cos[None, None], sin[None, None]
        for layer in range(p["layers"]):
            w = self.sets[layer % len(self.sets)]
            kc, vc = self.caches[layer % len(self.caches)]
            if layer > 0:
                res = res + x
            hn = F.rms_norm(res, (h,), w["n1"], EPS)
            qkv = (hn @ w["qkv"]).view(BATCH, seq, p["heads"] + 2 * p["kv"], D)
            if variant == "lean":
                qk = qkv[:, :, : p["heads"] + p["kv"]]
                flipped = qk.unflatten(-1, (2, D // 2)).flip(-2).flatten(-2)
                qk = torch.addcmul(qk * cos_l, flipped, sin_l)
                q = qk[:, :, : p["heads"]].transpose(1, 2)
                k = qk[:, :, p["heads"]:].transpose(1, 2)
                v = qkv[:, :, p["heads"] + p["kv"]:].transpose(1, 2)
            else:
                q, k, v = qkv.transpose(1, 2).split([p["heads"], p["kv"], p["kv"]], dim=1)
                if variant == "hf":
                    q, k = self.rotate(q, cos, sin), self.rotate(k, cos, sin)
            if prefill:
                if variant != "listed":
                    kc[:, :, :seq] = k
                    vc[:, :, :seq] = v
                keys, values = k, v
            else:
                if variant != "listed":
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


VARIANTS = ("listed", "hf", "lean")


def kernel_class(name):
    n = name.lower()
    if "flash" in n or "fmha" in n or "attention" in n:
        return "attention"
    if any(t in n for t in ("gemm", "nvjet", "xmma", "cutlass", "cublas", "sm90_", "splitk")):
        return "gemm"
    if "norm" in n:
        return "norm"
    if "cat" in n or "copy" in n or "index" in n or "flip" in n or "gather" in n or "scatter" in n:
        return "copy/cat/index"
    return "elementwise/other"


def kernel_breakdown(name, phase, variant, fn):
    """One eager forward under the profiler: CUPTI device time per kernel, summed per class and per name."""
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    per_name = {}
    for e in prof.events():
        if getattr(e, "device_type", None) is None or str(e.device_type).split(".")[-1] != "CUDA":
            continue
        us = e.time_range.elapsed_us()
        count, total = per_name.get(e.name, (0, 0.0))
        per_name[e.name] = (count + 1, total + us)
    per_class = {}
    for k, (count, total) in per_name.items():
        c = kernel_class(k)
        cc, ct = per_class.get(c, (0, 0.0))
        per_class[c] = (cc + count, ct + total)
    lines = []
    for c, (count, total) in sorted(per_class.items(), key=lambda x: -x[1][1]):
        lines.append("torchkernel\t%s\t%s\t%s\tclass\t%s\t%d\t%.1f" % (name, phase, variant, c, count, total))
    all_count = sum(c for c, _ in per_name.values())
    all_total = sum(t for _, t in per_name.values())
    lines.append("torchkernel\t%s\t%s\t%s\tclass\tsum\t%d\t%.1f" % (name, phase, variant, all_count, all_total))
    for k, (count, total) in sorted(per_name.items(), key=lambda x: -x[1][1])[:12]:
        lines.append("torchkernel\t%s\t%s\t%s\tname\t%s\t%d\t%.1f" % (name, phase, variant, k[:110], count, total))
    return lines


def check_lean_rotary():
    """The lean rotary equals Hugging Face's rotate-half, element for element within bf16 rounding."""
    x = torch.randn(2, 3, 40, D, device="cuda", dtype=BF)
    m = Model.__new__(Model)
    m.inv_freq = 1.0 / (THETA ** (torch.arange(0, D, 2, device="cuda", dtype=torch.float32) / D))
    cos, sin = m.rope(torch.arange(3, device="cuda") + 4000)
    ref = Model.rotate(x.transpose(1, 2), cos[None, None], sin[None, None]).transpose(1, 2)
    flipped = x.unflatten(-1, (2, D // 2)).flip(-2).flatten(-2)
    lean = torch.addcmul(x * cos[None, :, None], flipped, Model.signed_sine(sin)[None, :, None])
    err = (lean.float() - ref.float()).abs().max().item()
    if err > 0.07:
        raise SystemExit("lean rotary differs from rotate-half by %g" % err)
    return err


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
    print("# lean rotary against rotate-half: largest difference %.4f (bf16)" % check_lean_rotary())
    bw = copy_bandwidth()
    peak = matmul_rate()
    print("# copy bandwidth %.0f GB/s (read + written); bf16 8192^3 matmul %.0f TFLOP/s" % (bw / 1e9, peak / 1e12))
    rows, breakdown = [], []
    for name in models:
        p = PRESETS[name]
        model = Model(p, CONTEXT)
        routes_decode = model.routing(BATCH) if p["experts"] else None
        routes_prefill = model.routing(BATCH * PROMPT) if p["experts"] else None
        tok_d = torch.randint(0, p["vocab"], (BATCH,), device="cuda")
        pos_d = torch.full((1,), CONTEXT - 1, device="cuda", dtype=torch.int64)
        tok_p = torch.randint(0, p["vocab"], (BATCH * PROMPT,), device="cuda")
        pos_p = torch.arange(PROMPT, device="cuda")
        for variant in VARIANTS:
            def decode():
                return model.forward(tok_d, pos_d, 1, False, routes_decode, variant)

            def prefill():
                return model.forward(tok_p, pos_p, PROMPT, True, routes_prefill, variant)

            if model.backend is None:
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
                if name == "DENSE_8B":
                    try:
                        breakdown += kernel_breakdown(name, "DECODE", variant, decode)
                        breakdown += kernel_breakdown(name, "PREFILL", variant, prefill)
                    except Exception as e:  # the timings above stand without the breakdown
                        print("# profiler failed for %s %s: %r" % (name, variant, e))
            for phase, t, prefilling in (("DECODE", t_decode, False), ("PREFILL", t_prefill, True)):
                mem = step_bytes(p, model, prefilling) / bw * 1e6
                comp = step_flops(p, prefilling) / peak * 1e6
                bound = max(mem, comp)
                us, how, verified = ours.get((name, phase), (float("nan"), "?", 0))
                rows.append((name, phase, variant, us, how, t, mem, comp, bound, verified, backend_name))
        del model
        torch.cuda.empty_cache()
    print("model\tphase\ttorch_variant\tours_us\tours_mode\ttorch_us\tours_over_torch\tmemory_bound_us"
          "\tcompute_bound_us\tours_over_bound\tours_verified_bytes\ttorch_sdpa")
    for name, phase, variant, us, how, t, mem, comp, bound, verified, backend in rows:
        print("%s\t%s\t%s\t%.1f\t%s\t%.1f\t%.3f\t%.1f\t%.1f\t%.2f\t%d\t%s" % (
            name, phase, variant, us, how, t, us / t, mem, comp, us / bound, verified, backend))
    print("model\tphase\tkernel\tours_us")
    for k in kernels:
        print("\t".join(k))
    print("torchkernel\tmodel\tphase\tvariant\tclass_or_name\tkey\tkernels\tdevice_us")
    for line in breakdown:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:] or ["DENSE_8B", "MOE_8X_TOP2"])
