#!/usr/bin/env python3
"""Times torch.matmul (bf16) on the shapes io.p2pbench.partition.GemmCheck prints, read from its output.

Same method as GemmCheck: 10 untimed matmuls, then the median over 20 CUDA-event-timed batches of 10
back-to-back matmuls; operands from torch.randn (random values, as GemmCheck's pattern fill).
Usage: java ... io.p2pbench.partition.GemmCheck > cublas.tsv; python3 torch_matmul.py cublas.tsv
GEMM_PROFILE=1 also prints, on standard error, the CUDA kernels one batch of each shape ran (torch.profiler).
Prints the cuBLAS line with torch's median microseconds and the ratio cublas/torch appended.

Paired (what tools/gemm-check/run.sh does): python3 torch_matmul.py --paired ROUNDS JAVA_COMMAND...
starts JAVA_COMMAND (GemmCheck --serve) and times each shape on both sides in turn, ROUNDS times, the
order alternating (cuBLAS first in even rounds of even shapes, torch first otherwise), so both see the GPU
in the same state (a long prefill GEMM heats it; the same shape measured 286 and 326 us in one program
depending on what ran before it). Both multiply the same operands: the suite's pattern (pattern()), and
the sums of the first 4096 outputs must agree. Prints per shape the medians over rounds of both sides,
their ratio, and the smallest and largest per-round ratio.
"""
import os
import statistics
import sys

import torch


# About 2 ms at the H200's 1.98 GHz: longer than enqueueing 10 matmuls plus two events takes in Python.
HOLD_CYCLES = 4_000_000


M32 = 0xFFFFFFFF


def fmix32(h):
    h = h ^ (h >> 16)
    h = (h * 0x85EBCA6B) & M32
    h = h ^ (h >> 13)
    h = (h * 0xC2B2AE35) & M32
    return h ^ (h >> 16)


def pattern(elements, seed):
    """The suite's fillRankBf16 values for rank 0 (kernels.cu rankValueBf16), as a bf16 CUDA tensor."""
    out = torch.empty(elements, device="cuda", dtype=torch.bfloat16)
    chunk = 1 << 26
    for lo in range(0, elements, chunk):
        i = torch.arange(lo, min(elements, lo + chunk), device="cuda", dtype=torch.int64)
        h = fmix32(((i & M32) * 0x9E3779B9 + seed) & M32) ^ (i >> 32)
        out[lo:lo + len(i)] = ((h & 0xFF).to(torch.float32) / 256.0 - 0.5).to(torch.bfloat16)
    return out


def time_matmul(rows, inner, cols, same_operands=False):
    """Median microseconds per matmul (and, with same_operands, the sum of the first 4096 outputs)."""
    if same_operands:
        x = pattern(rows * inner, 0x5EED + 1).view(rows, inner)
        w = pattern(inner * cols, 0x5EED + 2).view(inner, cols)
    else:
        x = torch.randn(rows, inner, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(inner, cols, device="cuda", dtype=torch.bfloat16)
    y = torch.empty(rows, cols, device="cuda", dtype=torch.bfloat16)
    for _ in range(10):
        torch.matmul(x, w, out=y)
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    batches = []
    for _ in range(20):
        torch.cuda._sleep(HOLD_CYCLES)
        start.record()
        for _ in range(10):
            torch.matmul(x, w, out=y)
        stop.record()
        stop.synchronize()
        batches.append(start.elapsed_time(stop) * 1000.0 / 10)
    if os.environ.get("GEMM_PROFILE") == "1":
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                torch.matmul(x, w, out=y)
            torch.cuda.synchronize()
        names = sorted({e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA})
        print("kernel %dx%dx%d %s" % (rows, inner, cols, " | ".join(names)), file=sys.stderr)
    if same_operands:
        head = y.flatten()[:4096].to(torch.float64).sum().item()
        del x, w, y
        return statistics.median(batches), head
    return statistics.median(batches)


def loaded(part):
    """The mapped files of this process whose name contains part (which cuBLAS torch loaded)."""
    try:
        with open("/proc/self/maps") as f:
            return " ".join(sorted({l.split()[-1] for l in f if part in l}))
    except OSError:
        return "?"


def main(path):
    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))
    with open(path) as f:
        header = f.readline().rstrip("\n")
        print(header + "\ttorch_us\tcublas_over_torch")
        first = True
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 8:
                continue
            rows, inner, cols = int(parts[3]), int(parts[4]), int(parts[5])
            t = time_matmul(rows, inner, cols)
            if first:
                print("# torch loaded", loaded("libcublas"), file=sys.stderr)
                first = False
            print("\t".join(parts) + "\t%.2f\t%.3f" % (t, float(parts[6]) / t))


def paired(rounds, command):
    import subprocess
    java = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    shapes = []
    for line in java.stdout:
        line = line.rstrip("\n")
        if line == "ready":
            break
        shapes.append(line.split("\t"))
    else:
        sys.exit("GemmCheck --serve ended before it was ready (exit %s)" % java.wait())

    def cublas(key):
        java.stdin.write(key + "\n")
        java.stdin.flush()
        answer = java.stdout.readline().split()
        if len(answer) != 3 or answer[0] != key:
            sys.exit("GemmCheck --serve answered %r to %s" % (answer, key))
        return float(answer[1]), float(answer[2])

    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))
    print("# paired: %d rounds, order alternating; same operands (the suite's pattern) on both sides" % rounds)
    times = {}
    for r in range(rounds):
        for n, s in enumerate(shapes):
            key = "x".join(s[3:6])
            rows, inner, cols = int(s[3]), int(s[4]), int(s[5])
            got = {}
            for side in (("cublas", "torch") if (r + n) % 2 == 0 else ("torch", "cublas")):
                got[side] = cublas(key) if side == "cublas" else time_matmul(rows, inner, cols, True)
            times.setdefault(n, []).append(got)
            torch.cuda.empty_cache()
    java.stdin.close()
    java.wait()
    print("model\tphase\tgemm\trows\tinner\tcols\tcublas_us\ttorch_us\tcublas_over_torch\tround_min\tround_max"
          "\tsame_output")
    for n, s in enumerate(shapes):
        c = statistics.median(g["cublas"][0] for g in times[n])
        t = statistics.median(g["torch"][0] for g in times[n])
        per_round = [g["cublas"][0] / g["torch"][0] for g in times[n]]
        same = all(abs(g["cublas"][1] - g["torch"][1]) <= 1e-6 * max(1.0, abs(g["torch"][1])) for g in times[n])
        print("\t".join(s[:6]) + "\t%.2f\t%.2f\t%.3f\t%.3f\t%.3f\t%s" % (c, t, c / t, min(per_round),
                                                                         max(per_round), "yes" if same else "NO"))


if __name__ == "__main__":
    if sys.argv[1] == "--paired":
        paired(int(sys.argv[2]), sys.argv[3:])
    else:
        main(sys.argv[1])
