package io.p2pbench.transfer;

/** Where host memory sits relative to the GPU's NUMA node. */
public enum NumaPlacement {
    /** On the GPU's own NUMA node (or the only node). */
    LOCAL,
    /** On another NUMA node: every byte also crosses the CPU interconnect. */
    REMOTE
}
