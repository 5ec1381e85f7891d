package io.p2pbench.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * Ordinary (pageable) host memory from malloc. A copy from or to it cannot be a direct DMA: the
 * driver stages it through pinned buffers of its own, which is what this kind of memory measures.
 */
public final class PageableHostBuffer implements Memory {
    private final long bytes;
    private Pointer base;

    /** Allocates {@code bytes} with malloc and touches every page, so page faults stay out of timing. */
    public PageableHostBuffer(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be positive, was " + bytes);
        }
        this.bytes = bytes;
        Pointer p = Pointer.malloc(bytes);
        if (p == null || p.isNull()) {
            throw CudaException.notAvailable("malloc of " + bytes + " bytes of pageable host memory failed");
        }
        Pointer.memset(p, 0, bytes);
        this.base = p;
    }

    @Override
    public Kind kind() {
        return Kind.PAGEABLE_HOST;
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

    private Pointer live() {
        if (base == null) {
            throw new IllegalStateException("pageable host buffer is closed");
        }
        return base;
    }

    @Override
    public void close() {
        if (base != null) {
            Pointer p = base;
            base = null;
            Pointer.free(p);
        }
    }
}
