package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.render.ComparisonReport;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * compare.md says what a row measured in rounds stands on: its figures are rounds, not runs (one run of 4 rounds read
 * "(4 runs)"), and the header names the test and interval of rows in rounds (Student t with the drift between runs),
 * not only the Mann-Whitney test and Hodges-Lehmann interval of rows without rounds.
 */
class RoundsReportTest {
    private static final Measurement.Key ROW = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way",
            "0-0", 64L << 20);

    private static ResultData run(String name, double... rounds) {
        GpuInfo gpu = new GpuInfo(0, "NVIDIA H100 80GB HBM3", "GPU-1", "0000:00:06.0", "9.0", 85_017_493_504L, 132, 3,
                5, 5, 16, 16, -1, "0-15", List.of(), "");
        Topology t = new Topology("0.1.0", "2026-12-06T00:00:00Z", null, List.of(gpu), List.of(), "h100", List.of());
        Measurement m = Measurement.ofRounds(Arrays.stream(rounds).mapToObj(f -> new Measurement(ROW, "h100", "X",
                true, "sweep", "id", new double[] {f}, "test")).toList());
        return new ResultData(Path.of(name), name, "h100", "test", t, null, List.of(m), List.of(), Map.of(), null);
    }

    @Test
    void aRowInRoundsCountsRoundsAndTheHeaderNamesItsTest() throws Exception {
        Comparison.Result r = Comparison.compare(List.of(run("a", 1400, 1401, 1399, 1402)),
                List.of(run("b", 1401, 1400, 1402, 1399)), 5, NoiseFloors.defaults());
        String md = ComparisonReport.markdown(r);
        assertTrue(md.contains("(4 rounds)"), md);
        assertFalse(md.contains("(4 runs)"), md);
        assertTrue(md.contains("for rows measured in rounds"), md);
        assertTrue(md.contains("rows in rounds: Student t on the log round figures"), md);
        assertFalse(md.contains("Hodges-Lehmann"), "no row here has that interval: " + md);
        assertTrue(md.contains("(floor from rounds: 4 vs 4, spread 0.30%, drift between runs "), "each row says where "
                + "its floor comes from: " + md);
        assertTrue(md.contains("t with 6 degrees of freedom)"), "four rounds a side: " + md);
    }

    @Test
    void aComparisonThatCannotJudgeSaysWhatMoreBaselineRunsWouldBuy() throws Exception {
        Comparison.Result wide = Comparison.compare(List.of(run("a", 1400, 1500, 1300, 1450)),
                List.of(run("b", 1350, 1480, 1420, 1310)), 5, NoiseFloors.defaults());
        assertEquals(1, wide.widerFloors());
        List<String> lines = ComparisonReport.summary(wide, 20);
        assertTrue(lines.get(1).startsWith("  more baseline runs: of the 1 measurements whose floor is wider than ±5%, "
                + "about " + wide.judgedWithMoreRuns() + " would be judged with a baseline of 3 runs like these"),
                String.join("\n", lines));
        assertTrue(ComparisonReport.markdown(wide).contains("- More baseline runs: of the 1 measurements whose floor"),
                ComparisonReport.markdown(wide));
        Comparison.Result tight = Comparison.compare(List.of(run("a", 1400, 1401, 1399, 1402)),
                List.of(run("b", 1401, 1400, 1402, 1399)), 5, NoiseFloors.defaults());
        assertFalse(String.join("\n", ComparisonReport.summary(tight, 20)).contains("more baseline runs"),
                "nothing to say when every measurement is judged");
        assertFalse(String.join("\n", ComparisonReport.summary(tight, 20)).contains("not gated"),
                "nothing to say when every measurement is judged");
    }

    /** A side of one run with rows {@code keys}, each with the same {@code rounds} scaled by its index + 1. */
    private static ResultData runOf(String name, List<Measurement.Key> keys, double... rounds) {
        GpuInfo gpu = new GpuInfo(0, "NVIDIA H100 80GB HBM3", "GPU-1", "0000:00:06.0", "9.0", 85_017_493_504L, 132, 3,
                5, 5, 16, 16, -1, "0-15", List.of(), "");
        Topology t = new Topology("0.1.0", "2026-12-06T00:00:00Z", null, List.of(gpu), List.of(), "h100", List.of());
        List<Measurement> ms = keys.stream().map(k -> Measurement.ofRounds(Arrays.stream(rounds)
                .mapToObj(f -> new Measurement(k, "h100", "X", true, "sweep", "id",
                        new double[] {f * (keys.indexOf(k) + 1)}, "test")).toList())).toList();
        return new ResultData(Path.of(name), name, "h100", "test", t, null, ms, List.of(), Map.of(), null);
    }

    @Test
    void theCiLogNamesWhatTheGateDoesNotCoverByKindWithTheirFloors() throws Exception {
        Measurement.Key pageable4k = new Measurement.Key("bandwidth", "host", "PAGEABLE LOCAL", "H2D", "GPU0", 4096);
        Measurement.Key pageable1m = new Measurement.Key("bandwidth", "host", "PAGEABLE LOCAL", "H2D", "GPU0", 1L << 20);
        List<Measurement.Key> keys = List.of(pageable4k, pageable1m, ROW);
        // The pageable rows' rounds spread ~7% (floor wider than 5%); the peer copy's are the same figures, so both
        // sides agree within 0.1% on it too, but it is scaled the same: only the spread decides, as for the others.
        Comparison.Result r = Comparison.compare(List.of(runOf("a", keys, 1400, 1500, 1300, 1450)),
                List.of(runOf("b", keys, 1350, 1480, 1420, 1310)), 5, NoiseFloors.defaults());
        List<String> lines = ComparisonReport.summary(r, 20);
        String notGated = lines.stream().filter(l -> l.startsWith("  not gated at ±5% (floor wider): ")).findFirst()
                .orElseThrow(() -> new AssertionError(String.join("\n", lines)));
        assertEquals(3, r.widerFloors(), String.join("\n", lines));
        assertTrue(notGated.contains("bandwidth host PAGEABLE LOCAL x2 (±"), notGated);
        assertTrue(notGated.contains("; bandwidth peer CE_P2P_READ x1 (±"), "most first: " + notGated);
        assertFalse(notGated.contains("more kinds"), notGated);
    }
}
