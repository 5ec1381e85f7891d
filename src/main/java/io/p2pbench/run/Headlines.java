package io.p2pbench.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.spec.Combination;
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
                return String.format(Locale.ROOT, "p50 %.2f us, p99 %.2f us (host-observed, %s)",
                        pct.path("50.0").asDouble(Double.NaN), pct.path("99.0").asDouble(Double.NaN),
                        Sizes.format(c.sizeBytes()));
            }
            Map<String, Double> scores = new TreeMap<>();
            b.path("secondaryMetrics").properties().forEach(f -> scores.put(f.getKey(),
                    f.getValue().path("score").asDouble(Double.NaN)));
            return bandwidth(c, scores);
        } catch (IOException e) {
            return "";
        }
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
