package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/** Device memory from cudaMalloc on one GPU, freed with cudaFree. */
public final class DeviceBuffer implements Memory {
    private final int device;
    private final long bytes;
    private BytePointer base;

    /** Allocates {@code bytes} on {@code device}. */
    public DeviceBuffer(int device, long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be positive, was " + bytes);
        }
        this.device = device;
        this.bytes = bytes;
        Cuda.setDevice(device);
        BytePointer p = new BytePointer();
        Cuda.check(cudaMalloc(p, bytes), "cudaMalloc", "device", device, "bytes", bytes);
        this.base = p;
    }

    @Override
    public Kind kind() {
        return Kind.DEVICE;
    }

    @Override
    public int device() {
        return device;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public long address() {
        return live().address();
    }

    @Override
    public Pointer base() {
        return live();
    }

    @Override
    public Pointer at(long offset) {
        return Pointers.offset(live(), offset, bytes);
    }

    private BytePointer live() {
        if (base == null) {
            throw new IllegalStateException("device buffer on GPU " + device + " is closed");
        }
        return base;
    }

    @Override
    public void close() {
        if (base != null) {
            BytePointer p = base;
            base = null;
            Cuda.setDevice(device);
            Cuda.check(cudaFree(p), "cudaFree", "device", device, "bytes", bytes);
        }
    }
}
