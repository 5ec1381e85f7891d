package io.p2pbench.transfer;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * A device-to-device copy through pinned host memory, as frameworks do it without P2P: the source
 * GPU copies a chunk into one of two pinned bounce buffers, the destination GPU copies it on, and
 * the legs overlap (double buffering): while chunk c travels host to device, chunk c+1 travels
 * device to host.
 * <pre>
 *   source stream:       D2H c0 → b0 | D2H c1 → b1 | wait(b0 free) D2H c2 → b0 | ...
 *   destination stream:  wait(c0) H2D b0 | wait(c1) H2D b1 | ...
 * </pre>
 * One instance serves one source GPU and one destination GPU; copies enqueued through it are
 * ordered by its events, whatever their sizes.
 */
public final class StagedCopy implements AutoCloseable {
    private final long chunkBytes;
    private final PinnedHostBuffer[] bounce = new PinnedHostBuffer[2];
    private final CudaEvent[] toHostDone = new CudaEvent[2];
    private final CudaEvent[] toDeviceDone = new CudaEvent[2];
    private final boolean[] used = new boolean[2];
    private long chunks;

    /** Bounce buffers of {@code chunkBytes} for copies from {@code srcDevice} to {@code dstDevice}. */
    public StagedCopy(int srcDevice, int dstDevice, long chunkBytes) {
        this.chunkBytes = chunkBytes;
        try {
            for (int i = 0; i < 2; i++) {
                bounce[i] = new PinnedHostBuffer(chunkBytes);
                toHostDone[i] = CudaEvent.ordering(srcDevice);
                toDeviceDone[i] = CudaEvent.ordering(dstDevice);
            }
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, this);
        }
    }

    /** Enqueue operations one copy of {@code bytes} puts on each of its two streams. */
    public int operationsPerStream(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, 3 * ((bytes + chunkBytes - 1) / chunkBytes));
    }

    /**
     * Enqueues a copy of {@code bytes}: device-to-host legs on {@code srcStream} (the source's GPU),
     * host-to-device legs on {@code dstStream} (the destination's GPU), which ends the copy.
     */
    public void enqueue(Memory src, long srcOffset, Memory dst, long dstOffset, long bytes, CudaStream srcStream,
                        CudaStream dstStream) {
        for (long off = 0; off < bytes; off += chunkBytes) {
            long len = Math.min(chunkBytes, bytes - off);
            int slot = (int) (chunks++ & 1);
            if (used[slot]) {
                srcStream.waitFor(toDeviceDone[slot]); // the buffer's previous chunk has left for the device
            }
            Copies.async(bounce[slot], 0, src, srcOffset + off, len, srcStream);
            toHostDone[slot].record(srcStream);
            dstStream.waitFor(toHostDone[slot]);
            Copies.async(dst, dstOffset + off, bounce[slot], 0, len, dstStream);
            toDeviceDone[slot].record(dstStream);
            used[slot] = true;
        }
    }

    /**
     * Forgets which bounce buffer a previous copy may still be using; only for a caller whose two streams are idle
     * (nothing left to wait for), e.g. before and after capturing copies into a CUDA graph, whose events must not be
     * waited on again outside it.
     */
    public void forgetFinished() {
        used[0] = false;
        used[1] = false;
    }

    @Override
    public void close() {
        // Made in this order; closed last first, every one even where an earlier close fails.
        List<AutoCloseable> made = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            for (AutoCloseable c : new AutoCloseable[] {bounce[i], toHostDone[i], toDeviceDone[i]}) {
                if (c != null) {
                    made.add(c);
                }
            }
        }
        Resources.closeReversed(made);
    }
}
