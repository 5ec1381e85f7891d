package io.p2pbench.spec;

import io.p2pbench.transfer.SkipCause;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * One benchmark run of a plan as the manifest records it: a JMH benchmark method with fixed parameters, in
 * their string form. The typed form of {@code kind} and {@code params} is the workload's spec
 * ({@link WorkloadSpec}), which writes these strings ({@code spec.combination(...)}) and is the
 * only reader of them ({@code WorkloadSpec.of(combination)}); kinds of other tools (a launched job's rows)
 * stay strings.
 *
 * @param id unique, path-safe name, e.g. {@code peer-bw-CE_P2P_READ-0-1-4KiB}
 * @param benchmark the JMH benchmark, e.g. {@code io.p2pbench.bench.PeerCopyBenchmark.bandwidth}
 * @param kind what is measured: a {@link Kind} label ({@code peer}, {@code host-bidir}, {@code nccl}, ...)
 * @param metric a {@link Metric} label: {@code bandwidth} or {@code latency}
 * @param params the JMH {@code @Param} values, by name, in the benchmark's order
 * @param group why it is in the plan: {@code sweep}, {@code matrix}, {@code binding}, {@code collective},
 *     {@code partition} or {@code serving}
 * @param link link class of the pair ({@code X} for one GPU and host-device rows)
 * @param sizeBytes bytes per transfer
 * @param singleGpu true when nothing crosses an interconnect between GPUs (pair 0-0, repeated devices)
 * @param skipReason why it will not run here, or null
 * @param predictedSeconds expected wall time, fork start included
 * @param skipCause why it will not run here, as a type, when {@code skipReason} is set; else null (and absent
 *     from the JSON, so plans without skips are unchanged)
 */
public record Combination(String id, String benchmark, String kind, String metric, Map<String, String> params,
                          String group, String link, long sizeBytes, boolean singleGpu, String skipReason,
                          double predictedSeconds, @JsonInclude(JsonInclude.Include.NON_NULL) SkipCause skipCause) {
    /** The group of the pair-matrix rows (every ordered pair at one size): the planner writes it, the report reads it. */
    public static final String MATRIX_GROUP = "matrix";

    /** A combination whose skip, if any, has no more precise cause than {@link SkipCause#OTHER}. */
    public Combination(String id, String benchmark, String kind, String metric, Map<String, String> params,
                       String group, String link, long sizeBytes, boolean singleGpu, String skipReason,
                       double predictedSeconds) {
        this(id, benchmark, kind, metric, params, group, link, sizeBytes, singleGpu, skipReason, predictedSeconds,
                skipReason == null ? null : SkipCause.OTHER);
    }

    /** Whether the plan already knows it cannot run. */
    public boolean plannedSkip() {
        return skipReason != null;
    }
}
