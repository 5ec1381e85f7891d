package io.p2pbench.report.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.report.Fixtures;
import io.p2pbench.report.Reporter;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Bencher export has the shape of Bencher's documented BMF JSON schema (bencher.dev/bmf.json). */
class BencherExportTest {
    @TempDir
    Path out;

    @Test
    void bencherFileFollowsTheBmfSchema() throws Exception {
        Reporter.render(List.of(Fixtures.X8), out);
        JsonNode root = new ObjectMapper().readTree(out.resolve(BenchmarkActionExport.BENCHER).toFile());
        assertTrue(root.isObject() && root.size() > 50);
        for (Iterator<Map.Entry<String, JsonNode>> benchmarks = root.properties().iterator(); benchmarks.hasNext(); ) {
            Map.Entry<String, JsonNode> b = benchmarks.next();
            assertTrue(!b.getKey().isEmpty() && b.getKey().length() <= 1024 && b.getValue().isObject(), b.getKey());
            for (Iterator<Map.Entry<String, JsonNode>> measures = b.getValue().properties().iterator(); measures.hasNext(); ) {
                Map.Entry<String, JsonNode> m = measures.next();
                assertTrue(m.getKey().length() <= 64, "measure slug at most 64 characters: " + m.getKey());
                JsonNode metric = m.getValue();
                assertTrue(metric.path("value").isNumber(), b.getKey() + " " + m.getKey() + " needs a numeric value");
                metric.fieldNames().forEachRemaining(f -> assertTrue(Set.of("value", "lower_value", "upper_value")
                        .contains(f), "unknown metric field " + f));
                if (metric.has("lower_value")) {
                    assertTrue(metric.get("lower_value").asDouble() <= metric.get("value").asDouble()
                            && metric.get("value").asDouble() <= metric.get("upper_value").asDouble(), b.getKey());
                }
            }
        }
        JsonNode lat = root.path("h200x8-nv18-r580 peer CE_P2P_READ one-way 0-1 4KiB");
        assertTrue(lat.has("latency") && lat.has("latency-p99") && lat.has("bandwidth-gbps"), lat.toString());
        assertTrue(lat.get("latency").get("value").asDouble() > 1000, "nanoseconds, not µs: " + lat);
        assertEquals(Set.of("value"), Set.copyOf(iterable(lat.get("latency").fieldNames())));
    }

    private static List<String> iterable(Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
