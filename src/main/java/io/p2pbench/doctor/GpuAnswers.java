package io.p2pbench.doctor;

import io.p2pbench.cuda.Nvml;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.PairInfo;
import io.p2pbench.topology.Topology;
import java.util.List;
import java.util.Optional;

/**
 * What the driver answered about the GPUs: CUDA's GPU list and per-pair peer access, NVML's PCIe
 * link, NVLink state, BAR1 size, persistence mode and NVLink error counters.
 *
 * @param problem why the GPUs could not be read (no driver, no device), empty when they were
 * @param driverVersion the NVIDIA driver version, null when unknown
 * @param gpus every visible GPU, CUDA's index order
 * @param pairs every ordered pair of different GPUs
 */
public record GpuAnswers(String problem, String driverVersion, List<Gpu> gpus, List<PairInfo> pairs) {

    /**
     * One GPU.
     *
     * @param info CUDA's and NVML's view, as {@code p2pbench topology} records it
     * @param bar1TotalBytes the BAR1 aperture (nvmlDeviceGetBAR1MemoryInfo)
     * @param persistenceMode nvmlDeviceGetPersistenceMode
     * @param nvlinkErrors error counters of the GPU's NVLinks (nvmlDeviceGetNvLinkErrorCounter)
     */
    public record Gpu(GpuInfo info, Answer<Long> bar1TotalBytes, Answer<Boolean> persistenceMode,
                      Answer<List<Nvml.NvLinkErrors>> nvlinkErrors) {}

    /** The GPUs could not be read, and why. */
    public static GpuAnswers unreadable(String problem) {
        return new GpuAnswers(problem, null, List.of(), List.of());
    }

    /** Whether the driver answered. */
    public boolean readable() {
        return problem == null || problem.isEmpty();
    }

    /** The ordered pair src to dst. */
    public Optional<PairInfo> pair(int src, int dst) {
        return pairs.stream().filter(p -> p.src() == src && p.dst() == dst).findFirst();
    }

    /**
     * The answers a recorded topology holds (a result folder's {@code topology.json}); what it does
     * not record (BAR1, persistence mode, NVLink errors) is unknown with {@code notRecorded} as reason.
     */
    public static GpuAnswers fromTopology(Topology t, String notRecorded) {
        List<Gpu> gpus = t.gpus().stream().map(g -> new Gpu(g, Answer.<Long>unknown(notRecorded),
                Answer.<Boolean>unknown(notRecorded), Answer.<List<Nvml.NvLinkErrors>>unknown(notRecorded))).toList();
        return new GpuAnswers("", t.host().driverVersion(), gpus,
                t.pairs().stream().filter(p -> !p.self()).toList());
    }
}
