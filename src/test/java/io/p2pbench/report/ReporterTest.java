package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.render.BenchmarkActionExport;
import io.p2pbench.report.render.ReportContent;
import io.p2pbench.report.render.SummaryWriter;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.report.stats.StatisticsTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReporterTest {
    @TempDir
    Path out;

    @Test
    void summaryOfTheEightGpuRunHasEverySection() throws Exception {
        Path summary = Reporter.render(List.of(Fixtures.X8), out);
        String md = Files.readString(summary);
        assertTrue(Files.size(summary) < SummaryWriter.LIMIT_BYTES);
        for (String expected : List.of("# p2pbench report: h200x8-nv18-r580", "## Machine h200x8-nv18-r580",
                "GPU-to-GPU links (row = source, column = destination)", "(8x NVIDIA H200); driver 580.159.04",
                "CE_P2P_READ one-way, 256 MiB: median GB/s, row = source GPU, column = destination GPU",
                "## Latency-bandwidth fit",
                "peer access refused by the driver", Statistics.PERCENTILE_ESTIMATOR, Statistics.BANDWIDTH_INTERVAL,
                "NVLink 4: 18 links x 25 GB/s per direction", Measurement.SINGLE_GPU, "ALL_REDUCE FLOAT32")) {
            assertTrue(md.contains(expected), "summary.md lacks '" + expected + "'");
        }
        for (String expected : List.of("## Headline", "## Charts", "](heatmap-CE_P2P_READ-256MiB.svg)",
                "busbw-nccl.svg")) {
            assertTrue(md.contains(expected), "summary.md lacks '" + expected + "'");
        }
        // The matrix row of GPU 3 has N/A for destination 5 (skipped), device-local cells are starred.
        String row3 = md.lines().filter(l -> l.startsWith("3  ")).findFirst().orElseThrow();
        assertEquals("N/A", row3.trim().split("\\s+")[6], row3);
        assertTrue(row3.trim().split("\\s+")[4].endsWith("*"), row3);
        assertTrue(Files.exists(out.resolve(Reporter.STATISTICS)));
    }

    @Test
    void headlineShowsTheNvbandwidthFigureOfTheSameCopyAndNothingElseChanges() throws Exception {
        String md = Files.readString(Reporter.render(List.of(Fixtures.X8), Fixtures.NVBANDWIDTH, 256L << 20,
                out.resolve("with")));
        List<String> headline = md.lines().dropWhile(l -> !l.startsWith("| link |")).skip(2)
                .takeWhile(l -> l.startsWith("|")).toList();
        assertTrue(headline.stream().anyMatch(l -> !l.split("\\|")[6].trim().equals("—")), String.join("\n", headline));
        assertFalse(Files.exists(out.resolve("with/jmh/synthetic-h200x8-nvbandwidth-v0.8.json")),
                "an imported reference is no run: nothing exported for it");
        String plain = Files.readString(Reporter.render(List.of(Fixtures.X8), out.resolve("without")));
        assertTrue(plain.contains("No nvbandwidth reference was given"));
        BadInputException e = assertThrows(BadInputException.class,
                () -> Reporter.render(List.of(Fixtures.X8), Fixtures.X1, 256L << 20, out.resolve("bad")));
        assertTrue(e.getMessage().startsWith("--nvbandwidth " + Fixtures.X1), e.getMessage());
    }

    @Test
    void oneGpuRunListsSkipsFailuresAndUnknownKinds() throws Exception {
        String md = Files.readString(Reporter.render(List.of(Fixtures.X1), out));
        assertTrue(md.contains("| h200x1-single-r580 | failed | io.p2pbench.transfer.DataMismatchException"), md);
        assertTrue(md.contains("there is no peer access to turn off (" + Measurement.SINGLE_GPU + ") | 6 |"), md);
        assertTrue(md.contains("`future-kind` in `h200x1-single-r580/synthetic-h200x1`: 1 result(s)"));
        String stats = Files.readString(out.resolve(Reporter.STATISTICS));
        assertTrue(stats.contains("85.7% of R1"), "host H2D 64 MiB efficiency against Gen5 x16");
        assertTrue(stats.contains("R1: 63.01 GB/s: PCIe Gen5 x16: 16 lanes x 3.938 GB/s per direction"));
        assertFalse(md.contains("| p99.9 |"), "statistics only in statistics.md");
        assertTrue(md.contains("85.7% of 63.01 (PCIe Gen5 x16"), "the headline rates the link: " + md);
        assertFalse(md.contains("appear in more than one run"), "one run has no superseded figures");
    }

    @Test
    void runsTableSumsTheBytesVerifiedOrSaysTheyWereNotRecorded() throws Exception {
        String old = Files.readString(Reporter.render(List.of(Fixtures.X1), out.resolve("old")));
        assertTrue(old.contains("| bytes verified |"), old);
        assertTrue(old.contains("| not recorded (older suite) |"), old);

        Path run = Fixtures.copy(Fixtures.X1, out.resolve("run"));
        Path manifest = run.resolve("manifest.json");
        ObjectMapper mapper = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode m =
                (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(manifest.toFile());
        int ok = 0;
        for (JsonNode e : m.path("entries")) {
            if (e.path("status").asText().equals("ok")) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) e).put("bytesVerified", 1L << 20);
                ok++;
            }
        }
        mapper.writeValue(manifest.toFile(), m);
        String md = Files.readString(Reporter.render(List.of(run), out.resolve("new")));
        assertTrue(ok > 1);
        assertTrue(md.contains("| " + ok + " MiB |"), "expected " + ok + " MiB verified in:\n" + md);
    }

    @Test
    void exportsJmhJsonUntouchedAndBenchmarkActionFiles() throws Exception {
        Reporter.render(List.of(Fixtures.X8), out);
        assertArrayEquals(Files.readAllBytes(Fixtures.X8.resolve("jmh-results.json")),
                Files.readAllBytes(out.resolve("jmh/h200x8-nv18-r580-synthetic-h200x8.json")));
        JsonNode bigger = new ObjectMapper().readTree(out.resolve(BenchmarkActionExport.BIGGER).toFile());
        JsonNode smaller = new ObjectMapper().readTree(out.resolve(BenchmarkActionExport.SMALLER).toFile());
        assertTrue(bigger.isArray() && smaller.isArray());
        JsonNode first = find(bigger, "h200x8-nv18-r580 peer bandwidth CE_P2P_READ one-way 0-1 256MiB");
        assertEquals("GB/s", first.path("unit").asText());
        assertTrue(first.path("value").asDouble() > 380, first.toString());
        assertTrue(first.path("range").asText().startsWith("± "));
        JsonNode p99 = find(smaller, "h200x8-nv18-r580 peer latency CE_P2P_READ one-way 0-1 4KiB p99");
        assertEquals("us", p99.path("unit").asText());
        assertTrue(p99.path("extra").asText().contains(Statistics.PERCENTILE_ESTIMATOR));
    }

    @Test
    void newerRunOfTheSameMachineWins(@TempDir Path work) throws Exception {
        Path newer = Fixtures.copy(Fixtures.X1, work.resolve("newer"));
        Fixtures.setManifestField(newer, "startedAt", "2026-02-01T00:00:00Z");
        Fixtures.scaleBandwidth(newer, 2.0);
        // Given newest first: readAll orders by start time, so the doubled copy is merged last and wins.
        Reporter.Merged merged = Reporter.merge(Reporter.readAll(List.of(newer, Fixtures.X1)));
        Measurement m = StatisticsTest.find(merged.measurements(), "bandwidth", "peer", "CE_P2P_READ", "one-way", "0-0",
                4096);
        assertEquals(4.0, Statistics.bandwidth(m.samples()).median(), 1e-9);
        assertEquals(ResultReader.read(Fixtures.X1).measurements().size(), merged.superseded());
    }

    @Test
    void interruptedRunIsReportedWithWhatFinished(@TempDir Path work) throws Exception {
        Path run = Fixtures.copy(Fixtures.X1, work.resolve("interrupted"));
        ObjectMapper mapper = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode manifest =
                (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(run.resolve("manifest.json").toFile());
        manifest.put("state", "interrupted");
        JsonNode entries = manifest.path("entries");
        for (int i = entries.size() - 10; i < entries.size(); i++) {
            com.fasterxml.jackson.databind.node.ObjectNode e = (com.fasterxml.jackson.databind.node.ObjectNode) entries.get(i);
            e.put("status", i == entries.size() - 10 ? "interrupted" : "pending");
            e.putNull("reason");
            e.putNull("jmhFile");
        }
        mapper.writeValue(run.resolve("manifest.json").toFile(), manifest);
        Files.delete(run.resolve("jmh-results.json"));
        String md = Files.readString(Reporter.render(List.of(run), out));
        assertTrue(md.contains("| quick | 2026-01-01T00:00:00Z | interrupted | 59 |"), md);
        assertTrue(md.contains("| h200x1-single-r580 | pending | no reason recorded (" + Measurement.SINGLE_GPU
                + ") | 9 |"), md);
        assertTrue(md.contains("has no jmh-results.json"), md);
    }

    @Test
    void summaryStaysUnderOneMebibyte() throws Exception {
        ResultData d = ResultReader.read(Fixtures.X1);
        List<Measurement> many = new ArrayList<>();
        for (int pair = 0; pair < 400; pair++) {
            for (int log2 = 2; log2 < 32; log2++) {
                many.add(new Measurement(new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way",
                        pair + "-" + pair, 1L << log2), "h200x1-single-r580", "X", true, "sweep", "id",
                        new double[] {pair, log2 + 1}, "test"));
            }
        }
        ReportContent content = new ReportContent(List.of(d), many, 0, java.util.Map.of(), List.of(), List.of(), List.of());
        SummaryWriter.Documents docs = SummaryWriter.render(content, Path.of("."));
        assertTrue(docs.statistics().getBytes(StandardCharsets.UTF_8).length > SummaryWriter.LIMIT_BYTES,
                "the full tables are bigger than the limit, so the summary has to leave them out");
        assertTrue(docs.summary().getBytes(StandardCharsets.UTF_8).length < SummaryWriter.LIMIT_BYTES);
        assertTrue(docs.summary().contains("see `statistics.md`"));
    }

    private static JsonNode find(JsonNode array, String name) {
        for (JsonNode e : array) {
            if (e.path("name").asText().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no entry named " + name);
    }
}
