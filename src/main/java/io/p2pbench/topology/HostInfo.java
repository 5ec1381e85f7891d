package io.p2pbench.topology;

/**
 * The host around the GPUs, with the software versions every result depends on.
 *
 * @param iommu IOMMU state ({@code off}, {@code on}, {@code passthrough}); an active IOMMU is a
 *     common reason P2P is refused or slow
 * @param virtualization {@code none} on bare metal, else what was detected; hypervisors often
 *     hide or refuse P2P
 */
public record HostInfo(String cpuModel, int sockets, int numaNodes, String iommu, String virtualization,
                       String os, String kernel, String driverVersion, String cudaDriver, String cudaRuntime,
                       String nccl, String nvrtc, String jvm) {}
