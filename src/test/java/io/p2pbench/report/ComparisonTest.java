package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.transfer.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonTest {
    @TempDir
    Path work;

    private static Measurement m(String metric, double... samples) {
        return new Measurement(new Measurement.Key(metric, "peer", "CE_P2P_READ", "one-way", "0-1", 1 << 20), "m",
                "NV18", false, "sweep", "id", samples, "test");
    }

    private static double[] scaled(double[] x, double factor) {
        return Arrays.stream(x).map(v -> v * factor).toArray();
    }

    private static final double[] BANDWIDTH = {98, 99, 100, 101, 102, 99.5, 100.5, 100};

    @Test
    void resultComparedWithItselfIsSameEverywhere() throws Exception {
        ResultData x8 = ResultReader.read(Fixtures.X8);
        Comparison.Result r = Comparison.compare(x8, x8, 5);
        assertEquals(Comparison.Matching.SAME_MACHINE, r.matching());
        assertEquals(x8.measurements().size(), r.rows().size());
        assertTrue(r.rows().stream().allMatch(row -> row.verdict() == Comparison.Verdict.SAME && row.ratio() == 1.0));
        assertTrue(r.rows().stream().filter(row -> !Double.isNaN(row.ratioLow()))
                .allMatch(row -> row.ratioLow() <= 1 && row.ratioHigh() >= 1));
    }

    @Test
    void tenPercentLessBandwidthIsWorseOnEveryBandwidthRow() throws Exception {
        Path lower = Fixtures.copy(Fixtures.X8, work.resolve("lower"));
        Fixtures.scaleBandwidth(lower, 0.9);
        Comparison.Result r = Comparison.compare(ResultReader.read(Fixtures.X8), ResultReader.read(lower), 5);
        for (Comparison.Row row : r.rows()) {
            Comparison.Verdict expected = row.candidate().key().biggerIsBetter() ? Comparison.Verdict.WORSE
                    : Comparison.Verdict.SAME;
            assertEquals(expected, row.verdict(), row.candidate() + ": " + row.why());
            if (row.candidate().key().biggerIsBetter()) {
                assertEquals(0.9, row.ratio(), 1e-9);
            }
        }
        assertTrue(r.count(Comparison.Verdict.WORSE) > 100);
        assertEquals(Comparison.Verdict.WORSE, r.rows().get(0).verdict(), "worse rows come first");
    }

    @Test
    void directionDecidesBetterOrWorse() {
        double[] latency = {10, 10.2, 9.9, 10.1, 10.05, 9.95, 10, 10.1};
        assertEquals(Comparison.Verdict.WORSE, Comparison.judge(m("latency", latency),
                m("latency", scaled(latency, 1.2)), 5).verdict(), "latency up is worse");
        assertEquals(Comparison.Verdict.BETTER, Comparison.judge(m("latency", latency),
                m("latency", scaled(latency, 0.8)), 5).verdict(), "latency down is better");
        assertEquals(Comparison.Verdict.BETTER, Comparison.judge(m("bandwidth", BANDWIDTH),
                m("bandwidth", scaled(BANDWIDTH, 1.2)), 5).verdict(), "bandwidth up is better");
    }

    @Test
    void thresholdAndNoiseKeepSmallChangesSame() {
        Comparison.Row small = Comparison.judge(m("bandwidth", BANDWIDTH), m("bandwidth", scaled(BANDWIDTH, 0.97)), 5);
        assertEquals(Comparison.Verdict.SAME, small.verdict());
        assertTrue(small.why().startsWith("within ±5%"), small.why());
        assertEquals(Comparison.Verdict.WORSE, Comparison.judge(m("bandwidth", BANDWIDTH),
                m("bandwidth", scaled(BANDWIDTH, 0.97)), 2).verdict(), "beyond a 2% threshold");
        // Overlapping samples: a 10% lower median on two of eight batches is not significant.
        double[] noisy = {60, 140, 100, 100, 100, 100, 100, 100};
        double[] noisyLower = {54, 126, 90, 90, 110, 110, 100, 100};
        Comparison.Row noise = Comparison.judge(m("bandwidth", noisy), m("bandwidth", noisyLower), 1);
        assertEquals(Comparison.Verdict.SAME, noise.verdict());
        assertTrue(noise.why().startsWith("within noise"), noise.why());
    }

    @Test
    void pValuesMatchHandComputation() {
        // Mann-Whitney: 1..5 vs 6..10: U = 0, z = (0 - 12.5) / sqrt(5 * 5 * 11 / 12) = -2.6112, p = 2 Phi(z) = 0.009023.
        assertEquals(0.009023, Comparison.pValue(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10}), 1e-6);
        // Wilcoxon signed-rank against one value, exact: eight samples all above it, p = 2 / 2^8 = 0.0078125.
        assertEquals(0.0078125, Comparison.pValue(new double[] {5}, new double[] {6, 7, 8, 9, 10, 11, 12, 13}), 1e-12);
        // Samples equal to the single value carry no information.
        assertEquals(1.0, Comparison.pValue(new double[] {5}, new double[] {5, 5, 5}), 0);
        assertTrue(Double.isNaN(Comparison.pValue(new double[] {5}, new double[] {6})));
    }

    @Test
    void oneValueEachSideFallsBackToTheThreshold() {
        Comparison.Row row = Comparison.judge(m("bandwidth", 100), m("bandwidth", 80), 5);
        assertEquals(Comparison.Verdict.WORSE, row.verdict());
        assertTrue(row.why().contains("not tested"), row.why());
        assertEquals(0.8, row.ratioLow(), 1e-12);
    }

    @Test
    void differentMachinesMatchByLinkClass() throws Exception {
        Comparison.Result r = Comparison.compare(ResultReader.read(Fixtures.X1), ResultReader.read(Fixtures.X8), 5);
        assertEquals(Comparison.Matching.ACROSS_MACHINES, r.matching());
        assertTrue(r.rows().stream().allMatch(row -> row.candidate().link().equals("X")), "only the X class is shared");
        String md = ComparisonReport.markdown(r);
        assertTrue(md.contains("across machines, by (path, direction, size, link class)"), md);
        // The matrix's eight device-local pairs are pooled on the x8 side.
        assertTrue(r.rows().stream().anyMatch(row -> row.candidate().key().pair().equals("8 pairs")));
    }

    @Test
    void nvbandwidthBaselineIsMatchedByPairOnTheSameGpus() throws Exception {
        Comparison.Result r = Comparison.compare(Compare.read(Fixtures.NVBANDWIDTH, 256 * Sizes.MIB),
                ResultReader.read(Fixtures.X8), 5);
        assertEquals(Comparison.Matching.SAME_MACHINE, r.matching());
        assertTrue(r.note().contains("(it lists the same GPUs)"), r.note());
        // At 256 MiB: 54 measured off-diagonal pairs, 8 device-local copies, and the bidirectional copy of 0-1
        // (each direction under load, and the sum) that the sweep measured.
        assertEquals(65, r.rows().size());
        assertEquals(0, r.count(Comparison.Verdict.WORSE));
    }

    @Test
    void nothingInCommonIsBadInput() throws Exception {
        BadInputException e = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(Fixtures.NCCL_TESTS, 0), ResultReader.read(Fixtures.X1), 5));
        assertTrue(e.getMessage().contains("have no measurement in common"), e.getMessage());
    }

    @Test
    void compareWritesMarkdownAndOverlayCharts() throws Exception {
        Path lower = Fixtures.copy(Fixtures.X8, work.resolve("lower"));
        Fixtures.scaleBandwidth(lower, 0.9);
        Compare.Outcome o = Compare.run(Fixtures.X8, List.of(lower), 5, 0, work.resolve("out"));
        assertTrue(o.worse());
        assertTrue(Files.exists(o.outDir().resolve(Compare.MARKDOWN)));
        assertTrue(Files.exists(o.outDir().resolve("compare-peer-0-1-one-way.svg")));
        assertTrue(Files.readString(o.outDir().resolve(Compare.MARKDOWN)).contains("](compare-peer-0-1-one-way.svg)"));
        assertFalse(Compare.run(Fixtures.X8, List.of(Fixtures.X8), 5, 0, work.resolve("same")).worse());
    }
}
