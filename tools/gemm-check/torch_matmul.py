#!/usr/bin/env python3
"""Times torch.matmul (bf16) on the shapes io.p2pbench.partition.GemmCheck prints, read from its output.

Same method as GemmCheck: 10 untimed matmuls, then the median over 20 CUDA-event-timed batches of 10
back-to-back matmuls; operands from torch.randn (random values, as GemmCheck's pattern fill).
Usage: java ... io.p2pbench.partition.GemmCheck > cublas.tsv; python3 torch_matmul.py cublas.tsv
GEMM_PROFILE=1 also prints, on standard error, the CUDA kernels one batch of each shape ran (torch.profiler).
Prints the cuBLAS line with torch's median microseconds and the ratio cublas/torch appended.
"""
import os
import statistics
import sys

import torch


# About 2 ms at the H200's 1.98 GHz: longer than enqueueing 10 matmuls plus two events takes in Python.
HOLD_CYCLES = 4_000_000


def time_matmul(rows, inner, cols):
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


if __name__ == "__main__":
    main(sys.argv[1])
