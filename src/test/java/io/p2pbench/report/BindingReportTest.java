package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JCuda twin row is read as its own measurement, named with its binding, beside the JavaCPP row. */
class BindingReportTest {
    @TempDir
    Path work;

    @Test
    void theJCudaTwinIsNamedWithItsBindingAndTheJavaCppRowIsUnchanged() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("x1"));
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode manifest = (ObjectNode) mapper.readTree(dir.resolve("manifest.json").toFile());
        ArrayNode entries = (ArrayNode) manifest.get("entries");
        ObjectNode twin = null;
        for (var e : entries) {
            if (e.get("combination").get("id").asText().equals("peer-lat-CE_P2P_READ-0-0-4KiB")) {
                twin = e.deepCopy();
            }
        }
        ObjectNode c = (ObjectNode) twin.get("combination");
        c.put("id", "peer-lat-jcuda-CE_P2P_READ-0-0-4KiB");
        c.put("group", "binding");
        ((ObjectNode) c.get("params")).put("binding", "JCUDA_DRIVER");
        entries.add(twin);
        mapper.writeValue(dir.resolve("manifest.json").toFile(), manifest);

        List<Measurement> latency = ResultReader.read(dir).measurements().stream()
                .filter(m -> m.key().metric().equals(Measurement.LATENCY) && m.key().sizeBytes() == 4096
                        && m.key().kind().equals("peer") && m.key().path().startsWith("CE_P2P_READ"))
                .toList();
        assertEquals(List.of("CE_P2P_READ", "CE_P2P_READ via JCuda driver API"),
                latency.stream().map(m -> m.key().path()).sorted().toList());
        Reporter.render(List.of(dir), work.resolve("report"));
        // Per-size latency rows live in statistics.md (summary.md keeps the headline, matrices and charts).
        String statistics = Files.readString(work.resolve("report").resolve(Reporter.STATISTICS));
        List<String> rows = new java.util.ArrayList<>();
        boolean latencyTable = false;
        for (String l : statistics.lines().toList()) {
            if (l.startsWith("Latency, µs per transfer")) {
                latencyTable = true;
            } else if (l.startsWith("#")) {
                latencyTable = false;
            }
            if (latencyTable && l.startsWith("| CE_P2P_READ") && l.contains("| 4 KiB |")) {
                rows.add(l);
            }
        }
        assertEquals(2, rows.size(), "one latency row per binding: " + rows);
        assertTrue(rows.stream().anyMatch(l -> l.startsWith("| CE_P2P_READ via JCuda driver API |")),
                "statistics.md shows the JCuda row: " + rows);
        assertTrue(rows.stream().anyMatch(l -> l.startsWith("| CE_P2P_READ |")), "beside the JavaCPP row: " + rows);
    }
}
