package io.p2pbench.spec;

import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.NumaPlacement;

/** A workload with a host buffer: the GPU it copies to and from, and where the buffer lives. */
public interface HostBuffer {
    /** The GPU. */
    int device();

    /** The host buffer's NUMA node relative to the GPU's. */
    NumaPlacement numa();

    /** Whether the host buffer is pinned or pageable. */
    HostMemory memory();
}
