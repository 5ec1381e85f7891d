package io.p2pbench.cuda;

import org.bytedeco.javacpp.Pointer;

/**
 * Ordinary (pageable) host memory from malloc. A copy from or to it cannot be a direct DMA: the
 * driver stages it through pinned buffers of its own, which is what this kind of memory measures.
 */
public final class PageableHostBuffer extends Allocation {
    /** Allocates {@code bytes} with malloc and touches every page, so page faults stay out of timing. */
    public PageableHostBuffer(long bytes) {
        super(Kind.PAGEABLE_HOST, -1, bytes);
        Pointer p = Pointer.malloc(bytes);
        if (p == null || p.isNull()) {
            // Out of host memory, not a CUDA problem: reported as an allocation failure, which the
            // fixtures turn into a "too little memory" skip, never as "CUDA not available".
            throw CudaException.hostOutOfMemory("malloc", bytes);
        }
        Pointer.memset(p, 0, bytes);
        own(p);
    }

    @Override
    void free(Pointer allocated) {
        Pointer.free(allocated);
    }

    @Override
    String describe() {
        return "pageable host buffer";
    }
}
