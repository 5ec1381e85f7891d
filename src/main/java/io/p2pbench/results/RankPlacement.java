package io.p2pbench.results;

/**
 * Who measured a manifest entry in a job of several processes ({@code p2pbench run} under srun, mpirun or a
 * torchrun-style launcher; {@code docs/multiprocess.md}): the host, the launcher's rank and local rank, and the
 * GPU. Entries of a one-process run carry none.
 *
 * @param host the host name the rank ran on (the launcher's node name where it gives one)
 * @param rank the launcher's global rank
 * @param localRank the rank among the ranks of its host
 * @param gpu the CUDA device ordinal the rank used, as its own process numbers them (after CUDA_VISIBLE_DEVICES)
 * @param gpuUuid the GPU's UUID, the same in every process; null where not known
 * @param pciBusId the GPU's PCI bus id; null where not known
 */
public record RankPlacement(String host, int rank, int localRank, int gpu, String gpuUuid, String pciBusId) {
    /** {@code rank 3 (node07, GPU 1)}. */
    public String describe() {
        return "rank " + rank + " (" + host + ", GPU " + gpu + ")";
    }
}
