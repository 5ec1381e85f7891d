package io.p2pbench.results;

import java.util.Map;

/**
 * One benchmark run of a plan: a JMH benchmark method with fixed parameters.
 *
 * @param id unique, path-safe name, e.g. {@code peer-bw-CE_P2P_READ-0-1-4KiB}
 * @param benchmark the JMH benchmark, e.g. {@code io.p2pbench.bench.PeerCopyBenchmark.bandwidth}
 * @param kind what is measured: {@code peer}, {@code peer-bidir}, {@code host}, {@code host-bidir}, ...
 * @param metric {@code bandwidth} or {@code latency}
 * @param params JMH parameters
 * @param group why it is in the plan: {@code sweep}, {@code matrix} or {@code custom}
 * @param link link class of the pair ({@code X} for one GPU and host-device rows)
 * @param sizeBytes bytes per transfer
 * @param singleGpu true when nothing crosses an interconnect between GPUs (pair 0-0, repeated devices)
 * @param skipReason why it will not run here, or null
 * @param predictedSeconds expected wall time, fork start included
 */
public record Combination(String id, String benchmark, String kind, String metric, Map<String, String> params,
                          String group, String link, long sizeBytes, boolean singleGpu, String skipReason,
                          double predictedSeconds) {

    /** Whether the plan already knows it cannot run. */
    public boolean plannedSkip() {
        return skipReason != null;
    }
}
