package io.p2pbench.transfer;

/** Host memory for host-device copies. */
public enum HostMemory {
    /** Page-locked (cudaHostAlloc): the copy engine reads or writes it directly by DMA. */
    PINNED,
    /** Ordinary malloc'd memory: the driver stages each copy through pinned buffers of its own. */
    PAGEABLE
}
