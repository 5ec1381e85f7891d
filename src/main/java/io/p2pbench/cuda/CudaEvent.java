package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.cuda.cudart.CUevent_st;

/**
 * A CUDA event on one GPU. Timing events mark the start and end of device-timed work; ordering
 * events (created with timing disabled, which makes them cheaper) only order streams.
 */
public final class CudaEvent implements AutoCloseable {
    private final int device;
    private final boolean timing;
    private CUevent_st handle;

    private CudaEvent(int device, boolean timing) {
        this.device = device;
        this.timing = timing;
        Cuda.setDevice(device);
        CUevent_st e = new CUevent_st();
        int flags = timing ? 0 : cudaEventDisableTiming;
        Cuda.check(cudaEventCreateWithFlags(e, flags), "cudaEventCreateWithFlags",
                "device", device, "timing", timing);
        this.handle = e;
    }

    /** An event that can be used with {@link #elapsedMillis}. */
    public static CudaEvent timing(int device) {
        return new CudaEvent(device, true);
    }

    /** An event used only to order streams. */
    public static CudaEvent ordering(int device) {
        return new CudaEvent(device, false);
    }

    /** The GPU the event belongs to. */
    public int device() {
        return device;
    }

    CUevent_st handle() {
        if (handle == null) {
            throw new IllegalStateException("event on GPU " + device + " is closed");
        }
        return handle;
    }

    /** Records the event at the current end of {@code stream} (which must be on the same GPU). */
    public void record(CudaStream stream) {
        if (stream.device() != device) {
            throw new IllegalArgumentException("event of GPU " + device + " recorded on a stream of GPU "
                    + stream.device());
        }
        Cuda.setDevice(device);
        int status = cudaEventRecord(handle(), stream.handle());
        if (status != cudaSuccess) {
            throw Cuda.failure(status, "cudaEventRecord", "device", device);
        }
    }

    /** Whether the work before the event's last record has completed (cudaEventQuery; does not block). */
    public boolean isComplete() {
        int status = cudaEventQuery(handle());
        if (status == cudaSuccess) {
            return true;
        }
        if (status == cudaErrorNotReady) {
            cudaGetLastError();
            return false;
        }
        throw Cuda.failure(status, "cudaEventQuery", "device", device);
    }

    /** Blocks the host until the event has completed. */
    public void synchronize() {
        Cuda.check(cudaEventSynchronize(handle()), "cudaEventSynchronize", "device", device);
    }

    /** Device time from {@code start} to {@code end}, in milliseconds (resolution about 0.5 us). */
    public static float elapsedMillis(CudaEvent start, CudaEvent end) {
        if (!start.timing || !end.timing) {
            throw new IllegalArgumentException("elapsed time needs two timing events");
        }
        float[] ms = {0f};
        Cuda.check(cudaEventElapsedTime(ms, start.handle(), end.handle()), "cudaEventElapsedTime",
                "startDevice", start.device, "endDevice", end.device);
        return ms[0];
    }

    @Override
    public void close() {
        if (handle != null) {
            CUevent_st e = handle;
            handle = null;
            Cuda.setDevice(device);
            Cuda.check(cudaEventDestroy(e), "cudaEventDestroy", "device", device);
        }
    }
}
