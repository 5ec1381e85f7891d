package io.p2pbench.spec;

import io.p2pbench.topology.GpuPair;
import io.p2pbench.transfer.CopyPath;
import java.util.Map;
import java.util.Optional;

/**
 * What one planned benchmark runs, typed: the JMH benchmark class and its parameter values. A manifest
 * stores it as the {@link Combination}'s kind label and parameter strings; {@link #params()} writes
 * them and {@link #read} reads them back, so {@code read(kind(), params())} equals the spec.
 */
public sealed interface WorkloadSpec
        permits PeerCopy, PeerCopyBidirectional, HostCopy, HostCopyBidirectional, Ring, NcclOp, Exchange, PartitionRun,
        Serving {

    /** The JMH benchmark class that runs it. */
    JmhBenchmark benchmark();

    /** The JMH {@code @Param} values, named, in the benchmark's parameter order. */
    Map<String, String> params();

    /**
     * This spec with what varies along one curve (size, GPU pair, element type, phase, eager or graph) set to
     * one value: combinations of one benchmark method whose curves are equal can share a fork.
     */
    WorkloadSpec curve();

    /**
     * {@code cases}' method for this spec's record, given this spec: what code outside this package does per
     * workload. A new record adds its method to {@link Cases}, and every visitor fails to compile until it handles it.
     */
    <R> R accept(Cases<R> cases);

    /** The host buffer it copies to and from (host-device copies), else empty. */
    Optional<HostBuffer> hostBuffer();

    /** The copy path and GPU pair of a peer copy (one way or both ways), else empty. */
    default Optional<PeerRoute> peerRoute() {
        return Optional.empty();
    }

    /** This spec when it is a serving sweep, else empty: what the report's serving section reads. */
    default Optional<Serving> servingSweep() {
        return Optional.empty();
    }

    /** This spec when it is a run of the partition study, else empty: what the report's partition section reads. */
    default Optional<PartitionRun> partitionStudyRun() {
        return Optional.empty();
    }

    /**
     * Where a peer copy goes: its path and GPU pair.
     *
     * @param path the copy path
     * @param pair the GPUs
     */
    record PeerRoute(CopyPath path, GpuPair pair) {}

    /**
     * One method per workload record: per-workload behaviour that belongs outside this package (predicted time,
     * printed text, reading figures back), checked by the compiler for every workload. Code outside {@code spec}
     * uses it instead of {@code instanceof} or casts on specs ({@code WorkloadDispatchTest} checks that).
     *
     * @param <R> what each case returns
     */
    interface Cases<R> {
        R peerCopy(PeerCopy s);

        R peerCopyBidirectional(PeerCopyBidirectional s);

        R hostCopy(HostCopy s);

        R hostCopyBidirectional(HostCopyBidirectional s);

        R ring(Ring s);

        R ncclOp(NcclOp s);

        R exchange(Exchange s);

        R partitionRun(PartitionRun s);

        R serving(Serving s);
    }

    /** What it measures. */
    default Kind kind() {
        return benchmark().kind();
    }

    /** The JMH benchmark name of {@code metric}'s method. */
    default String method(Metric metric) {
        return benchmark().method(metric);
    }

    /**
     * The plan row that runs this spec with {@code metric}.
     *
     * @param id unique, path-safe name
     * @param group why it is in the plan ({@code sweep}, {@code matrix}, {@code collective}, ...)
     * @param link link class label of the pair, {@code host} or {@code group}
     * @param skip why it will not run here (cause and reason), or null
     */
    default Combination combination(String id, Metric metric, String group, String link, long sizeBytes,
                                    boolean singleGpu, Skip skip, double predictedSeconds) {
        return new Combination(id, method(metric), kind().label(), metric.label(), params(), group, link, sizeBytes,
                singleGpu, skip == null ? null : skip.reason(), predictedSeconds, skip == null ? null : skip.cause());
    }

    /**
     * The spec a manifest records as {@code kind} and {@code params}.
     *
     * @throws IllegalArgumentException naming the missing or bad parameter and what is accepted
     */
    static WorkloadSpec read(Kind kind, Map<String, String> params) {
        Params p = new Params(kind, params);
        return switch (kind) {
            case PEER -> PeerCopy.read(p);
            case PEER_BIDIR -> PeerCopyBidirectional.read(p);
            case HOST -> HostCopy.read(p);
            case HOST_BIDIR -> HostCopyBidirectional.read(p);
            case ALLREDUCE_RING -> Ring.read(p);
            case NCCL -> NcclOp.read(p);
            case EXCHANGE -> Exchange.read(p);
            case PARTITION -> PartitionRun.read(p);
            case SERVING -> Serving.read(p);
        };
    }

    /** The spec of a plan row; throws {@link IllegalArgumentException} for a kind or parameter this version cannot read. */
    static WorkloadSpec of(Combination c) {
        return read(Kind.of(c.kind()), c.params() == null ? Map.of() : c.params());
    }
}
