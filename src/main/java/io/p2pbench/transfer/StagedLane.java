package io.p2pbench.transfer;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.PinnedHostBuffer;
import java.util.List;

/**
 * What frameworks do without P2P: the source GPU copies a chunk into pinned host memory, the
 * destination GPU copies it on, and the two legs overlap through two staging buffers (double
 * buffering): while chunk c travels host to device, chunk c+1 travels device to host.
 * <pre>
 *   source stream:       D2H c0 → s0 | D2H c1 → s1 | wait(s0 free) D2H c2 → s0 | ...
 *   destination stream:  wait(c0) H2D s0 | wait(c1) H2D s1 | ...
 * </pre>
 */
final class StagedLane extends Lane {
    private final Memory src;
    private final Memory dst;
    private final long chunkBytes;
    private final CudaStream srcStream;
    private final CudaStream dstStream;
    private final PinnedHostBuffer[] staging = new PinnedHostBuffer[2];
    private final CudaEvent[] toHostDone = new CudaEvent[2];
    private final CudaEvent[] toDeviceDone = new CudaEvent[2];
    private final boolean[] slotUsed = new boolean[2];
    private long chunkCounter;

    StagedLane(String label, Memory src, Memory dst, long bytes, long chunkBytes, int seed) {
        super(label, bytes, dst.device(), dst.device());
        try {
            this.src = src;
            this.dst = dst;
            this.chunkBytes = Math.min(chunkBytes, bytes);
            this.srcStream = own(new CudaStream(src.device()));
            this.dstStream = own(new CudaStream(dst.device()));
            for (int i = 0; i < 2; i++) {
                staging[i] = own(new PinnedHostBuffer(this.chunkBytes));
                toHostDone[i] = own(CudaEvent.ordering(src.device()));
                toDeviceDone[i] = own(CudaEvent.ordering(dst.device()));
            }
            fillSource(src, seed);
            verifyDestination(dst, seed);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    List<CudaStream> workStreams() {
        return List.of(srcStream, dstStream);
    }

    @Override
    CudaStream timingStream() {
        return dstStream;
    }

    @Override
    int operationsPerTransfer() {
        long chunks = (bytes() + chunkBytes - 1) / chunkBytes;
        return (int) Math.min(Integer.MAX_VALUE, chunks * 3);
    }

    @Override
    boolean gateable() {
        return true;
    }

    @Override
    void enqueueTransfer() {
        for (long off = 0; off < bytes(); off += chunkBytes) {
            long len = Math.min(chunkBytes, bytes() - off);
            int slot = (int) (chunkCounter++ & 1);
            if (slotUsed[slot]) {
                srcStream.waitFor(toDeviceDone[slot]); // the buffer's previous chunk has left for the device
            }
            Copies.async(staging[slot], 0, src, off, len, srcStream);
            toHostDone[slot].record(srcStream);
            dstStream.waitFor(toHostDone[slot]);
            Copies.async(dst, off, staging[slot], 0, len, dstStream);
            toDeviceDone[slot].record(dstStream);
            slotUsed[slot] = true;
        }
    }
}
