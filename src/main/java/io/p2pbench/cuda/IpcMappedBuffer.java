package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.cuda.cudart.cudaIpcMemHandle_t;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.SizeTPointer;

/**
 * Another process's device allocation, mapped into this process through its {@link IpcMemHandle}
 * ({@code cudaIpcOpenMemHandle} with lazy peer access, as PyTorch and vLLM open their peers' buffers) and unmapped
 * with {@code cudaIpcCloseMemHandle}. Copies and kernels of this process read and write it like its own device
 * memory; where the allocation lives on another GPU the bytes cross the link between the two GPUs.
 *
 * <p>{@link #device()} is the GPU of this process whose context maps it (the GPU the copies are issued on), not
 * necessarily the GPU holding the memory: the exporting process may number its GPU differently or see another one.
 */
public final class IpcMappedBuffer extends Allocation {
    /**
     * Maps {@code handle} in {@code device}'s context; {@code bytes} is how much of it will be used.
     *
     * @throws IllegalArgumentException if the mapped allocation is smaller than {@code bytes} (the handle came from
     *     a file another process wrote: the size it claims is checked against the driver's)
     */
    public IpcMappedBuffer(int device, IpcMemHandle handle, long bytes) {
        super(Kind.DEVICE, device, bytes);
        Cuda.require();
        Cuda.setDevice(device);
        BytePointer p = new BytePointer();
        try (cudaIpcMemHandle_t h = handle.toNative()) {
            Cuda.check(cudaIpcOpenMemHandle(p, h, cudaIpcMemLazyEnablePeerAccess), "cudaIpcOpenMemHandle",
                    "device", device, "bytes", bytes);
        }
        own(p);
        long mapped = mappedBytes(p.address());
        if (mapped < bytes) {
            close();
            throw new IllegalArgumentException("the CUDA IPC allocation is " + mapped + " bytes, smaller than the "
                    + bytes + " bytes its exporter announced");
        }
    }

    private static long mappedBytes(long address) {
        try (SizeTPointer size = new SizeTPointer(1)) {
            Cuda.checkDriver(cuMemGetAddressRange(new long[1], size, address), "cuMemGetAddressRange",
                    "address", Long.toHexString(address));
            return size.get();
        }
    }

    @Override
    void free(Pointer allocated) {
        Cuda.setDevice(device());
        Cuda.check(cudaIpcCloseMemHandle(allocated), "cudaIpcCloseMemHandle", "device", device());
    }

    @Override
    String describe() {
        return "CUDA IPC mapping on GPU " + device();
    }
}
