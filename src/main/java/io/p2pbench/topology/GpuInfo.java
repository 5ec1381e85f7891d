package io.p2pbench.topology;

import java.util.List;

/**
 * One visible GPU. {@code index} is CUDA's (after CUDA_VISIBLE_DEVICES); fields NVML could not
 * answer are null.
 *
 * @param cpuAffinity CPUs near the GPU, as a list like {@code 0-55,112-167}
 * @param nvlinkNote why NVLink state is missing, when it is (a one-GPU VM answers NOT_SUPPORTED)
 */
public record GpuInfo(int index, String name, String uuid, String pciBusId, String computeCapability,
                      long memoryBytes, int smCount, int copyEngines, Integer pcieGenCurrent,
                      Integer pcieGenMax, Integer pcieWidthCurrent, Integer pcieWidthMax, Integer numaNode,
                      String cpuAffinity, List<NvLinkInfo> nvlinks, String nvlinkNote) {

    /** One NVLink of a GPU: its number, whether it is up, and where it goes. */
    public record NvLinkInfo(int link, boolean active, Integer version, String remotePciBusId,
                             String remoteType) {}

    /** Active NVLinks whose far end is {@code other}'s PCI bus id. */
    public int directLinksTo(GpuInfo other) {
        return (int) nvlinks().stream()
                .filter(l -> l.active() && other.pciBusId().equals(l.remotePciBusId()))
                .count();
    }

    /** Active NVLinks that end at an NVSwitch. */
    public int switchLinks() {
        return (int) nvlinks().stream()
                .filter(l -> l.active() && "switch".equals(l.remoteType()))
                .count();
    }
}
