package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.javacpp.Pointer;

/** The copy, fill and compare calls the transfer and collective packages enqueue or make. */
public final class Copies {
    private Copies() {}

    /**
     * cudaMemcpyPeerAsync of {@code bytes} from {@code src} (on its GPU) to {@code dst} (on its GPU),
     * enqueued on {@code stream}. With peer access enabled the copy engine moves the bytes over the
     * link; without it the driver stages them through host memory.
     */
    public static void peerAsync(Memory dst, long dstOffset, Memory src, long srcOffset, long bytes,
                                 CudaStream stream) {
        Cuda.setDevice(stream.device());
        int status = cudaMemcpyPeerAsync(dstOffset == 0 ? dst.base() : dst.at(dstOffset), dst.device(),
                srcOffset == 0 ? src.base() : src.at(srcOffset), src.device(), bytes, stream.handle());
        if (status != cudaSuccess) {
            throw Cuda.failure(status, "cudaMemcpyPeerAsync", "dst", dst.device(), "src", src.device(),
                    "bytes", bytes, "stream", stream.device());
        }
    }

    /**
     * cudaMemcpyAsync with the direction named from the memory kinds (device to device on one GPU,
     * host to device, device to host), as a C program would write it: cudaMemcpyDefault would make
     * the runtime look both pointers up on every call, host time that latency samples would count.
     */
    public static void async(Memory dst, long dstOffset, Memory src, long srcOffset, long bytes, CudaStream stream) {
        Cuda.setDevice(stream.device());
        boolean fromDevice = src.kind() == Memory.Kind.DEVICE;
        boolean toDevice = dst.kind() == Memory.Kind.DEVICE;
        int kind = fromDevice ? (toDevice ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                : (toDevice ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
        int status = cudaMemcpyAsync(dstOffset == 0 ? dst.base() : dst.at(dstOffset),
                srcOffset == 0 ? src.base() : src.at(srcOffset), bytes, kind, stream.handle());
        if (status != cudaSuccess) {
            throw Cuda.failure(status, "cudaMemcpyAsync", "dst", describe(dst), "src", describe(src),
                    "bytes", bytes, "stream", stream.device());
        }
    }

    /** cudaMemsetAsync of device memory to a byte value. */
    public static void memsetAsync(Memory dst, int byteValue, long bytes, CudaStream stream) {
        memsetAsync(dst, 0, byteValue, bytes, stream);
    }

    /** cudaMemsetAsync of {@code bytes} of device memory at {@code offset} to a byte value. */
    public static void memsetAsync(Memory dst, long offset, int byteValue, long bytes, CudaStream stream) {
        if (dst.kind() != Memory.Kind.DEVICE) {
            throw new IllegalArgumentException("memsetAsync is for device memory, got " + dst.kind());
        }
        Cuda.setDevice(stream.device());
        Cuda.check(cudaMemsetAsync(dst.at(offset), byteValue, bytes, stream.handle()), "cudaMemsetAsync",
                "dst", describe(dst), "offset", offset, "bytes", bytes);
    }

    /** Sets host memory to a byte value, on the calling thread (no copy may be in flight). */
    public static void hostFill(Memory dst, int byteValue, long bytes) {
        requireHost(dst);
        Pointer.memset(dst.at(0), byteValue, bytes);
    }

    /** Whether the first {@code bytes} of two host buffers are equal (memcmp). */
    public static boolean hostEquals(Memory a, Memory b, long bytes) {
        requireHost(a);
        requireHost(b);
        return Pointer.memcmp(a.at(0), b.at(0), bytes) == 0;
    }

    private static void requireHost(Memory m) {
        if (m.kind() == Memory.Kind.DEVICE) {
            throw new IllegalArgumentException("host operation on device memory of GPU " + m.device());
        }
    }

    static String describe(Memory m) {
        return m.kind() == Memory.Kind.DEVICE ? "GPU" + m.device() : m.kind().name().toLowerCase();
    }
}
