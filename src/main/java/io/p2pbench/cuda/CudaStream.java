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
    /** Kept native streams per GPU, in the order they were made; {@code inUse} marks the open ones. */
    private static final java.util.Map<Integer, java.util.List<Kept>> KEPT = new java.util.HashMap<>();
    private static volatile boolean reuse;

    private static final class Kept {
        final CUstream_st handle;
        boolean inUse;

        Kept(CUstream_st handle) {
            this.handle = handle;
        }
    }

    private final int device;
    private final Kept kept;
    private CUstream_st handle;

    /**
     * Creates a non-blocking stream on {@code device}; with {@link #reuseStreams} on, takes the first kept
     * one of that GPU that is not open instead, where there is one.
     */
    public CudaStream(int device) {
        this.device = device;
        Cuda.setDevice(device);
        if (reuse) {
            synchronized (KEPT) {
                java.util.List<Kept> list = KEPT.computeIfAbsent(device, d -> new java.util.ArrayList<>());
                Kept free = null;
                for (Kept k : list) {
                    if (!k.inUse) {
                        free = k;
                        break;
                    }
                }
                if (free == null) {
                    free = new Kept(create(device));
                    list.add(free);
                }
                free.inUse = true;
                this.kept = free;
                this.handle = free.handle;
            }
        } else {
            this.kept = null;
            this.handle = create(device);
        }
    }

    private static CUstream_st create(int device) {
        CUstream_st s = new CUstream_st();
        Cuda.check(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
                "device", device, "flags", "nonBlocking");
        return s;
    }

    /**
     * Turns reuse of closed streams on or off for streams made from now on. Turning it off destroys the
     * kept streams that are not open (open ones are destroyed when closed).
     */
    public static void reuseStreams(boolean on) {
        reuse = on;
        if (!on) {
            destroyKept();
        }
    }

    /** Whether closed streams are kept for reuse. */
    public static boolean reusesStreams() {
        return reuse;
    }

    /** How many native streams are kept on {@code device}, open or not. */
    public static int keptStreams(int device) {
        synchronized (KEPT) {
            return KEPT.getOrDefault(device, java.util.List.of()).size();
        }
    }

    /**
     * Destroys every kept stream that is not open (before a context reset, which would invalidate them).
     *
     * @throws IllegalStateException if a kept stream is still open (it stays kept)
     */
    static void destroyKept() {
        int open = 0;
        synchronized (KEPT) {
            for (var e : KEPT.entrySet()) {
                for (java.util.Iterator<Kept> it = e.getValue().iterator(); it.hasNext(); ) {
                    Kept k = it.next();
                    if (k.inUse) {
                        open++;
                        continue;
                    }
                    Cuda.setDevice(e.getKey());
                    Cuda.check(cudaStreamDestroy(k.handle), "cudaStreamDestroy", "device", e.getKey());
                    it.remove();
                }
            }
        }
        if (open > 0) {
            throw new IllegalStateException(open + " kept CUDA stream(s) still open");
        }
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
            synchronized (KEPT) {
                kept.inUse = false;
                if (!reuse || status != cudaSuccess) {
                    KEPT.getOrDefault(device, new java.util.ArrayList<>()).remove(kept);
                    Cuda.check(cudaStreamDestroy(s), "cudaStreamDestroy", "device", device);
                }
            }
            if (status != cudaSuccess) {
                throw Cuda.failure(status, "cudaStreamSynchronize", "device", device);
            }
        }
    }
}
