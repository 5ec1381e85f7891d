#!/usr/bin/env python3
"""Why do pageable host copies spread 10-40% between the rounds of one run? (issue 34)

The suite's pageable rows (a malloc'd host buffer, touched once; the driver stages every copy through pinned
buffers of its own) move 10-40% from one round (one JVM) to the next on the H100 node, and the batches of one round
often climb (9.8, 12.2, 13.9 GB/s). This asks, outside the JVM, whether the level belongs to the process, to the
buffer's pages (transparent huge pages or not) or to the machine at that moment, and whether it warms up.

    python3 tools/peer-check/pageable_state.py [PROCESSES] [BATCHES]

Driver API through ctypes (libcuda.so.1), no PyTorch. Starts PROCESSES (default 12) fresh processes one after
another, each with one way of getting its 64 MiB host buffer, in turn:
  - malloc:  libc malloc + memset, as the suite's PageableHostBuffer does;
  - huge:    an anonymous mmap with madvise(MADV_HUGEPAGE) before it is touched;
  - nohuge:  the same with madvise(MADV_NOHUGEPAGE).
Each process times BATCHES (default 24) batches of each, in this order, one batch of every kind a turn so that time
hits all alike: 4 host-to-device copies of 64 MiB from the buffer (cuMemcpyHtoDAsync, CUDA events around the batch,
as the suite times pageable rows), 4 device-to-host copies of 64 MiB into it, 32 host-to-device copies of 1 MiB, and a
plain host memcpy of the 64 MiB buffer to a second one of the same kind (the CPU's own copy rate, the control). The
device buffer is poisoned first and checked against the host buffer's position-dependent pattern afterwards, and the
host buffer after the device-to-host copies. It prints each process's figures per batch, then the spread of the log
figures between process medians and between the batches of one process, per kind and way, and the share of the
buffer's memory in huge pages (AnonHugePages of the process's smaps). No result folder.
"""
import ctypes as C
import math
import mmap
import os
import statistics as st
import subprocess
import sys
import time

from cuda_driver import Driver

BIG = 64 << 20
SMALL = 1 << 20
BIG_COPIES = 4
SMALL_COPIES = 32
WAYS = ["malloc", "huge", "nohuge"]
KINDS = ["h2d64", "d2h64", "h2d1", "memcpy64"]


