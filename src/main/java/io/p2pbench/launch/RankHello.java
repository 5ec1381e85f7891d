package io.p2pbench.launch;

import io.p2pbench.results.RankPlacement;
import java.util.List;
import java.util.Objects;

/**
 * What a rank tells the others when it starts ({@code ranks/R/hello.json} in the job folder): where it runs, the
 * GPU it took, the build it runs and NCCL's bootstrap address it was given. Every rank reads every hello and makes
 * the same plan from them.
 *
 * @param pid the process id, so that ranks on the same host notice a rank that died
 * @param pidNamespace the process's PID namespace ({@code /proc/self/ns/pid}): a pid is looked up only by ranks
 *     of the same host and namespace (containers on one host number processes apart)
 * @param startedAt when the process started (ISO-8601)
 * @param gpu the CUDA ordinal of the rank's GPU in its own process
 * @param gpuUuid the GPU's UUID (the same in every process), null where not known
 * @param numaNode the GPU's NUMA node, null or negative where the machine does not say
 * @param numaNote whether the process is bound to that node
 * @param ncclCommId NCCL_COMM_ID as this rank has it, null where unset
 * @param ncclCommIdHere rank 0 only: whether NCCL_COMM_ID's host is this host (NCCL's bootstrap root listens
 *     there); null for other ranks and where unset
 * @param workload what the rank measures with ({@link RankWorkload#label()})
 * @param fingerprint the fingerprint of the node as this process sees it
 * @param visibleGpus the PCI bus ids of every GPU this process sees: CUDA IPC between two GPUs needs the
 *     exporter's GPU among the importer's; null where not known
 */
public record RankHello(int rank, int worldSize, int localRank, int localWorldSize, String host, Integer nodeId,
                        long pid, String pidNamespace, String startedAt, String launcher, String suiteVersion, String suiteBuild,
                        int gpu, String gpuUuid, String pciBusId, Integer numaNode, String numaNote,
                        String cudaVisibleDevices, String ncclCommId, Boolean ncclCommIdHere, String workload,
                        String fingerprint, List<String> visibleGpus) {
    /** The manifest's view of this rank. */
    public RankPlacement placement() {
        return new RankPlacement(host, rank, localRank, gpu, gpuUuid, pciBusId);
    }

    /** Whether {@code other} uses the same physical GPU (same host, same UUID or PCI bus id). */
    public boolean sameGpu(RankHello other) {
        if (!host.equals(other.host)) {
            return false;
        }
        if (gpuUuid != null && other.gpuUuid != null) {
            return gpuUuid.equals(other.gpuUuid);
        }
        if (pciBusId != null && other.pciBusId != null) {
            return pciBusId.equalsIgnoreCase(other.pciBusId);
        }
        return Objects.equals(cudaVisibleDevices, other.cudaVisibleDevices) && gpu == other.gpu;
    }

    /** Whether this process sees {@code other}'s GPU (true where either side does not say). */
    public boolean sees(RankHello other) {
        return visibleGpus == null || other.pciBusId == null || visibleGpus.stream().anyMatch(
                b -> b.equalsIgnoreCase(other.pciBusId));
    }

    /** {@code rank 1 (node02, GPU 0)}. */
    public String describe() {
        return placement().describe();
    }

    /** {@code 0.1.0 (build 4d047f6)}. */
    public String build() {
        return suiteVersion + " (build " + suiteBuild + ")";
    }
}
