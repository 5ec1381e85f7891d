package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.cuda.cudart.CUstream_st;

/**
 * A non-blocking stream on one GPU. Non-blocking, so it never synchronises implicitly with the
 * legacy default stream: a benchmark's timing must not depend on unrelated work.
 */
public final class CudaStream implements AutoCloseable {
    private final int device;
    private CUstream_st handle;

    /** Creates a non-blocking stream on {@code device}. */
    public CudaStream(int device) {
        this.device = device;
        Cuda.setDevice(device);
        CUstream_st s = new CUstream_st();
        Cuda.check(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
                "device", device, "flags", "nonBlocking");
        this.handle = s;
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

    @Override
    public void close() {
        if (handle != null) {
            CUstream_st s = handle;
            handle = null;
            Cuda.setDevice(device);
            Cuda.check(cudaStreamDestroy(s), "cudaStreamDestroy", "device", device);
        }
    }
}
