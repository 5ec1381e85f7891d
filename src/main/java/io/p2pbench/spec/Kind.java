package io.p2pbench.spec;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a planned benchmark measures. The manifest stores the {@link #label()} ({@code peer},
 * {@code host-bidir}, ...), which is what result readers see; code that plans or runs benchmarks
 * uses the constants, so a misspelt kind does not compile.
 */
public enum Kind {
    /** GPU-to-GPU copies in one direction. */
    PEER("peer"),
    /** GPU-to-GPU copies in both directions at once. */
    PEER_BIDIR("peer-bidir"),
    /** Host-device copies in one direction. */
    HOST("host"),
    /** Host-device copies in both directions at once. */
    HOST_BIDIR("host-bidir"),
    /** The suite's ring all-reduce. */
    ALLREDUCE_RING("allreduce-ring"),
    /** NCCL's collectives. */
    NCCL("nccl"),
    /** Activation exchanges of pipeline, tensor and expert parallelism. */
    EXCHANGE("exchange"),
    /** An inference step (and request) of a model split over a GPU group: the partition study. */
    PARTITION("partition"),
    /** Serving at request rates over a GPU group: latency per request and capacity under a target. */
    SERVING("serving");

    private final String label;

    Kind(String label) {
        this.label = label;
    }

    /** The name in manifests and reports. */
    public String label() {
        return label;
    }

    /** The kind labelled {@code label}; throws naming the accepted labels. */
    public static Kind of(String label) {
        Kind k = find(label);
        if (k == null) {
            throw new IllegalArgumentException("unknown benchmark kind '" + label + "'; known: "
                    + Arrays.stream(values()).map(Kind::label).collect(Collectors.joining(", ")));
        }
        return k;
    }

    /** The kind labelled {@code label}, or null where this version does not know it. */
    public static Kind find(String label) {
        for (Kind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        return null;
    }
}
