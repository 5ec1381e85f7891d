package io.p2pbench.doctor;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** The checks {@code p2pbench doctor} runs; docs/doctor.md says what each reads and what its fix does. */
public enum Check {
    /** Whether the driver answered (CUDA and NVML). */
    GPUS("GPUs"),
    /** A hypervisor: hypervisor flag, DMI vendor and product, a flattened PCIe tree. */
    VIRTUAL_MACHINE("Virtualisation"),
    /** The IOMMU and whether it translates the GPUs' DMA. */
    IOMMU("IOMMU"),
    /** NUMA nodes and sockets. */
    NUMA("NUMA"),
    /** PCIe link generation and width now against what GPU and slot support. */
    PCIE_LINK("PCIe link"),
    /** The BAR1 aperture against the GPU's memory. */
    BAR1("BAR1"),
    /** NVIDIA persistence mode. */
    PERSISTENCE("Persistence mode"),
    /** NVLinks down. */
    NVLINK_STATE("NVLink state"),
    /** NVLink error counters. */
    NVLINK_ERRORS("NVLink errors"),
    /** PCIe Access Control Services on the ports between two GPUs. */
    ACS("PCIe ACS"),
    /** What the driver says about peer access between two GPUs. */
    PEER_ACCESS("Peer access"),
    /** A pair on two NUMA nodes (SYS) or two host bridges. */
    CROSS_SOCKET("Cross-socket path"),
    /** How two GPUs reach each other. */
    PATH("Path");

    private final String title;

    Check(String title) {
        this.title = title;
    }

    /** The name in text output, e.g. {@code PCIe ACS}. */
    public String title() {
        return title;
    }

    /** The name in JSON output, e.g. {@code pcie-link}. */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
