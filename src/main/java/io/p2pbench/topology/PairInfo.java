package io.p2pbench.topology;

/**
 * One ordered GPU pair, queried in this direction (never assumed symmetric).
 *
 * @param canAccessPeer cudaDeviceCanAccessPeer(src, dst): src may map dst's memory
 * @param performanceRank cudaDevP2PAttrPerformanceRank (lower is better), null for the same GPU
 * @param accessSupported cudaDevP2PAttrAccessSupported, null for the same GPU
 * @param nativeAtomics cudaDevP2PAttrNativeAtomicSupported, null for the same GPU
 * @param link the link class, as nvidia-smi topo -m names it
 * @param nvmlAncestor NVML's common-ancestor level (0, 10, ..., 50), null if unknown
 */
public record PairInfo(int src, int dst, boolean canAccessPeer, Integer performanceRank,
                       Boolean accessSupported, Boolean nativeAtomics, LinkClass link, Integer nvmlAncestor) {

    /** Whether source and destination are the same GPU. */
    public boolean self() {
        return src == dst;
    }
}
