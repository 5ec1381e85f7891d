package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.cuda.cudart.CUstream_st;

/**
 * A non-blocking stream on one GPU. Non-blocking, so it never synchronises implicitly with the
 * legacy default stream: a benchmark's timing must not depend on unrelated work.
 *
 * <p>With {@link #reuseStreams(boolean)} on (a fork group's JVM), closing a stream keeps its native
 * stream for the next one made on that GPU: the n-th stream a fixture opens is then the same native
 * stream, on the same hardware queue, as the n-th one the first fixture of the process opened. On the
 * H200 node the queue a new stream lands on depends on how many streams the context made before, and
 * a small copy's device time with it (docs/notes/run-overhead.md); reusing them gives every later
 * fixture the placement of the first, without resetting the context.
 */
public final class CudaStream implements AutoCloseable {
    /** Native streams kept for reuse, per GPU ({@link #reuseStreams}). */
    private static final KeptHandles<Integer, CUstream_st> KEPT = new KeptHandles<>("CUDA stream", (device, s) -> {
        Cuda.setDevice(device);
        Cuda.check(cudaStreamDestroy(s), "cudaStreamDestroy", "device", device);
    });

    private final int device;
    private final KeptHandles.Slot<CUstream_st> kept;
    private CUstream_st handle;

    /**
     * Creates a non-blocking stream on {@code device}; with {@link #reuseStreams} on, takes the first kept
     * one of that GPU that is not open instead, where there is one.
     */
    public CudaStream(int device) {
        this.device = device;
        Cuda.setDevice(device);
        KeptHandles.Slot<CUstream_st> slot = KEPT.take(device);
        if (slot == null) {
            CUstream_st s = new CUstream_st();
            Cuda.check(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
                    "device", device, "flags", "nonBlocking");
            slot = KEPT.keep(device, s);
            this.handle = s;
        } else {
            this.handle = slot.handle;
        }
        this.kept = slot;
    }

    /**
     * Turns reuse of closed streams on or off for streams made from now on. Turning it off destroys the
     * kept streams that are not open (open ones are destroyed when closed).
     */
    public static void reuseStreams(boolean on) {
        KEPT.turn(on);
    }

    /** How many native streams are kept on {@code device}, open or not. */
    public static int keptStreams(int device) {
        return KEPT.count(device);
    }

    /**
     * Destroys every kept stream that is not open (before a context reset, which would invalidate them).
     *
     * @throws IllegalStateException if a kept stream is still open (it stays kept)
     */
    static void destroyKept() {
        KEPT.destroyIdle();
    }

    /** The GPU the stream belongs to. */
    public int device() {
        return device;
    }

    /** The raw handle, for calls inside this package. */
    CUstream_st handle() {
        if (handle == null) {
            throw new IllegalStateException("stream on GPU " + device + " is closed");
        }
        return handle;
    }

    /** Blocks the host until all work enqueued so far has finished. */
    public void synchronize() {
        int status = cudaStreamSynchronize(handle());
        if (status != cudaSuccess) {
            throw Cuda.failure(status, "cudaStreamSynchronize", "device", device);
        }
    }

    /** Makes later work on this stream wait for {@code event}'s last recorded point (any device). */
    public void waitFor(CudaEvent event) {
        Cuda.setDevice(device);
        int status = cudaStreamWaitEvent(handle(), event.handle(), 0);
        if (status != cudaSuccess) {
            throw Cuda.failure(status, "cudaStreamWaitEvent", "device", device, "eventDevice", event.device());
        }
    }

    /**
     * Destroys the stream, or, if it is a kept one, waits until its work is done and hands it back for
     * the next stream made on this GPU (destroying it if reuse was turned off meanwhile).
     */
    @Override
    public void close() {
        if (handle != null) {
            CUstream_st s = handle;
            handle = null;
            Cuda.setDevice(device);
            if (kept == null) {
                Cuda.check(cudaStreamDestroy(s), "cudaStreamDestroy", "device", device);
                return;
            }
            int status = cudaStreamSynchronize(s);
            if (!KEPT.giveBack(device, kept, status == cudaSuccess)) {
                Cuda.check(cudaStreamDestroy(s), "cudaStreamDestroy", "device", device);
            }
            if (status != cudaSuccess) {
                throw Cuda.failure(status, "cudaStreamSynchronize", "device", device);
            }
        }
    }
}
