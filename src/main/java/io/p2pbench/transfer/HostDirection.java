package io.p2pbench.transfer;

/** Direction of a host-device copy. */
public enum HostDirection {
    /** Host to device. */
    H2D,
    /** Device to host. */
    D2H
}
