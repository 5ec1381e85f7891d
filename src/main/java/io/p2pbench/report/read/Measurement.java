package io.p2pbench.report.read;

import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One measured figure of one machine at one size, with its samples: per-batch device-timed GB/s
 * for bandwidth, host-observed microseconds per transfer (JMH SampleTime) for latency, or a single
 * value where the source keeps no more (an nvbandwidth or nccl-tests baseline, a JMH figure
 * without a samples file).
 *
 * @param key what was measured
 * @param machine the machine's fingerprint, or a description for imported baselines
 * @param link link class between the pair ({@code NV18}, {@code SYS}, {@code X}, {@code host}, ...)
 * @param singleGpu true when nothing crossed an interconnect between GPUs
 * @param group {@code sweep} or {@code matrix} (why it was measured)
 * @param id the combination id, or the imported test's name
 * @param samples the samples, in GB/s or microseconds (of every round, where the run measured it in rounds)
 * @param samplesFrom where the samples come from, for tables
 * @param rounds each round's samples apart, in order, where the run measured it in several rounds; else one
 *     round, {@code samples}
 * @param hostPaced true where a device-timed collective's batches were enqueued ungated (results of suite builds
 *     before 2026-12-06 13:10Z: the one-GPU ring all-reduce and tensor exchange), so that the device waited for the
 *     host and the figure followed the host's enqueue rate; such rows teach the drift table nothing about rows timed
 *     behind the gate
 */
