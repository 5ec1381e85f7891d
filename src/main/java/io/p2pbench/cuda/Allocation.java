package io.p2pbench.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.Pointer;

/**
 * What the three kinds of {@link Memory} share: one allocation of {@code bytes} at a base pointer
 * that is never repositioned, views at offsets, a little-endian view of host memory, and a close
 * that frees exactly once. Subclasses allocate in their constructor and say how to free.
 */
abstract sealed class Allocation implements Memory
        permits DeviceBuffer, PinnedHostBuffer, PageableHostBuffer, IpcMappedBuffer {
    private final Kind kind;
    private final int device;
    private final long bytes;
    private Pointer base;

    /** Checks the size before the subclass allocates. */
    Allocation(Kind kind, int device, long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be positive, was " + bytes);
        }
        this.kind = kind;
        this.device = device;
        this.bytes = bytes;
    }

    /** Takes ownership of the allocation the subclass made. */
    final void own(Pointer allocated) {
        this.base = allocated;
    }

    /** Frees the allocation (called once, by {@link #close()}). */
    abstract void free(Pointer allocated);

    /** How errors name this memory, e.g. {@code device buffer on GPU 0}. */
    abstract String describe();

    @Override
    public final Kind kind() {
        return kind;
    }

    @Override
    public final int device() {
        return device;
    }

    @Override
    public final long bytes() {
        return bytes;
    }

    @Override
    public final long address() {
        return live().address();
    }

    @Override
    public final Pointer base() {
        return live();
    }

    @Override
    public final Pointer at(long offset) {
        return Pointers.offset(live(), offset, bytes);
    }

    /** A little-endian view of host memory (at most 2 GiB); device memory has none. */
    @Override
    public final ByteBuffer hostView() {
        if (kind == Kind.DEVICE) {
            return Memory.super.hostView();
        }
        return Pointers.view(live(), bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private Pointer live() {
        if (base == null) {
            throw new IllegalStateException(describe() + " is closed");
        }
        return base;
    }

    @Override
    public final void close() {
        if (base != null) {
            Pointer p = base;
            base = null;
            free(p);
        }
    }
}
