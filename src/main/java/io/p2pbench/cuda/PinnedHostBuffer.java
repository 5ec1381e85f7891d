package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * Page-locked host memory from cudaHostAlloc, freed with cudaFreeHost. Always portable (pinned for
 * every context) and mapped (a kernel on any GPU can address it), so copy engines reach it by DMA
 * and verification kernels can read it in place.
 */
public final class PinnedHostBuffer implements Memory {
    private final long bytes;
    private BytePointer base;

    /** Allocates {@code bytes} of portable, mapped pinned memory. */
    public PinnedHostBuffer(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be positive, was " + bytes);
        }
        this.bytes = bytes;
        BytePointer p = new BytePointer();
        Cuda.check(cudaHostAlloc(p, bytes, cudaHostAllocPortable | cudaHostAllocMapped),
                "cudaHostAlloc", "bytes", bytes, "flags", "portable|mapped");
        p.capacity(bytes);
        this.base = p;
    }

    @Override
    public Kind kind() {
        return Kind.PINNED_HOST;
    }

    @Override
    public int device() {
        return -1;
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

    /** A little-endian view for host-side reads and writes (at most 2 GiB). */
    @Override
    public ByteBuffer hostView() {
        return Pointers.view(live(), bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private BytePointer live() {
        if (base == null) {
            throw new IllegalStateException("pinned host buffer is closed");
        }
        return base;
    }

    @Override
    public void close() {
        if (base != null) {
            BytePointer p = base;
            base = null;
            Cuda.check(cudaFreeHost(p), "cudaFreeHost", "bytes", bytes);
        }
    }
}