public record Measurement(Key key, String machine, String link, boolean singleGpu, String group, String id,
                          double[] samples, String samplesFrom, List<double[]> rounds, boolean hostPaced) {

    /** A measurement of one round. */
    public Measurement(Key key, String machine, String link, boolean singleGpu, String group, String id,
                       double[] samples, String samplesFrom) {
        this(key, machine, link, singleGpu, group, id, samples, samplesFrom, List.of(samples), false);
    }

    /** A measurement of one or more rounds, not host-paced. */
    public Measurement(Key key, String machine, String link, boolean singleGpu, String group, String id,
                       double[] samples, String samplesFrom, List<double[]> rounds) {
        this(key, machine, link, singleGpu, group, id, samples, samplesFrom, rounds, false);
    }

    /** The same, host-paced as {@code paced} says. */
    public Measurement withHostPaced(boolean paced) {
        return new Measurement(key, machine, link, singleGpu, group, id, samples, samplesFrom, rounds, paced);
    }

    /** Whether this is a row of the pair matrix (its group, read here, the one place that names it). */
    public boolean inMatrix() {
        return Combination.MATRIX_GROUP.equals(group);
    }

    /** One measurement of several rounds of one row: the first's description, every round's samples. */
    public static Measurement ofRounds(List<Measurement> rounds) {
        Measurement first = rounds.get(0);
        if (rounds.size() == 1) {
            return first;
        }
        double[] all = rounds.stream().flatMapToDouble(m -> Arrays.stream(m.samples())).toArray();
        return new Measurement(first.key(), first.machine(), first.link(), first.singleGpu(), first.group(),
                first.id(), all, first.samplesFrom() + ", " + rounds.size() + " rounds",
                rounds.stream().map(Measurement::samples).toList(), rounds.stream().anyMatch(Measurement::hostPaced));
    }

    /** How many rounds the samples come from. */
    public int roundCount() {
        return rounds.size();
    }

    /** Metric name of bandwidth figures. */
    public static final String BANDWIDTH = "bandwidth";
    /** Metric name of latency figures. */
    public static final String LATENCY = "latency";
    /**
     * The highest bandwidth a file from elsewhere may claim, in GB/s: 100 TB/s, twenty times an H200's HBM3e. Above it a
     * figure is a corrupt or forged file's, and read as one it would make every other figure "worse".
     */
    public static final double MAX_GBPS = 100_000;
    /**
     * The lowest bandwidth above 0 a file may claim, in GB/s: 1 B/s, below any copy p2pbench plans (4 bytes in 4 s).
     * 0 is a figure (one rank's bus bandwidth); a positive one below this (5e-324) is not, and a ratio against it
     * overflowed to "Infinity" in tables and NaN in charts.
     */
    public static final double MIN_POSITIVE_GBPS = 1e-9;
    /** {@link #MIN_POSITIVE_GBPS} as messages write it: {@code 0.000000001}. */
    public static final String MIN_POSITIVE_GBPS_TEXT =
            java.math.BigDecimal.valueOf(MIN_POSITIVE_GBPS).stripTrailingZeros().toPlainString();

    /** Whether {@code gbps} may stand as a bandwidth from a file: 0, or from {@link #MIN_POSITIVE_GBPS} to the max. */
    public static boolean isBandwidth(Double gbps) {
        return gbps != null && (gbps == 0 || gbps >= MIN_POSITIVE_GBPS && gbps <= MAX_GBPS);
    }
    /** The label every chart, table and summary puts on single-GPU figures. */
    public static final String SINGLE_GPU = "single GPU: not an interconnect measurement";

    /**
     * What was measured, without the machine: equal keys on one machine are the same measurement. The readers
     * set its typed parts ({@link Lane}, {@link Endpoints}, {@link Route}); {@link #direction()} and
     * {@link #pair()} are their text, for rendering, sorting and matching only.
     *
     * @param metric {@code bandwidth} (GB/s, bigger is better) or {@code latency} (µs, smaller is better)
     * @param kind {@code peer}, {@code host}, or a collective kind ({@code nccl}, {@code allreduce-ring}, ...)
     * @param path the copy path ({@code CE_P2P_READ}, ...), host memory and NUMA placement ({@code PINNED LOCAL}),
     *     or collective operation and data type ({@code ALL_REDUCE float32})
     * @param route what the path says that the report decides on
     * @param lane which figure: {@code one-way}, {@code one-way, reverse running}, {@code both ways (sum)},
     *     {@code H2D}, {@code D2H}, {@code bus}, {@code alg}, ...
     * @param ends {@code SRC-DST} for peer copies, {@code GPU<n>} for host rows, the GPU list for collectives
     * @param sizeBytes bytes per transfer (for collectives, the size the benchmark or nccl-tests reports)
     */
    public record Key(String metric, String kind, String path, Route route, Lane lane, Endpoints ends,
                      long sizeBytes) {
        /**
         * A key written as text, as the report shows it (tests, keys rebuilt from their text): the typed parts
         * are read from it; throws naming a direction, pair or path the report does not know.
         */
        public Key(String metric, String kind, String path, String direction, String pair, long sizeBytes) {
            this(metric, kind, path, Route.parse(kind, path), Lane.ofLabel(direction), Endpoints.parse(pair),
                    sizeBytes);
        }

        /** The lane as the report shows it, e.g. {@code one-way, reverse running}. */
        public String direction() {
            return lane.label();
        }

        /** The endpoints as the report shows them: {@code 0-1}, {@code GPU0}, {@code 0,1,2,3}. */
        public String pair() {
            return ends.text();
        }

        /** Whether bigger values are better (bandwidth) rather than smaller (latency). */
        public boolean biggerIsBetter() {
            return metric.equals(BANDWIDTH);
        }

        /**
         * Whether the row is of {@code k}'s kind (rows of both directions at once are of the one-way kind,
         * {@link io.p2pbench.spec.Kind#PEER} or {@link io.p2pbench.spec.Kind#HOST}, their direction says which).
         */
        public boolean is(Kind k) {
            return kind.equals(k.label());
        }

        /** Whether the row is a collective's or an exchange's (bus and algorithm bandwidth, latency per operation). */
        public boolean isCollective() {
            return is(Kind.ALLREDUCE_RING) || is(Kind.NCCL) || is(Kind.EXCHANGE);
        }

        /** The key with its endpoints replaced (a pooled figure's). */
        public Key withEnds(Endpoints other) {
            return new Key(metric, kind, path, route, lane, other, sizeBytes);
        }

        @Override
        public String toString() {
            return "Key[metric=" + metric + ", kind=" + kind + ", path=" + path + ", direction=" + direction()
                    + ", pair=" + pair() + ", sizeBytes=" + sizeBytes + "]";
        }
    }

    /** The pair as people read it: {@code 0→1}, {@code GPU0}, {@code 0,1,2,3}. */
    public String pairLabel() {
        return key.ends() instanceof Endpoints.Pair p ? p.pair().src() + "→" + p.pair().dst() : key.pair();
    }

    /** The pair with its link class, and the single-GPU label where it applies. */
    public String pairWithLink() {
        String s = pairLabel() + (link == null || link.isEmpty() || link.equals("host") ? "" : " (" + link + ")");
        return singleGpu ? s + ", " + SINGLE_GPU : s;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s %s %s %s %s %d B on %s (n=%d)", key.metric(), key.kind(), key.path(),
                key.direction(), key.pair(), key.sizeBytes(), machine, samples.length);
    }
}
