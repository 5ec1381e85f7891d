package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.report.render.BenchmarkActionExport;
import io.p2pbench.report.stats.Statistics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tail percentile is reported only where the samples reach it (p99 from 100 samples, p99.9 from 1000): with fewer,
 * R-7 lies between the two largest samples, so the "p99" of a 1 GiB pageable copy's 6 samples in a quick run was its
 * largest sample. The eight-GPU fixture's CE_P2P_READ latencies of pair 0-0 have 5 hand-checked samples each, the
 * other latencies 100.
 */
class PercentileReachTest {
    @TempDir
    Path out;

    @Test
    void theFewestSamplesOfEachPercentile() {
        assertEquals(10, Statistics.minSamples(90));
        assertEquals(100, Statistics.minSamples(99));
        assertEquals(1000, Statistics.minSamples(99.9));
        assertEquals(2, Statistics.minSamples(50));
        assertThrows(IllegalArgumentException.class, () -> Statistics.minSamples(100));
        assertThrows(IllegalArgumentException.class, () -> Statistics.minSamples(0));
        Statistics.Latency five = Statistics.latency(new double[] {10, 10, 10, 11, 15});
        assertTrue(five.reaches(50) && !five.reaches(90) && !five.reaches(99));
        assertTrue(!samples(9).reaches(90) && samples(10).reaches(90));
        assertTrue(!samples(99).reaches(99) && samples(100).reaches(99) && !samples(100).reaches(99.9));
        assertTrue(!samples(999).reaches(99.9) && samples(1000).reaches(99.9));
    }

    private static Statistics.Latency samples(int n) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = 7 + i;
        }
        return Statistics.latency(s);
    }

    @Test
    void theStatisticsTableShowsADashWhereTheSamplesDoNotReachAPercentile() throws Exception {
        Reporter.render(List.of(Fixtures.X8), out);
        String md = Files.readString(out.resolve(Reporter.STATISTICS));
        assertTrue(md.contains("a percentile where the samples reach it (p90 from 10, p99 from 100, p99.9 from 1000 "
                + "samples), else — (fewer than 1/(1-q) samples: less than one expected above it)"), md);
        List<String> rows = md.lines().filter(l -> l.startsWith("| CE_P2P_READ | one-way | 4 KiB |")).toList();
        assertTrue(rows.stream().anyMatch(l -> l.matches("\\| CE_P2P_READ \\| one-way \\| 4 KiB \\| [0-9.]+ \\| — \\| "
                + "— \\| — \\| [0-9.]+ \\| 5 \\|.*")), "5 samples: p50 only: " + rows);
        assertTrue(rows.stream().anyMatch(l -> l.matches("\\| CE_P2P_READ \\| one-way \\| 4 KiB \\| [0-9.]+ \\| "
                + "[0-9.]+ \\| [0-9.]+ \\| — \\| [0-9.]+ \\| 100 \\|.*")), "100 samples: up to p99: " + rows);
    }

    @Test
    void exportsAndChartsLeaveOutAP99TheSamplesDoNotReach() throws Exception {
        Reporter.render(List.of(Fixtures.X8), out);
        JsonNode smaller = new ObjectMapper().readTree(out.resolve(BenchmarkActionExport.SMALLER).toFile());
        List<String> names = StreamSupport.stream(smaller.spliterator(), false).map(e -> e.path("name").asText())
                .toList();
        assertTrue(names.contains("h200x8-nv18-r580 peer latency CE_P2P_READ one-way 0-0 4KiB p50"), names.toString());
        assertFalse(names.contains("h200x8-nv18-r580 peer latency CE_P2P_READ one-way 0-0 4KiB p99"), names.toString());
        assertTrue(names.contains("h200x8-nv18-r580 peer latency CE_P2P_READ one-way 0-1 4KiB p99"), names.toString());
        JsonNode bencher = new ObjectMapper().readTree(out.resolve(BenchmarkActionExport.BENCHER).toFile());
        JsonNode small = bencher.path("h200x8-nv18-r580 peer CE_P2P_READ one-way 0-0 4KiB");
        assertTrue(small.has(BenchmarkActionExport.BENCHER_LATENCY)
                && !small.has(BenchmarkActionExport.BENCHER_P99), small.toString());
        String chart = Files.readString(out.resolve("latency-p99-peer-0-0.svg"));
        assertTrue(chart.contains("measured with fewer than 100 samples left out"), chart);
        // the chart's CE_P2P_READ line (5 samples a size) is gone, the other paths' lines are drawn
        assertFalse(chart.contains(">CE_P2P_READ<"), chart);
        assertTrue(chart.contains(">CE_NO_P2P<") || chart.contains(">HOST_STAGED<"), chart);
    }
}
