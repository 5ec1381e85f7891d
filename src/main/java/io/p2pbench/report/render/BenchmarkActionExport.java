package io.p2pbench.report.render;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Files in github-action-benchmark's custom format (a JSON array of name, unit, value, range,
 * extra): bandwidth medians for {@code customBiggerIsBetter}, latency p50 and p99 for
 * {@code customSmallerIsBetter}. Names carry the machine and every parameter, so one benchmark
 * history per machine, path, pair and size builds up.
 */
public final class BenchmarkActionExport {
    /** The bigger-is-better file's name. */
    public static final String BIGGER = "benchmark-bigger-is-better.json";
    /** The smaller-is-better file's name. */
    public static final String SMALLER = "benchmark-smaller-is-better.json";
    /** The Bencher Metric Format file's name. */
    public static final String BENCHER = "bencher-metrics.json";
    /** Bencher measure of bandwidth medians (created on first upload; decimal GB/s). */
    public static final String BENCHER_BANDWIDTH = "bandwidth-gbps";
    /** Bencher's built-in latency measure (nanoseconds): p50. */
    public static final String BENCHER_LATENCY = "latency";
    /** Bencher measure of p99 latency, nanoseconds. */
    public static final String BENCHER_P99 = "latency-p99";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setDefaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL,
                    JsonInclude.Include.NON_NULL));

    private BenchmarkActionExport() {}

    /**
     * One benchmark value.
     *
     * @param name machine and parameters
     * @param unit {@code GB/s} or {@code us}
     * @param value the figure
     * @param range the interval's half width, e.g. {@code ± 0.42}, or null
     * @param extra how the figure was computed
     */
    record Entry(String name, String unit, double value, String range, String extra) {}

    /** Writes both files into {@code dir}. */
    public static void write(List<Measurement> ms, Path dir) throws IOException {
        AtomicFiles.write(dir.resolve(BIGGER), MAPPER.writeValueAsString(bigger(ms)) + "\n");
        AtomicFiles.write(dir.resolve(SMALLER), MAPPER.writeValueAsString(smaller(ms)) + "\n");
        AtomicFiles.write(dir.resolve(BENCHER), MAPPER.writeValueAsString(bencher(ms)) + "\n");
    }

    /**
     * Bencher Metric Format (BMF) JSON: {@code {benchmark: {measure: {value, lower_value, upper_value}}}}.
     * A benchmark is one machine, kind, path, direction, pair and size; its measures are
     * {@code bandwidth-gbps} (median, bounds the 95% t-interval), {@code latency} (Bencher's built-in
     * measure, nanoseconds: p50) and {@code latency-p99} (nanoseconds), percentiles by R-7.
     */
    static Map<String, Map<String, Map<String, Double>>> bencher(List<Measurement> ms) {
        Map<String, Map<String, Map<String, Double>>> out = new TreeMap<>();
        for (Measurement m : ms) {
            Measurement.Key k = m.key();
            String name = String.join(" ", m.machine(), k.kind(), k.path(), k.direction(), k.pair(),
                    Sizes.compact(k.sizeBytes()));
            Map<String, Map<String, Double>> measures = out.computeIfAbsent(name, n -> new TreeMap<>());
            if (k.biggerIsBetter()) {
                Statistics.Bandwidth b = Statistics.bandwidth(m.samples());
                Map<String, Double> metric = new LinkedHashMap<>();
                metric.put("value", b.median());
                if (b.hasInterval()) {
                    metric.put("lower_value", b.ciLow());
                    metric.put("upper_value", b.ciHigh());
                }
                measures.put(BENCHER_BANDWIDTH, metric);
            } else {
                Statistics.Latency l = Statistics.latency(m.samples());
                measures.put(BENCHER_LATENCY, Map.of("value", l.p50() * 1000));
                if (l.reaches(99)) {
                    measures.put(BENCHER_P99, Map.of("value", l.p99() * 1000));
                }
            }
        }
        return out;
    }

    /** Bandwidth medians with the t-interval's half width as range. */
    static List<Entry> bigger(List<Measurement> ms) {
        List<Entry> out = new ArrayList<>();
        for (Measurement m : ms) {
            if (m.key().biggerIsBetter()) {
                Statistics.Bandwidth b = Statistics.bandwidth(m.samples());
                out.add(new Entry(name(m), "GB/s", b.median(),
                        b.hasInterval() ? String.format(Locale.ROOT, "± %.3f", b.halfWidth()) : null,
                        String.format(Locale.ROOT, "median of %d (%s); %s; CV %s%s", b.n(), m.samplesFrom(),
                                b.hasInterval() ? String.format(Locale.ROOT, "%s [%.3f, %.3f]", Statistics.BANDWIDTH_INTERVAL,
                                        b.ciLow(), b.ciHigh()) : "no interval (one sample)",
                                Markdown.percent(b.cv()), m.singleGpu() ? "; " + Measurement.SINGLE_GPU : "")));
            }
        }
        return out;
    }

    /** Latency p50 and p99, one entry each (p99 only where the samples reach it, {@link Statistics#minSamples}). */
    static List<Entry> smaller(List<Measurement> ms) {
        List<Entry> out = new ArrayList<>();
        for (Measurement m : ms) {
            if (!m.key().biggerIsBetter()) {
                Statistics.Latency l = Statistics.latency(m.samples());
                String extra = l.n() + " samples, " + Statistics.PERCENTILE_ESTIMATOR
                        + (m.singleGpu() ? "; " + Measurement.SINGLE_GPU : "");
                out.add(new Entry(name(m) + " p50", "us", l.p50(), null, extra));
                if (l.reaches(99)) {
                    out.add(new Entry(name(m) + " p99", "us", l.p99(), null, extra));
                }
            }
        }
        return out;
    }

    /** e.g. {@code h200x8-nv18-r580 peer bandwidth CE_P2P_READ one-way 0-1 256MiB}. */
    static String name(Measurement m) {
        Measurement.Key k = m.key();
        return String.join(" ", m.machine(), k.kind(), k.metric(), k.path(), k.direction(), k.pair(),
                Sizes.compact(k.sizeBytes()));
    }
}
