package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/** Device memory from cudaMalloc on one GPU, freed with cudaFree. */
public final class DeviceBuffer extends Allocation {
    /** Allocates {@code bytes} on {@code device}. */
    public DeviceBuffer(int device, long bytes) {
        super(Kind.DEVICE, device, bytes);
        Cuda.setDevice(device);
        BytePointer p = new BytePointer();
        Cuda.check(cudaMalloc(p, bytes), "cudaMalloc", "device", device, "bytes", bytes);
        own(p);
    }

    @Override
    void free(Pointer allocated) {
        Cuda.setDevice(device());
        Cuda.check(cudaFree(allocated), "cudaFree", "device", device(), "bytes", bytes());
    }

    @Override
    String describe() {
        return "device buffer on GPU " + device();
    }
}
