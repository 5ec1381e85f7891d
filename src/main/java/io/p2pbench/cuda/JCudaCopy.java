package io.p2pbench.cuda;

import java.lang.reflect.Field;
import java.util.List;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * One copy through JCuda's driver API, on the suite's own buffers and stream: the second binding
 * of the latency rows ({@link Binding#JCUDA_DRIVER}). Everything JCuda needs (pointer objects, the
 * stream handle, peer contexts) is built once here, so {@link #enqueue()} and
 * {@link #synchronize()} allocate nothing and cost what an application's JCuda call costs.
 *
 * <p>The stream is the JavaCPP stream's own handle, so the gate, the events and the checks of
 * the JavaCPP path see this copy exactly as they see theirs. JCuda and JavaCPP load the same
 * libcuda.so.1, so the runtime's primary context (made current by {@link Cuda#setDevice}) is the
 * context the driver calls run in.
 */
public final class JCudaCopy implements AutoCloseable {
    private static final Field NATIVE_POINTER;

    static {
        try {
            NATIVE_POINTER = NativePointerObject.class.getDeclaredField("nativePointer");
            NATIVE_POINTER.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("this JCuda version has no NativePointerObject.nativePointer", e);
        }
    }

    private enum Direction { DEVICE_TO_DEVICE, PEER, HOST_TO_DEVICE, DEVICE_TO_HOST }

    private final Direction direction;
    private final long bytes;
    private final int device;
    private final CUstream stream = new CUstream();
    private final CUdeviceptr deviceSrc;
    private final CUdeviceptr deviceDst;
    private final Pointer hostSrc;
    private final Pointer hostDst;
    private final CUcontext srcContext;
    private final CUcontext dstContext;
    private final int srcDevice;
    private final int dstDevice;
    private boolean closed;

    /** A copy of {@code bytes} from the start of {@code src} to the start of {@code dst} on {@code stream}. */
    public JCudaCopy(Memory dst, Memory src, long bytes, CudaStream stream) {
        if (bytes > Math.min(src.bytes(), dst.bytes())) {
            throw new IllegalArgumentException("copy of " + bytes + " bytes does not fit buffers of " + src.bytes()
                    + " and " + dst.bytes() + " bytes");
        }
        boolean fromDevice = src.kind() == Memory.Kind.DEVICE;
        boolean toDevice = dst.kind() == Memory.Kind.DEVICE;
        if (!fromDevice && !toDevice) {
            throw new IllegalArgumentException("a host-to-host copy is not a CUDA copy");
        }
        if ((!fromDevice && src.kind() != Memory.Kind.PINNED_HOST) || (!toDevice && dst.kind() != Memory.Kind.PINNED_HOST)) {
            throw new IllegalArgumentException("JCuda copies here take pinned host memory; got "
                    + (fromDevice ? dst.kind() : src.kind()));
        }
        JCudaDriver.setExceptionsEnabled(false);
        this.bytes = bytes;
        this.device = stream.device();
        this.srcDevice = src.device();
        this.dstDevice = dst.device();
        setHandle(this.stream, stream.handle().address());
        this.deviceSrc = fromDevice ? devicePointer(src.address()) : null;
        this.deviceDst = toDevice ? devicePointer(dst.address()) : null;
        this.hostSrc = fromDevice ? null : hostPointer(src);
        this.hostDst = toDevice ? null : hostPointer(dst);
        if (fromDevice && toDevice && src.device() != dst.device()) {
            direction = Direction.PEER;
            srcContext = retainPrimary(src.device());
            CUcontext d;
            try {
                d = retainPrimary(dst.device());
            } catch (RuntimeException e) {
                release(src.device());
                throw e;
            }
            dstContext = d;
        } else {
            direction = fromDevice ? (toDevice ? Direction.DEVICE_TO_DEVICE : Direction.DEVICE_TO_HOST)
                    : Direction.HOST_TO_DEVICE;
            srcContext = null;
            dstContext = null;
        }
    }

    /** Enqueues the copy on the stream (the stream's GPU made current first, as the runtime path does). */
    public void enqueue() {
        Cuda.setDevice(device);
        int r = switch (direction) {
            case DEVICE_TO_DEVICE -> JCudaDriver.cuMemcpyDtoDAsync(deviceDst, deviceSrc, bytes, stream);
            case PEER -> JCudaDriver.cuMemcpyPeerAsync(deviceDst, dstContext, deviceSrc, srcContext, bytes, stream);
            case HOST_TO_DEVICE -> JCudaDriver.cuMemcpyHtoDAsync(deviceDst, hostSrc, bytes, stream);
            case DEVICE_TO_HOST -> JCudaDriver.cuMemcpyDtoHAsync(hostDst, deviceSrc, bytes, stream);
        };
        if (r != CUresult.CUDA_SUCCESS) {
            throw failure(r, callName(), "src", srcDevice, "dst", dstDevice, "bytes", bytes);
        }
    }

    /** cuStreamSynchronize on the copy's stream. */
    public void synchronize() {
        int r = JCudaDriver.cuStreamSynchronize(stream);
        if (r != CUresult.CUDA_SUCCESS) {
            throw failure(r, "cuStreamSynchronize", "device", device);
        }
    }

    /** The driver call this copy makes, e.g. {@code cuMemcpyHtoDAsync}. */
    public String callName() {
        return switch (direction) {
            case DEVICE_TO_DEVICE -> "cuMemcpyDtoDAsync";
            case PEER -> "cuMemcpyPeerAsync";
            case HOST_TO_DEVICE -> "cuMemcpyHtoDAsync";
            case DEVICE_TO_HOST -> "cuMemcpyDtoHAsync";
        };
    }

    /** Releases the peer contexts it retained; the stream and buffers belong to their owners. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (direction == Direction.PEER) {
            Resources.closeEach(List.of(() -> release(dstDevice), () -> release(srcDevice)));
        }
    }

    static CUdeviceptr devicePointer(long address) {
        // The address as JCuda's own cuMemAlloc would have set it: nativePointer, byte offset 0.
        CUdeviceptr p = new CUdeviceptr();
        setHandle(p, address);
        return p;
    }

    private static Pointer hostPointer(Memory host) {
        if (host.bytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("JCuda host copies here take at most 2 GiB, got " + host.bytes());
        }
        // A direct buffer over the pinned memory: JCuda passes its address, the form it accepts for async copies.
        return Pointer.to(host.hostView());
    }

    private static void setHandle(NativePointerObject o, long address) {
        try {
            NATIVE_POINTER.setLong(o, address);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot hand a JavaCPP handle to JCuda", e);
        }
    }

    private static CUcontext retainPrimary(int ordinal) {
        CUdevice dev = new CUdevice();
        int r = JCudaDriver.cuDeviceGet(dev, ordinal);
        if (r != CUresult.CUDA_SUCCESS) {
            throw failure(r, "cuDeviceGet", "ordinal", ordinal);
        }
        CUcontext ctx = new CUcontext();
        r = JCudaDriver.cuDevicePrimaryCtxRetain(ctx, dev);
        if (r != CUresult.CUDA_SUCCESS) {
            throw failure(r, "cuDevicePrimaryCtxRetain", "device", ordinal);
        }
        return ctx;
    }

    private static void release(int ordinal) {
        CUdevice dev = new CUdevice();
        int r = JCudaDriver.cuDeviceGet(dev, ordinal);
        if (r == CUresult.CUDA_SUCCESS) {
            r = JCudaDriver.cuDevicePrimaryCtxRelease(dev);
        }
        if (r != CUresult.CUDA_SUCCESS) {
            throw failure(r, "cuDevicePrimaryCtxRelease", "device", ordinal);
        }
    }

    private static CudaException failure(int result, String call, Object... args) {
        return new CudaException(call, Cuda.formatArgs(args), result, CUresult.stringFor(result), "via JCuda");
    }
}
