package io.p2pbench.spec;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JMH benchmark classes the planner runs (in {@code src/jmh}): class name, the metrics (benchmark
 * methods) each has, and its {@code @Param} field names in the order plans list them. This is the
 * one place those names are written outside the benchmark classes; {@code JmhBenchmarkListTest}
 * checks every entry against JMH's generated {@code META-INF/BenchmarkList}, so renaming a class,
 * method or {@code @Param} breaks a test, not a run on the GPU node.
 */
public enum JmhBenchmark {
    /** Peer copies in one direction. */
    PEER_COPY(Kind.PEER, "PeerCopyBenchmark", EnumSet.allOf(Metric.class), "pair", "path", "sizeBytes", "binding"),
    /** Peer copies in both directions. */
    PEER_COPY_BIDIRECTIONAL(Kind.PEER_BIDIR, "PeerCopyBidirectionalBenchmark", EnumSet.of(Metric.BANDWIDTH),
            "pair", "path", "sizeBytes"),
    /** Host-device copies in one direction. */
    HOST_DEVICE_COPY(Kind.HOST, "HostDeviceCopyBenchmark", EnumSet.allOf(Metric.class),
            "device", "direction", "memory", "numa", "sizeBytes", "binding"),
    /** Host-device copies in both directions. */
    HOST_DEVICE_BIDIRECTIONAL(Kind.HOST_BIDIR, "HostDeviceBidirectionalBenchmark", EnumSet.of(Metric.BANDWIDTH),
            "device", "memory", "numa", "sizeBytes"),
    /** The suite's ring all-reduce. */
    ALL_REDUCE(Kind.ALLREDUCE_RING, "AllReduceBenchmark", EnumSet.allOf(Metric.class),
            "group", "dtype", "path", "sizeBytes"),
    /** NCCL collectives. */
    NCCL_COLLECTIVE(Kind.NCCL, "NcclCollectiveBenchmark", EnumSet.allOf(Metric.class),
            "group", "operation", "dtype", "sizeBytes"),
    /** Activation exchanges. */
    ACTIVATION_EXCHANGE(Kind.EXCHANGE, "ActivationExchangeBenchmark", EnumSet.allOf(Metric.class),
            "group", "pattern", "model", "path"),
    /**
     * The partition study: {@code step} (device-timed steps, figures as medians over the
     * iteration, so {@link Metric#BANDWIDTH}'s timing) and {@code request} (host clock, SampleTime:
     * {@link Metric#LATENCY}).
     */
    PARTITION(Kind.PARTITION, "PartitionBenchmark", Map.of(Metric.BANDWIDTH, "step", Metric.LATENCY, "request"),
            "group", "model", "plan", "transport", "phase", "batch", "prompt", "context", "decodeSteps", "graph"),
    /**
     * Serving sweeps: one {@code serve} invocation (SingleShotTime) is a whole capacity search, its figures per
     * request in the samples file; {@link Metric#LATENCY}'s timing (its warm-up count) applies.
     */
    SERVING(Kind.SERVING, "ServingBenchmark", Map.of(Metric.LATENCY, "serve"), "group", "model", "plan", "transport",
            "sweep");

    /** Package of the benchmark classes. */
    public static final String PACKAGE = "io.p2pbench.bench";

    private final Kind kind;
    private final String simpleName;
    private final Set<Metric> metrics;
    private final Map<Metric, String> methods;
    private final List<String> params;

    /** Benchmark methods named after their metrics ({@code bandwidth}, {@code latency}). */
    JmhBenchmark(Kind kind, String simpleName, Set<Metric> metrics, String... params) {
        this(kind, simpleName, labels(metrics), params);
    }

    /** Benchmark methods named per metric. */
    JmhBenchmark(Kind kind, String simpleName, Map<Metric, String> methods, String... params) {
        this.kind = kind;
        this.simpleName = simpleName;
        this.metrics = EnumSet.copyOf(methods.keySet());
        this.methods = new EnumMap<>(methods);
        this.params = List.of(params);
    }

    private static Map<Metric, String> labels(Set<Metric> metrics) {
        Map<Metric, String> out = new EnumMap<>(Metric.class);
        for (Metric m : metrics) {
            out.put(m, m.label());
        }
        return out;
    }

    /** What it measures. */
    public Kind kind() {
        return kind;
    }

    /** Fully qualified class name. */
    public String className() {
        return PACKAGE + "." + simpleName;
    }

    /** The metrics it has a benchmark method for. */
    public Set<Metric> metrics() {
        return EnumSet.copyOf(metrics);
    }

    /** {@code @Param} field names, in plan order. */
    public List<String> paramNames() {
        return params;
    }

    /**
     * The JMH benchmark name of {@code metric}'s method, e.g. {@code io.p2pbench.bench.PeerCopyBenchmark.bandwidth}
     * or {@code io.p2pbench.bench.PartitionBenchmark.step}.
     */
    public String method(Metric metric) {
        if (!metrics.contains(metric)) {
            throw new IllegalArgumentException(simpleName + " has no " + metric.label() + " benchmark");
        }
        return className() + "." + methods.get(metric);
    }

    /** The parameters, named in order: one value per {@link #paramNames()}. */
    public Map<String, String> params(Object... values) {
        if (values.length != params.size()) {
            throw new IllegalArgumentException(simpleName + " takes " + params + ", got " + values.length + " values");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            out.put(params.get(i), values[i] instanceof Enum<?> e ? e.name() : String.valueOf(values[i]));
        }
        return out;
    }
}
