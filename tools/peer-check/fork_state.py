#!/usr/bin/env python3
"""Where does a small copy's fork-to-fork spread come from? (issue 34)

The quick preset's 4 KiB and 1 MiB device copies agree within 0.1% between the batches of one JVM and differ by
3-5% between JVMs (rounds) of one run, in a few discrete levels. This asks, through PyTorch and outside the suite,
whether the level belongs to the process (its CUDA context), to the stream a copy runs on, or to the buffers.

    python3 tools/peer-check/fork_state.py [PROCESSES]

Starts PROCESSES (default 8) fresh processes one after another. Each creates STREAMS streams and BUFFERS buffer
pairs on GPU 0 and, for every (stream, buffer) cell, measures
  - bandwidth: 128 back-to-back device-to-device copies (cudaMemcpyAsync through Tensor.copy_), held behind a spin
    kernel (torch.cuda._sleep) while they are enqueued, timed with CUDA events; the median of 9 batches, GB/s;
  - latency: copy then stream synchronize, host clock; the median of 200, microseconds.
Then splits the spread of log figures into between processes, between streams and between buffers (within a
process), as standard deviations in percent. Output: one line per cell, then the split. No result folder.
"""
import math
import os
import statistics as st
import subprocess
import sys
import time

STREAMS = 4
BUFFERS = 4
SIZES = [4096, 1 << 20]


def child():
    import torch
    torch.cuda.init()
    dev = torch.device("cuda:0")
    streams = [torch.cuda.Stream(device=dev) for _ in range(STREAMS)]
    # Each buffer in its own 4 MiB block, so that the caching allocator places them apart.
    bufs = []
    for _ in range(BUFFERS):
        block_s = torch.empty(4 << 20, dtype=torch.uint8, device=dev)
        block_d = torch.empty(4 << 20, dtype=torch.uint8, device=dev)
        block_s.fill_(7)
        bufs.append((block_s, block_d))
    torch.cuda.synchronize()
    out = []
    for size in SIZES:
        for si, s in enumerate(streams):
            for bi, (bs, bd) in enumerate(bufs):
                src, dst = bs[:size], bd[:size]
                for _ in range(3):  # warm-up
                    dst.copy_(src, non_blocking=True)
                torch.cuda.synchronize()
                gbps = []
                for _ in range(9):
                    start = torch.cuda.Event(enable_timing=True)
                    stop = torch.cuda.Event(enable_timing=True)
                    with torch.cuda.stream(s):
                        torch.cuda._sleep(4_000_000)  # about 2 ms: the 128 copies are enqueued meanwhile
                        start.record(s)
                        for _ in range(128):
                            dst.copy_(src, non_blocking=True)
                        stop.record(s)
                    stop.synchronize()
                    gbps.append(size * 128 / (start.elapsed_time(stop) * 1e-3) / 1e9)
                lat = []
                with torch.cuda.stream(s):
                    for _ in range(200):
                        t0 = time.perf_counter_ns()
                        dst.copy_(src, non_blocking=True)
                        s.synchronize()
                        lat.append((time.perf_counter_ns() - t0) / 1e3)
                if not torch.equal(dst, src):
                    raise SystemExit(f"data check failed: stream {si} buffer {bi} size {size}")
                out.append((size, si, bi, st.median(gbps), st.median(lat)))
    for size, si, bi, g, l in out:
        print(f"cell {size} {si} {bi} {g:.4f} {l:.3f}", flush=True)


def split(rows, col):
    """Standard deviations (percent) of log figures: between processes, streams within, buffers within."""
    logs = {}
    for p, size, si, bi, g, l in rows:
        logs.setdefault(p, {})[(si, bi)] = math.log(g if col == "bw" else l)
    procs = sorted(logs)
    pmeans = [st.mean(logs[p].values()) for p in procs]
    stream_dev, buf_dev, resid = [], [], []
    for p in procs:
        cells = logs[p]
        m = st.mean(cells.values())
        smeans = [st.mean(cells[(si, bi)] for bi in range(BUFFERS)) for si in range(STREAMS)]
        bmeans = [st.mean(cells[(si, bi)] for si in range(STREAMS)) for bi in range(BUFFERS)]
        stream_dev += [x - m for x in smeans]
        buf_dev += [x - m for x in bmeans]
        for (si, bi), v in cells.items():
            resid.append(v - smeans[si] - bmeans[bi] + m)
    sd = lambda xs, dof: 100 * math.sqrt(sum(x * x for x in xs) / dof)
    n = len(procs)
    return (100 * st.stdev(pmeans) if n > 1 else float("nan"),
            sd(stream_dev, n * (STREAMS - 1)), sd(buf_dev, n * (BUFFERS - 1)),
            sd(resid, n * (STREAMS - 1) * (BUFFERS - 1)))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child()
        return
    processes = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    rows = []
    for p in range(processes):
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout, r.stderr, file=sys.stderr)
            raise SystemExit(f"process {p} failed ({r.returncode})")
        for line in r.stdout.splitlines():
            if line.startswith("cell "):
                _, size, si, bi, g, l = line.split()
                rows.append((p, int(size), int(si), int(bi), float(g), float(l)))
                print(f"process {p} size {size} stream {si} buffer {bi}: {float(g):.4g} GB/s, {float(l):.4g} us",
                      flush=True)
    print("# split of log figures, SD in percent: between processes | streams within a process | buffers within | rest")
    for size in SIZES:
        sub = [r for r in rows if r[1] == size]
        for col in ("bw", "lat"):
            b, s, u, e = split(sub, col)
            print(f"split {size} {col}: processes {b:.2f}% | streams {s:.2f}% | buffers {u:.2f}% | rest {e:.2f}%")
        for p in range(processes):
            cells = [r for r in sub if r[0] == p]
            print(f"process {p} size {size}: bandwidth median {st.median(c[4] for c in cells):.4g} GB/s "
                  f"(min {min(c[4] for c in cells):.4g}, max {max(c[4] for c in cells):.4g}); latency median "
                  f"{st.median(c[5] for c in cells):.4g} us")


if __name__ == "__main__":
    main()
