package io.p2pbench.launch;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.topology.Topology;
import java.util.List;

/**
 * What a rank measures with, behind the job's orchestration ({@link RankRun}): CUDA IPC copies and NCCL
 * collectives on the GPU ({@link GpuRankWorkload}), or, in the tests of a machine without a GPU, a CPU stand-in
 * (named by the test-only system property {@value LaunchSettings#WORKLOAD_PROPERTY}; its entries are labelled
 * {@link ProcessKind#TEST_STAND_IN}). Every method throws on failure with one line saying why.
 */
public interface RankWorkload extends AutoCloseable {
    /** What it is, for the rank's first line and the manifest, e.g. {@code CUDA IPC and NCCL}. */
    String label();

    /** Whether this is a test stand-in: its figures are never a measurement of a GPU link. */
    boolean testOnly();

    /** The node as this process sees it (its GPUs are the ones CUDA_VISIBLE_DEVICES leaves). */
    Topology topology();

    /** Why this workload runs no NCCL collective, or null where it does. */
    String ncclUnavailable();

    /**
     * Exporting side of copy {@code step}: {@code bytes} on {@code device} holding the pattern for {@code seed}, kept
     * until {@link #unexport}; returns the handle another process of this host maps.
     */
    byte[] export(String step, int device, long bytes, int seed);

    /** Frees what {@link #export} kept for {@code step}; nothing when there is none. */
    void unexport(String step);

    /**
     * Importing side of copy {@code step}: maps {@code handle}, checks the exporter's bytes, then measures {@code warmup} untimed and
     * {@code batches} timed, verified batches of copies into this process's GPU; unmaps before returning.
     */
    Measured copyFrom(String step, String label, int device, byte[] handle, long bytes, int seed, int warmup,
                      int batches);

    /** Joins the NCCL communicator of every rank (collective: every rank calls it). */
    void joinWorld(int device, int worldSize, int rank);

    /** Joins the communicator of this host's ranks: ncclCommSplit of the world by {@code color} (collective). */
    void joinHost(int color, int key);

    /** This rank's part of one collective over the world or the host communicator. */
    Measured collective(JobPlan.Scope scope, Operation op, DataType type, long sizeBytes, int warmup, int batches);

    /** Releases everything; idempotent. */
    @Override
    void close();

    /**
     * One entry's figures: the samples file's content and the line printed.
     *
     * @param lanes lane labels ({@code algbw}, {@code busbw} for collectives)
     * @param copiesPerBatch transfers or operations per batch
     */
    record Measured(List<String> lanes, long bytesPerTransfer, int copiesPerBatch, List<BatchSamples.Batch> batches,
                    long bytesVerified, String headline) {}
}
