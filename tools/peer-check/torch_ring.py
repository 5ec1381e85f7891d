#!/usr/bin/env python3
"""The ring all-reduce on ranks that share one GPU, through PyTorch: the outside reference for p2pbench's
ALLREDUCE_RING rows on group 0,0,0,0 (issue 34: those rows were enqueued ungated and timed the host).

Usage: python3 torch_ring.py [RANKS] [SIZE_MIB] [PIECES]   (default 4 64 4: p2pbench's quick preset)

The same work as p2pbench's RingAllReduce over P2P (float32, sum, out of place): a reduce-scatter of RANKS-1 steps,
where each rank receives a piece of a chunk into a staging buffer and adds it to its input into its output, then an
all-gather of RANKS-1 steps of copies; every chunk cut into PIECES pieces. Each rank runs on its own stream and waits
for its sender's piece by an event, as p2pbench does. One all-reduce is captured as a CUDA graph; the time is the
median over 7 windows of 8 back-to-back launches, timed by CUDA events (device time). The result of the last launch
is checked against the sum of the inputs. Prints algbw (size / time) and busbw (algbw x 2(n-1)/n), decimal GB/s, as
nccl-tests define them. Also the same captured with every rank's work on one stream (no overlap between ranks).
"""
import statistics
import sys

import torch


def build(ranks, size_mib, pieces, one_stream):
    elems = size_mib * (1 << 20) // 4
    chunk = elems // ranks
    piece = (chunk + pieces - 1) // pieces
    dev = torch.device("cuda:0")
    ins = [torch.arange(elems, device=dev, dtype=torch.float32).remainder_(97).add_(r) for r in range(ranks)]
    outs = [torch.full_like(ins[0], -1.0) for _ in range(ranks)]
    slots = [torch.empty(piece, device=dev, dtype=torch.float32) for _ in range(ranks)]
    main = torch.cuda.Stream()
    streams = [main] * ranks if one_stream else [torch.cuda.Stream() for _ in range(ranks)]
    expected = sum(ins)

    def one():
        fork = torch.cuda.Event()
        fork.record(main)
        for s in streams:
            s.wait_event(fork)
        ready = {}
        for phase, steps in (("rs", range(ranks - 1)), ("ag", range(ranks - 1))):
            for t in steps:
                for p in range(pieces):
                    lo = p * piece
                    hi = min(chunk, lo + piece)
                    if hi <= lo:
                        continue
                    done = {}
                    for r in range(ranks):
                        s = (r - 1) % ranks
                        stream = streams[r]
                        if phase == "rs":
                            c = (s - t) % ranks
                            src = ins[s] if t == 0 else outs[s]
                        else:
                            c = (s + 1 - t) % ranks
                            src = outs[s]
                        off = c * chunk
                        prev = ready.get((s, p))
                        with torch.cuda.stream(stream):
                            if prev is not None:
                                stream.wait_event(prev)
                            if phase == "rs":
                                slot = slots[r][: hi - lo]
                                slot.copy_(src[off + lo: off + hi], non_blocking=True)
                                torch.add(ins[r][off + lo: off + hi], slot, out=outs[r][off + lo: off + hi])
                            else:
                                outs[r][off + lo: off + hi].copy_(src[off + lo: off + hi], non_blocking=True)
                            e = torch.cuda.Event()
                            e.record(stream)
                            done[(r, p)] = e
                    ready.update(done)
        for s in streams:
            e = torch.cuda.Event()
            e.record(s)
            main.wait_event(e)

    graph = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    with torch.cuda.graph(graph, stream=main):
        one()
    return graph, main, outs, expected


def time_it(ranks, size_mib, pieces, one_stream):
    graph, main, outs, expected = build(ranks, size_mib, pieces, one_stream)
    with torch.cuda.stream(main):
        for _ in range(3):
            graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(7):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        with torch.cuda.stream(main):
            start.record(main)
            for _ in range(8):
                graph.replay()
            stop.record(main)
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 8 * 1e-3)
    torch.cuda.synchronize()
    for r, out in enumerate(outs):
        if not torch.equal(out, expected):
            raise SystemExit("rank %d: the all-reduce result is wrong" % r)
    t = statistics.median(times)
    alg = size_mib * (1 << 20) / t / 1e9
    return t, alg, alg * 2 * (ranks - 1) / ranks


def main():
    ranks = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    size_mib = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    pieces = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    print("torch %s, %s" % (torch.__version__, torch.cuda.get_device_name(0)))
    for one_stream in (False, True):
        t, alg, bus = time_it(ranks, size_mib, pieces, one_stream)
        print("ring all-reduce float32 %d ranks on GPU0, %d MiB, %d pieces, %s: %.1f us, algbw %.1f GB/s, busbw %.1f GB/s"
              " (checked)" % (ranks, size_mib, pieces, "one stream" if one_stream else "a stream per rank",
                              t * 1e6, alg, bus))


if __name__ == "__main__":
    main()
