package io.p2pbench.transfer;

/**
 * The ways a multi-GPU program can move bytes from one GPU to another. Read and write variants
 * differ in which GPU issues the copy: for a read, the destination GPU pulls from the source; for
 * a write, the source GPU pushes into the destination (nvbandwidth's _read_ and _write_ tests).
 */
public enum CopyPath {
    /** cudaMemcpyPeerAsync with peer access on, issued by the destination GPU (copy engine pulls). */
    CE_P2P_READ(Issuer.DESTINATION, true, "copy engine, P2P on, destination GPU issues (read)"),
    /** cudaMemcpyPeerAsync with peer access on, issued by the source GPU (copy engine pushes). */
    CE_P2P_WRITE(Issuer.SOURCE, true, "copy engine, P2P on, source GPU issues (write)"),
    /** cudaMemcpyPeerAsync with peer access off: the driver stages the copy through host memory. */
    CE_NO_P2P(Issuer.DESTINATION, false, "copy engine, P2P off (driver stages through host memory)"),
    /** What frameworks do without P2P: device to pinned host to device, chunked, both legs overlapped. */
    HOST_STAGED(Issuer.BOTH, false, "device to pinned host to device, chunked and double-buffered"),
    /** A kernel on the destination GPU loads the source's memory with 16-byte accesses. */
    SM_P2P_READ(Issuer.DESTINATION, true, "SM loads over the link, kernel on the destination GPU (read)"),
    /** A kernel on the source GPU stores into the destination's memory with 16-byte accesses. */
    SM_P2P_WRITE(Issuer.SOURCE, true, "SM stores over the link, kernel on the source GPU (write)");

    /** Which GPU's stream issues the work. */
    public enum Issuer {
        /** The GPU that receives the bytes. */
        DESTINATION,
        /** The GPU that sends the bytes. */
        SOURCE,
        /** Both: the source issues device-to-host legs, the destination host-to-device legs. */
        BOTH
    }

    private final Issuer issuer;
    private final boolean needsPeerAccess;
    private final String description;

    CopyPath(Issuer issuer, boolean needsPeerAccess, String description) {
        this.issuer = issuer;
        this.needsPeerAccess = needsPeerAccess;
        this.description = description;
    }

    /** Whether the path needs peer access between two different GPUs. */
    public boolean needsPeerAccess() {
        return needsPeerAccess;
    }

    /** Whether a copy engine does the copy through cudaMemcpyPeerAsync (CE_P2P_READ, CE_P2P_WRITE, CE_NO_P2P). */
    public boolean copyEngine() {
        return this == CE_P2P_READ || this == CE_P2P_WRITE || this == CE_NO_P2P;
    }

    /** One line for legends and plans. */
    public String description() {
        return description;
    }

    /** The GPU that issues a copy from {@code src} to {@code dst} (for BOTH, the destination). */
    public int issuingDevice(int src, int dst) {
        return issuer == Issuer.SOURCE ? src : dst;
    }
}