def host_buffer(way, keep):
    """A BIG-byte host buffer got the way named, every page touched; its address."""
    if way == "malloc":
        libc = C.CDLL(None)
        libc.malloc.restype = C.c_void_p
        p = libc.malloc(C.c_size_t(BIG))
        C.memset(p, 0, BIG)
        return p
    m = mmap.mmap(-1, BIG, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    m.madvise(mmap.MADV_HUGEPAGE if way == "huge" else mmap.MADV_NOHUGEPAGE)
    keep.append(m)
    p = C.addressof(C.c_char.from_buffer(m))
    C.memset(p, 0, BIG)
    return p


def huge_kib():
    """AnonHugePages of this process, KiB."""
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("AnonHugePages:"):
                return int(line.split()[1])
    return -1


def child(way, batches):
    drv = Driver()
    ck = drv.ck
    u64 = C.c_uint64
    drv.primary_context()
    keep = []
    src = host_buffer(way, keep)
    other = host_buffer(way, keep)
    pattern = bytes(((i * 131) ^ (i >> 8) ^ (i >> 16)) & 0xFF for i in range(1 << 16)) * (BIG >> 16)
    C.memmove(src, pattern, BIG)
    d = u64()
    ck("cuMemAlloc_v2", C.byref(d), C.c_size_t(BIG))
    ck("cuMemsetD8_v2", d, C.c_ubyte(0xA5), C.c_size_t(BIG))
    stream = C.c_void_p()
    ck("cuStreamCreate", C.byref(stream), 1)
    start, stop = C.c_void_p(), C.c_void_p()
    ck("cuEventCreate", C.byref(start), 0)
    ck("cuEventCreate", C.byref(stop), 0)

    def timed(copy, n, size):
        ck("cuEventRecord", start, stream)
        for _ in range(n):
            copy()
        ck("cuEventRecord", stop, stream)
        ck("cuEventSynchronize", stop)
        ms = C.c_float()
        ck("cuEventElapsedTime", C.byref(ms), start, stop)
        return size * n / (ms.value * 1e-3) / 1e9

    # The first host-to-device copy fills the device buffer with the pattern; checked after the d2h batches.
    ck("cuMemcpyHtoDAsync_v2", d, C.c_void_p(src), C.c_size_t(BIG), stream)
    ck("cuStreamSynchronize", stream)
    figures = {k: [] for k in KINDS}
    for _ in range(batches):
        figures["h2d64"].append(timed(lambda: ck("cuMemcpyHtoDAsync_v2", d, C.c_void_p(src), C.c_size_t(BIG), stream),
                                      BIG_COPIES, BIG))
        C.memset(other, 0x5A, BIG)  # poison; the device-to-host copies must overwrite it
        figures["d2h64"].append(timed(lambda: ck("cuMemcpyDtoHAsync_v2", C.c_void_p(other), d, C.c_size_t(BIG),
                                                 stream), BIG_COPIES, BIG))
        if C.string_at(other, BIG) != pattern:
            raise SystemExit(f"{way}: data check failed after device-to-host copies")
        figures["h2d1"].append(timed(lambda: ck("cuMemcpyHtoDAsync_v2", d, C.c_void_p(src), C.c_size_t(SMALL),
                                                stream), SMALL_COPIES, SMALL))
        t0 = time.perf_counter()
        C.memmove(other, src, BIG)
        figures["memcpy64"].append(BIG / (time.perf_counter() - t0) / 1e9)
    back = C.create_string_buffer(BIG)
    ck("cuMemcpyDtoH_v2", back, d, C.c_size_t(BIG))
    if back.raw != pattern:
        raise SystemExit(f"{way}: data check failed on the device buffer")
    hk = huge_kib()
    for k in KINDS:
        print(f"fig {way} {k} {hk} " + " ".join(f"{v:.3f}" for v in figures[k]), flush=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]))
        return
    processes = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    batches = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    for f in ("enabled", "defrag"):
        try:
            print(f"thp {f}: " + open(f"/sys/kernel/mm/transparent_hugepage/{f}").read().strip())
        except OSError as e:
            print(f"thp {f}: unreadable ({e})")
    print(f"cpus {os.cpu_count()}, {processes} processes x {batches} batches", flush=True)
    rows = {}  # (way, kind) -> list of per-process figure lists
    for i in range(processes):
        way = WAYS[i % len(WAYS)]
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", way, str(batches)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"process {i} ({way}) failed: {r.stdout}{r.stderr}")
            sys.exit(1)
        for line in r.stdout.splitlines():
            _, w, k, hk, *vals = line.split()
            v = [float(x) for x in vals]
            rows.setdefault((w, k), []).append(v)
            print(f"process {i:2d} {w:6s} {k:8s} hugeKiB {hk:>6s} median {st.median(v):8.3f} GB/s  batches "
                  + " ".join(f"{x:.2f}" for x in v))
        print(f"process {i} took {time.perf_counter() - t0:.1f} s", flush=True)
    print("\nspread of log figures (standard deviation): between process medians | between batches within a process "
          "(root mean square) | median of the first 4 batches / median of the last 4 (mean over processes)")
    for (w, k), procs in sorted(rows.items()):
        meds = [math.log(st.median(v)) for v in procs]
        within = math.sqrt(st.mean(st.variance([math.log(x) for x in v]) for v in procs))
        warm = st.mean(st.median(v[:4]) / st.median(v[-4:]) for v in procs)
        between = st.stdev(meds) if len(meds) > 1 else float("nan")
        print(f"{w:6s} {k:8s} {len(procs)} processes: between {100 * between:6.2f}%  within {100 * within:6.2f}%  "
              f"first/last {warm:.3f}  medians " + " ".join(f"{math.exp(m):.2f}" for m in meds))


if __name__ == "__main__":
    main()
