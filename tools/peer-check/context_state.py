#!/usr/bin/env python3
"""Does a fresh CUDA context inside one process draw the small-copy level anew? (issue 34)

docs/notes/copy-level-per-process.md found that 4 KiB and 1 MiB device copies sit at one of two levels, 7% apart,
per process, whatever stream or buffer they use. If the level belongs to the CUDA context rather than to the
process, a benchmark JVM could draw it several times (a context costs far less than a JVM) and average it.

    python3 tools/peer-check/context_state.py [PROCESSES] [CYCLES]
    python3 tools/peer-check/context_state.py --places [PROCESSES]

Driver API only (ctypes on libcuda.so.1), no PyTorch. Starts PROCESSES (default 4) fresh processes one after
another; each runs CYCLES (default 6) cycles of each mode, on GPU 0:
  - same:    one context for the whole mode; each cycle new buffers, a new stream and new events (the control);
  - primary: the primary context, reset (cuDevicePrimaryCtxReset) after every cycle, which is what
             cudaDeviceReset does for the CUDA runtime;
  - created: a context of its own per cycle (cuCtxCreate / cuCtxDestroy).
Each cycle times 128 back-to-back device-to-device copies (cuMemcpyDtoDAsync) held behind a gate
(cuStreamWaitValue32 on mapped pinned host memory, as the suite's StreamGate does) while they are enqueued, with
CUDA events; the median of 9 batches, GB/s; 4 KiB and 1 MiB; then 8 pinned host-to-device copies of 64 MiB
(cuMemcpyHtoDAsync from cuMemHostAlloc memory), the median of 5 batches. The destination is poisoned first and checked against
the source's position-dependent pattern after the copies. The time to make the cycle's context current and the
time to reset or destroy it are printed too. Then the spread of log figures: between processes, and between the
cycles of one process, per mode. With --places, each process instead measures PLACES buffer pairs of 1 MiB in one
context (each its own allocation; in every other process a 66 MiB spacer allocation after each pair), round-robin
over the pairs in every batch, and the split is between processes and between the pairs of one process.
No result folder.
"""
import ctypes as C
import math
import os
import statistics as st
import subprocess
import sys
import time

from cuda_driver import Driver

SIZES = [4096, 1 << 20]
COPIES = 128
BATCHES = 9
MODES = ["same", "primary", "created"]
H2D_SIZE = 64 << 20
H2D_COPIES = 8
PLACES = 12  # buffer pairs measured side by side in one context by --places


