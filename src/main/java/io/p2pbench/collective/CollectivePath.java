package io.p2pbench.collective;

/** How a collective's chunks move between GPUs. */
public enum CollectivePath {
    /** Peer copies with peer access on (NVLink or PCIe P2P), issued by the receiving GPU. */
    P2P,
    /** Through pinned host memory, double-buffered (what frameworks do when P2P is off). */
    HOST_STAGED
}
