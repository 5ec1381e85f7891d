package io.p2pbench.doctor;

import com.fasterxml.jackson.annotation.JsonValue;

/** How a copy from one GPU to another travels. */
public enum Verdict {
    /** Peer access on, and the bytes go GPU to GPU: NVLink, or a PCIe switch that forwards them. */
    P2P_DIRECT("P2P direct"),
    /** Peer access on, but the bytes pass the CPU's root complex (host bridge, between sockets, ACS redirect). */
    P2P_THROUGH_CPU("P2P through the CPU"),
    /** Peer access on, but where the bytes pass is unknown (the path could not be read). */
    P2P_PATH_UNKNOWN("P2P, path unknown"),
    /** No peer access: copies are staged through host memory. */
    HOST_STAGED_ONLY("host-staged only"),
    /** The driver could not be asked. */
    UNKNOWN("unknown");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** The words printed, e.g. {@code P2P through the CPU}. */
    @JsonValue
    public String label() {
        return label;
    }
}