def child(cycles):
    drv = Driver()
    ck, dev = drv.ck, drv.dev
    u64 = C.c_uint64
    ctx = C.c_void_p()
    host = C.c_void_p()
    flag_dev = u64()

    pattern_size = max(SIZES)
    pattern = bytes(((i * 131) ^ (i >> 8) ^ (i >> 16)) & 0xFF for i in range(pattern_size))

    def measure():
        """One cycle in the current context: fresh buffers, stream, events, gate word."""
        ck("cuMemHostAlloc", C.byref(host), 64, 0x01 | 0x02)  # PORTABLE | DEVICEMAP
        word = C.c_uint32.from_address(host.value)
        word.value = 0
        ck("cuMemHostGetDevicePointer_v2", C.byref(flag_dev), host, 0)
        src, dst = u64(), u64()
        ck("cuMemAlloc_v2", C.byref(src), pattern_size)
        ck("cuMemAlloc_v2", C.byref(dst), pattern_size)
        ck("cuMemcpyHtoD_v2", src, pattern, pattern_size)
        stream = C.c_void_p()
        ck("cuStreamCreate", C.byref(stream), 1)  # NON_BLOCKING
        start, stop = C.c_void_p(), C.c_void_p()
        ck("cuEventCreate", C.byref(start), 0)
        ck("cuEventCreate", C.byref(stop), 0)
        out = {}
        gen = 0
        for size in SIZES:
            ck("cuMemsetD8_v2", dst, 0xA5, pattern_size)
            for _ in range(3):  # warm-up
                ck("cuMemcpyDtoDAsync_v2", dst, src, size, stream)
            ck("cuStreamSynchronize", stream)
            figures = []
            for _ in range(BATCHES):
                gen += 1
                ck("cuStreamWaitValue32_v2", stream, flag_dev, gen, 0)  # GEQ
                ck("cuEventRecord", start, stream)
                for _ in range(COPIES):
                    ck("cuMemcpyDtoDAsync_v2", dst, src, size, stream)
                ck("cuEventRecord", stop, stream)
                word.value = gen
                ck("cuEventSynchronize", stop)
                ms = C.c_float()
                ck("cuEventElapsedTime", C.byref(ms), start, stop)
                figures.append(size * COPIES / (ms.value * 1e-3) / 1e9)
            back = C.create_string_buffer(size)
            ck("cuMemcpyDtoH_v2", back, dst, size)
            if back.raw != pattern[:size]:
                raise SystemExit(f"data check failed at {size} bytes")
            out[size] = st.median(figures)
        # Pinned host to device, 64 MiB (PCIe-bound; on one H100 host the suite's rounds of it sat at 55 or 46 GB/s).
        pinned, big = C.c_void_p(), u64()
        ck("cuMemHostAlloc", C.byref(pinned), H2D_SIZE, 0)
        ck("cuMemAlloc_v2", C.byref(big), H2D_SIZE)
        C.memmove(pinned, (pattern * (H2D_SIZE // pattern_size + 1))[:H2D_SIZE], H2D_SIZE)
        ck("cuMemsetD8_v2", big, 0xA5, H2D_SIZE)
        ck("cuMemcpyHtoDAsync_v2", big, pinned, H2D_SIZE, stream)  # warm-up
        ck("cuStreamSynchronize", stream)
        figures = []
        for _ in range(5):
            gen += 1
            ck("cuStreamWaitValue32_v2", stream, flag_dev, gen, 0)
            ck("cuEventRecord", start, stream)
            for _ in range(H2D_COPIES):
                ck("cuMemcpyHtoDAsync_v2", big, pinned, H2D_SIZE, stream)
            ck("cuEventRecord", stop, stream)
            word.value = gen
            ck("cuEventSynchronize", stop)
            ms = C.c_float()
            ck("cuEventElapsedTime", C.byref(ms), start, stop)
            figures.append(H2D_SIZE * H2D_COPIES / (ms.value * 1e-3) / 1e9)
        back = C.create_string_buffer(pattern_size)
        ck("cuMemcpyDtoH_v2", back, u64(big.value + H2D_SIZE - pattern_size), pattern_size)
        if back.raw != pattern:
            raise SystemExit("data check failed: pinned H2D 64 MiB")
        out["h2d"] = st.median(figures)
        ck("cuMemFree_v2", big)
        ck("cuMemFreeHost", pinned)
        ck("cuEventDestroy_v2", start)
        ck("cuEventDestroy_v2", stop)
        ck("cuStreamDestroy_v2", stream)
        ck("cuMemFree_v2", src)
        ck("cuMemFree_v2", dst)
        ck("cuMemFreeHost", host)
        return out

    for mode in MODES:
        if mode == "same":
            ck("cuDevicePrimaryCtxRetain", C.byref(ctx), dev)
            ck("cuCtxSetCurrent", ctx)
        for c in range(cycles):
            t0 = time.perf_counter()
            if mode == "primary":
                ck("cuDevicePrimaryCtxRetain", C.byref(ctx), dev)
                ck("cuCtxSetCurrent", ctx)
            elif mode == "created":
                ck("cuCtxCreate_v2", C.byref(ctx), 0, dev)
            t1 = time.perf_counter()
            figures = measure()
            t2 = time.perf_counter()
            if mode == "primary":
                ck("cuCtxSetCurrent", None)
                ck("cuDevicePrimaryCtxRelease_v2", dev)
                ck("cuDevicePrimaryCtxReset_v2", dev)
            elif mode == "created":
                ck("cuCtxDestroy_v2", ctx)
            t3 = time.perf_counter()
            print(f"cycle {mode} {c} {figures[4096]:.5f} {figures[1 << 20]:.4f} {figures['h2d']:.4f} "
                  f"{(t1 - t0) * 1e3:.1f} {(t2 - t1) * 1e3:.1f} {(t3 - t2) * 1e3:.1f}", flush=True)
        if mode == "same":
            ck("cuCtxSetCurrent", None)
            ck("cuDevicePrimaryCtxRelease_v2", dev)
            ck("cuDevicePrimaryCtxReset_v2", dev)


def places_child(spacer_mib):
    """One context, PLACES buffer pairs, each its own allocation with a spacer allocation between; every pair
    measured in every batch round, round-robin, so that time does not masquerade as placement."""
    drv = Driver()
    ck = drv.ck
    u64 = C.c_uint64
    drv.primary_context()
    host, flag_dev = C.c_void_p(), u64()
    ck("cuMemHostAlloc", C.byref(host), 64, 0x01 | 0x02)
    word = C.c_uint32.from_address(host.value)
    word.value = 0
    ck("cuMemHostGetDevicePointer_v2", C.byref(flag_dev), host, 0)
    size = 1 << 20
    pattern = bytes(((i * 131) ^ (i >> 8)) & 0xFF for i in range(size))
    pairs, spacers = [], []
    for _ in range(PLACES):
        src, dst, gap = u64(), u64(), u64()
        ck("cuMemAlloc_v2", C.byref(src), size)
        ck("cuMemAlloc_v2", C.byref(dst), size)
        if spacer_mib:
            ck("cuMemAlloc_v2", C.byref(gap), spacer_mib << 20)
            spacers.append(gap)
        ck("cuMemcpyHtoD_v2", src, pattern, size)
        ck("cuMemsetD8_v2", dst, 0xA5, size)
        pairs.append((src, dst))
    stream = C.c_void_p()
    ck("cuStreamCreate", C.byref(stream), 1)
    start, stop = C.c_void_p(), C.c_void_p()
    ck("cuEventCreate", C.byref(start), 0)
    ck("cuEventCreate", C.byref(stop), 0)
    figures = {i: [] for i in range(PLACES)}
    gen = 0
    for _ in range(BATCHES):
        for i, (src, dst) in enumerate(pairs):
            gen += 1
            ck("cuStreamWaitValue32_v2", stream, flag_dev, gen, 0)
            ck("cuEventRecord", start, stream)
            for _ in range(COPIES):
                ck("cuMemcpyDtoDAsync_v2", dst, src, size, stream)
            ck("cuEventRecord", stop, stream)
            word.value = gen
            ck("cuEventSynchronize", stop)
            ms = C.c_float()
            ck("cuEventElapsedTime", C.byref(ms), start, stop)
            figures[i].append(size * COPIES / (ms.value * 1e-3) / 1e9)
    for i, (src, dst) in enumerate(pairs):
        back = C.create_string_buffer(size)
        ck("cuMemcpyDtoH_v2", back, dst, size)
        if back.raw != pattern:
            raise SystemExit(f"data check failed, pair {i}")
        print(f"place {i} {src.value:#x} {dst.value:#x} {st.median(figures[i]):.4f}", flush=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(int(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--places-child":
        places_child(int(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--places":
        processes = int(sys.argv[2]) if len(sys.argv) > 2 else 4
        per = []
        for p in range(processes):
            spacer = 0 if p % 2 == 0 else 66
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--places-child", str(spacer)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(r.stdout, r.stderr, file=sys.stderr)
                raise SystemExit(f"process {p} failed ({r.returncode})")
            logs = []
            for line in r.stdout.splitlines():
                if line.startswith("place "):
                    _, i, a, b, g = line.split()
                    logs.append(math.log(float(g)))
                    print(f"process {p} (spacer {spacer} MiB) pair {i} src {a} dst {b}: 1 MiB {float(g):.4g} GB/s",
                          flush=True)
            per.append(logs)
        means = [st.mean(v) for v in per]
        within = [x - st.mean(v) for v in per for x in v]
        dof = sum(len(v) - 1 for v in per)
        print(f"split places 1 MiB: processes {100 * st.stdev(means):.2f}% | buffer pairs within a process "
              f"{100 * math.sqrt(sum(x * x for x in within) / dof):.2f}%")
        return
    processes = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    cycles = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    rows = []
    for p in range(processes):
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", str(cycles)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout, r.stderr, file=sys.stderr)
            raise SystemExit(f"process {p} failed ({r.returncode})")
        print(f"process {p}: {time.perf_counter() - t0:.2f} s from start to exit", flush=True)
        for line in r.stdout.splitlines():
            if line.startswith("cycle "):
                _, mode, c, g4, g1m, h2d, t_ctx, t_meas, t_end = line.split()
                rows.append((p, mode, int(c), float(g4), float(g1m), float(t_ctx), float(t_meas), float(t_end),
                             float(h2d)))
                print(f"process {p} {mode:7s} cycle {c}: 4 KiB {float(g4):.4g} GB/s, 1 MiB {float(g1m):.4g} GB/s, "
                      f"pinned H2D 64 MiB {float(h2d):.4g} GB/s;"
                      f" context {float(t_ctx):.1f} ms, measure {float(t_meas):.1f} ms, reset/destroy {float(t_end):.1f} ms",
                      flush=True)
    print("# spread of log figures (SD, percent): between process means | between cycles within a process (pooled)")
    for mode in MODES:
        for col, name in ((3, "4 KiB"), (4, "1 MiB"), (8, "pinned H2D 64 MiB")):
            per = {}
            for row in rows:
                if row[1] == mode:
                    per.setdefault(row[0], []).append(math.log(row[col]))
            means = [st.mean(v) for v in per.values()]
            within = [x - st.mean(v) for v in per.values() for x in v]
            dof = sum(len(v) - 1 for v in per.values())
            between = 100 * st.stdev(means) if len(means) > 1 else float("nan")
            w = 100 * math.sqrt(sum(x * x for x in within) / dof) if dof > 0 else float("nan")
            print(f"split {mode} {name}: processes {between:.2f}% | cycles within {w:.2f}%")
        ctx_ms = [row[5] for row in rows if row[1] == mode]
        end_ms = [row[7] for row in rows if row[1] == mode]
        print(f"cost {mode}: context current median {st.median(ctx_ms):.1f} ms, reset/destroy median "
              f"{st.median(end_ms):.1f} ms")


if __name__ == "__main__":
    main()
