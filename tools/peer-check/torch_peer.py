#!/usr/bin/env python3
"""Peer copies through PyTorch, the outside reference for p2pbench's CE_P2P rows on a machine with two GPUs or more.

Usage: python3 torch_peer.py [SIZE_MIB...]   (default 64 256 1024)

For every ordered pair of distinct GPUs (and each GPU's device-local copy) and each size: dst.copy_(src) on the
source GPU's stream, peer access as PyTorch sets it up (cudaDeviceCanAccessPeer, then enabled), 3 untimed copies,
then the median over 7 rounds of a window of 16 back-to-back copies timed by CUDA events on that stream.
Bandwidth in decimal GB/s of the bytes copied, counted once (one direction), as p2pbench's CE_P2P rows and
nvbandwidth count them; a device-local copy also reads and writes device memory, so HBM moves twice that.
Not gated: at 64 MiB and above one copy takes tens of microseconds or more, far above the enqueue cost.
"""
import statistics
import sys

import torch


def bandwidth(src_dev, dst_dev, nbytes):
    n = nbytes // 4
    with torch.cuda.device(src_dev):
        a = torch.arange(n, device="cuda:%d" % src_dev, dtype=torch.int32)
    b = torch.full((n,), -1, device="cuda:%d" % dst_dev, dtype=torch.int32)
    stream = torch.cuda.current_stream(src_dev)
    with torch.cuda.device(src_dev):
        for _ in range(3):
            b.copy_(a, non_blocking=True)
        torch.cuda.synchronize(src_dev)
        torch.cuda.synchronize(dst_dev)
        times = []
        for _ in range(7):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record(stream)
            for _ in range(16):
                b.copy_(a, non_blocking=True)
            stop.record(stream)
            stop.synchronize()
            times.append(start.elapsed_time(stop) / 1000.0 / 16)
    torch.cuda.synchronize(dst_dev)
    ok = bool(torch.equal(b.cpu(), a.cpu()))
    del a, b
    torch.cuda.empty_cache()
    return nbytes / statistics.median(times) / 1e9, ok


def main(sizes):
    count = torch.cuda.device_count()
    print("torch", torch.__version__, "cuda", torch.version.cuda, "gpus", count, torch.cuda.get_device_name(0))
    for s in range(count):
        for d in range(count):
            if s != d:
                print("# peer access %d->%d: %s" % (s, d, torch.cuda.can_device_access_peer(s, d)))
    print("src\tdst\tmib\tGB_s\tverified")
    for s in range(count):
        for d in range(count):
            for mib in sizes:
                gbs, ok = bandwidth(s, d, mib << 20)
                print("%d\t%d\t%d\t%.2f\t%s" % (s, d, mib, gbs, ok))


if __name__ == "__main__":
    main([int(x) for x in sys.argv[1:]] or [64, 256, 1024])
