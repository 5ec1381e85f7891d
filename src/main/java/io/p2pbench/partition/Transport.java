package io.p2pbench.partition;

/** How activations move between the ranks of a split model. */
public enum Transport {
    /** Copy-engine peer copies with peer access on (NVLink or PCIe P2P). */
    P2P,
    /** cudaMemcpyPeerAsync with peer access off: the driver stages the copy. */
    P2P_OFF,
    /** Through pinned host memory, double-buffered, as frameworks do without P2P. */
    HOST_STAGED
}
