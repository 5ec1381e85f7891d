package io.p2pbench.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.PercentileReach;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The figure a progress line and the manifest's {@code headline} show for a finished benchmark. */
final class Headlines {
    private Headlines() {}

    /** A serving sweep's progress line from its samples file; "" when it cannot be read. */
    static String serving(BenchmarkRecords.Target target) {
        try {
            return ServingSamples.read(AtomicFiles.read(target.samplesFile())).headline();
        } catch (IOException e) {
            return "";
        }
    }

    /** The progress line's figure from the fork's JMH JSON (one benchmark); "" when it cannot be read. */
    static String of(Combination c, Path jmhJson) {
        try {
            JsonNode b = ResultFolder.mapper().readTree(jmhJson.toFile()).path(0);
            if (Metric.of(c.metric()) == Metric.LATENCY) {
                JsonNode pct = b.path("primaryMetric").path("scorePercentiles");
                return latency(c, samples(b.path("primaryMetric").path("rawDataHistogram")),
                        pct.path("50.0").asDouble(Double.NaN), pct.path("99.0").asDouble(Double.NaN));
            }
            Map<String, Double> scores = new TreeMap<>();
            b.path("secondaryMetrics").properties().forEach(f -> scores.put(f.getKey(),
                    f.getValue().path("score").asDouble(Double.NaN)));
            return bandwidth(c, scores);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * A latency benchmark's figure from {@code n} samples: p50, and p99 where the samples reach it ({@link
     * PercentileReach}); a partition request (0.4-1.1 s, one or two a round at quick timing) as a request time, p50.
     */
    static String latency(Combination c, long n, double p50, double p99) {
        if (Kind.of(c.kind()) == Kind.PARTITION) {
            return String.format(Locale.ROOT, "request %.1f ms (p50 of %d, host-observed)%s", p50 / 1000, n,
                    c.singleGpu() ? " [single GPU]" : "");
        }
        return String.format(Locale.ROOT, "p50 %.2f us%s (host-observed, %s; %d samples)", p50,
                PercentileReach.reaches(n, 99) ? String.format(Locale.ROOT, ", p99 %.2f us", p99) : "",
                Sizes.format(c.sizeBytes()), n);
    }

    /** How many samples a JMH SampleTime histogram holds ({@code [[[value, count], ...], ...]} per fork). */
    private static long samples(JsonNode histogram) {
        long n = 0;
        for (JsonNode fork : histogram) {
            for (JsonNode iteration : fork) {
                for (JsonNode bin : iteration) {
                    n += Math.max(0, bin.path(1).asLong(0));
                }
            }
        }
        return n;
    }

    /** The progress line's figure of a bandwidth-style benchmark from its secondary scores; "" when it has none. */
    static String bandwidth(Combination c, Map<String, Double> s) {
        String single = c.singleGpu() ? " [single GPU]" : "";
        if (s.containsKey("stepUs") && s.containsKey("tokensPerSecond")) {
            return String.format(Locale.ROOT, "%.1f us/step, %.0f tokens/s (compute %.1f, exposed comm %.1f, wait %.1f us; "
                    + "device, median)%s", s.get("stepUs"), s.get("tokensPerSecond"), s.getOrDefault("computeUs", Double.NaN),
                    s.getOrDefault("commUs", Double.NaN), s.getOrDefault("waitUs", Double.NaN), single);
        }
        if (s.containsKey("busGBps") && s.containsKey("algGBps") && s.containsKey("timeUs")) {
            return String.format(Locale.ROOT, "algbw %.2f GB/s, busbw %.2f GB/s, %.1f us/op (device, median)%s",
                    s.get("algGBps"), s.get("busGBps"), s.get("timeUs"), single);
        }
        if (s.containsKey("sumGBps") && s.containsKey("forwardGBps") && s.containsKey("reverseGBps")) {
            // The sum is every byte over the common window; each lane is over its own window, so the lanes do not add up to it.
            return String.format(Locale.ROOT, "%.2f GB/s both ways over the common window (lanes over their own windows: "
                    + "%.2f, %.2f; device, median)", s.get("sumGBps"), s.get("forwardGBps"), s.get("reverseGBps"));
        }
        Double dev = s.get("deviceGBps");
        return dev == null ? "" : String.format(Locale.ROOT, "%.2f GB/s (device, median)", dev);
    }
}
