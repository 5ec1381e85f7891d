package io.p2pbench.cuda;

import java.nio.ByteBuffer;
import org.bytedeco.javacpp.Pointer;

/** A block of memory a copy can read or write: device memory, pinned host or pageable host memory. */
public sealed interface Memory extends AutoCloseable
        permits Allocation {

    /** Where the memory lives. */
    enum Kind {
        /** cudaMalloc'd on one GPU. */
        DEVICE,
        /** Page-locked host memory (cudaHostAlloc), mapped into every device's address space. */
        PINNED_HOST,
        /** Ordinary malloc'd host memory; the driver stages copies through its own pinned buffers. */
        PAGEABLE_HOST
    }

    /** The kind of memory. */
    Kind kind();

    /** The owning GPU for device memory; -1 for host memory. */
    int device();

    /** Size in bytes. */
    long bytes();

    /** The allocation's own pointer, at offset 0; never repositioned. */
    Pointer base();

    /** A pointer to byte {@code offset} (a fresh view; the base stays untouched). */
    Pointer at(long offset);

    /** The base address, for kernel arguments and driver calls. */
    long address();

    /** A little-endian view of host memory for reads and writes from Java (at most 2 GiB). */
    default ByteBuffer hostView() {
        throw new UnsupportedOperationException("device memory of GPU " + device() + " has no host view");
    }

    /** Whether a kernel on any device can read and write this memory through its address. */
    default boolean deviceAccessible() {
        return kind() != Kind.PAGEABLE_HOST;
    }

    /** Frees the memory; idempotent. */
    @Override
    void close();
}
