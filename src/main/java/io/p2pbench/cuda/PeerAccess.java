package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

/**
 * Peer access for one direction: lets {@code device} address {@code peer}'s memory (loads, stores
 * and copy-engine transfers over NVLink or PCIe P2P). Each direction is its own grant; the reverse
 * is never assumed.
 *
 * <p>{@link #enable} is idempotent: if access was already on, the handle does not own it and
 * {@link #close()} leaves it on. {@link #ensureDisabled} turns access off for measurements of the
 * P2P-off path (the driver then stages peer copies through host memory).
 */
public final class PeerAccess implements AutoCloseable {
    private final int device;
    private final int peer;
    private boolean owned;

    private PeerAccess(int device, int peer, boolean owned) {
        this.device = device;
        this.peer = peer;
        this.owned = owned;
    }

    /**
     * Enables access from {@code device} to {@code peer}. Throws {@link CudaException} (for
     * example cudaErrorPeerAccessUnsupported) when the pair cannot do P2P.
     */
    public static PeerAccess enable(int device, int peer) {
        if (device == peer) {
            throw new IllegalArgumentException("peer access needs two different GPUs, got " + device + " twice");
        }
        Cuda.setDevice(device);
        int status = cudaDeviceEnablePeerAccess(peer, 0);
        if (status == cudaErrorPeerAccessAlreadyEnabled) {
            cudaGetLastError();
            return new PeerAccess(device, peer, false);
        }
        Cuda.check(status, "cudaDeviceEnablePeerAccess", "device", device, "peer", peer);
        return new PeerAccess(device, peer, true);
    }

    /** Makes sure {@code device} does not have peer access to {@code peer}; idempotent. */
    public static void ensureDisabled(int device, int peer) {
        if (device == peer) {
            return;
        }
        Cuda.setDevice(device);
        int status = cudaDeviceDisablePeerAccess(peer);
        if (status == cudaErrorPeerAccessNotEnabled) {
            cudaGetLastError();
            return;
        }
        Cuda.check(status, "cudaDeviceDisablePeerAccess", "device", device, "peer", peer);
    }

    /** The GPU that gains access. */
    public int device() {
        return device;
    }

    /** The GPU whose memory becomes addressable. */
    public int peer() {
        return peer;
    }

    /** Disables the access if this handle enabled it; idempotent. */
    @Override
    public void close() {
        if (owned) {
            owned = false;
            ensureDisabled(device, peer);
        }
    }
}
