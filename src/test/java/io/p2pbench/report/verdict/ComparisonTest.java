package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Compare;
import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.render.ComparisonReport;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonTest {
    @TempDir
    Path work;

    private static final Measurement.Key ONE_WAY_1M =
            new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way", "0-1", 1 << 20);

    /** A bidirectional copy's two lanes and sum, and a collective's bus and alg figures. */
    private static final Measurement.Key FWD = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ",
            ResultReader.UNDER_REVERSE, "0-1", 1 << 20);
    private static final Measurement.Key REV = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ",
            ResultReader.UNDER_REVERSE, "1-0", 1 << 20);
    private static final Measurement.Key SUM = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ",
            ResultReader.BOTH_WAYS, "0-1", 1 << 20);
    private static final Measurement.Key BUS = new Measurement.Key("bandwidth", "nccl", "ALL_REDUCE FLOAT32", "bus",
            "0,1", 1 << 20);
    private static final Measurement.Key ALG = new Measurement.Key("bandwidth", "nccl", "ALL_REDUCE FLOAT32", "alg",
            "0,1", 1 << 20);

    private static Measurement m(Measurement.Key key, double... samples) {
        return new Measurement(key, "m", "NV18", false, "sweep", "id", samples, "test");
    }

    private static NoiseFloors.Floor floor(double fraction) {
        return new NoiseFloors.Floor(fraction, "test");
    }

    /** One row judged alone (its own BH family of one). */
    private static Comparison.Row judge(Measurement.Key key, double[] baseRuns, double[] candRuns, double floor,
                                        double thresholdPct) {
        Comparison.Row r = Comparison.measure(m(key, baseRuns), m(key, candRuns), baseRuns, candRuns, floor(floor));
        return Comparison.judge(r, r.p(), thresholdPct);
    }

    @Test
    void resultComparedWithItselfIsSameEverywhere() throws Exception {
        ResultData x8 = ResultReader.read(Fixtures.X8);
        Comparison.Result r = Comparison.compare(x8, x8, 5);
        assertEquals(Comparison.Matching.SAME_MACHINE, r.matching());
        assertEquals(x8.measurements().size(), r.rows().size());
        assertTrue(r.rows().stream().allMatch(row -> row.ratio() == 1.0 && (row.verdict() == Verdict.SAME
                || row.verdict() == Verdict.UNJUDGED)));
        assertEquals(0, r.count(Verdict.WORSE) + r.count(Verdict.BETTER));
        assertTrue(r.groups().size() < r.rows().size(), "lanes and alg/bus are grouped");
    }

    @Test
    void aChangeWithinTheNoiseFloorCannotBeJudgedAndBeyondItIsWorse() {
        double[] one = {100};
        Comparison.Row inFloor = judge(ONE_WAY_1M, one, new double[] {90}, 0.12, 5);
        assertEquals(Verdict.UNJUDGED, inFloor.verdict());
        assertTrue(inFloor.why().startsWith("cannot judge at ±5%: within the noise floor 12.0%, which is wider (the "
                + "figures are 11.1% apart)"), inFloor.why());
        Comparison.Row beyond = judge(ONE_WAY_1M, one, new double[] {90}, 0.05, 5);
        assertEquals(Verdict.WORSE, beyond.verdict());
        assertTrue(beyond.why().contains("no test: n too small (1 vs 1 runs, smallest attainable p = 1)"), beyond.why());
        Comparison.Row inThreshold = judge(ONE_WAY_1M, one, new double[] {97}, 0.0, 5);
        assertEquals(Verdict.SAME, inThreshold.verdict());
        assertTrue(inThreshold.why().startsWith("within ±5%"), inThreshold.why());
        Comparison.Row narrowFloor = judge(ONE_WAY_1M, one, new double[] {97}, 0.04, 5);
        assertEquals(Verdict.SAME, narrowFloor.verdict(), "a floor within the threshold can vouch for same");
    }

    @Test
    void directionDecidesBetterOrWorse() {
        Measurement.Key latency = new Measurement.Key("latency", "peer", "CE_P2P_READ", "one-way", "0-1", 4);
        assertEquals(Verdict.WORSE, judge(latency, new double[] {10}, new double[] {12.5}, 0.1, 5).verdict());
        assertEquals(Verdict.BETTER, judge(latency, new double[] {10}, new double[] {7.5}, 0.1, 5).verdict());
        assertEquals(Verdict.BETTER, judge(ONE_WAY_1M, new double[] {100}, new double[] {120}, 0.1, 5)
                .verdict());
    }

    @Test
    void theExactTestGatesOnlyWhereItCanReachAlpha() {
        // 4 vs 4 runs, fully separated: exact p = 2 / C(8, 4) = 2 / 70 = 0.0286 < 0.05.
        Comparison.Row separated = judge(ONE_WAY_1M, new double[] {100, 101, 99, 100.5},
                new double[] {90, 91, 89, 90.5}, 0.02, 5);
        assertEquals(2.0 / 70, separated.p(), 1e-12);
        assertEquals(Verdict.WORSE, separated.verdict(), separated.why());
        // Overlapping runs: the medians differ by 10%, beyond the threshold and the floor, but the test is not
        // significant: not worse, and not the same either (it moved 10%): it cannot be judged.
        Comparison.Row overlapping = judge(ONE_WAY_1M, new double[] {100, 80, 120, 100},
                new double[] {90, 115, 70, 90}, 0.02, 5);
        assertEquals(Verdict.UNJUDGED, overlapping.verdict());
        assertEquals(Comparison.Unjudged.NOT_SIGNIFICANT, overlapping.cause());
        assertTrue(overlapping.why().startsWith("cannot judge at ±5%: beyond it and the noise floor 2.0% (the figures "
                + "are 11.1% apart) but not significant across the rows compared (exact Mann-Whitney p = "),
                overlapping.why());
        // 3 vs 3: the smallest attainable p is 0.1: no test, the floor and threshold decide, and it says so.
        Comparison.Row small = judge(ONE_WAY_1M, new double[] {100, 101, 99}, new double[] {90, 91, 89}, 0.02, 5);
        assertTrue(Double.isNaN(small.p()));
        assertEquals(Verdict.WORSE, small.verdict());
        assertTrue(small.why().contains("no test: n too small (3 vs 3 runs, smallest attainable p = 0.1)"), small.why());
    }

    @Test
    void tiedRunFiguresAreTestedWithTheTiesAndTheirIntervalSaysAtLeast() {
        // Binned latency: a baseline run and a candidate run read the same bin (11.5 µs). With that tie 4 vs 4 runs
        // cannot reach p < 0.05 (at best 4/70), so there is no test; counting the tie as half gave p = 2/70.
        Measurement.Key latency = new Measurement.Key("latency", "peer", "CE_P2P_READ", "one-way", "0-1", 4);
        double[] base = {10, 10.5, 11, 11.5};
        double[] cand = {11.5, 12, 12.5, 13};
        Comparison.Row r = judge(latency, base, cand, 0.02, 5);
        assertTrue(Double.isNaN(r.p()), "p = " + r.p());
        assertEquals(4.0 / 70, r.smallestP(), 1e-12);
        assertTrue(r.why().contains("no test: n too small (4 vs 4 runs, smallest attainable p = 0.0571)"), r.why());
        assertTrue(r.interval().atLeast(), "tied figures: the coverage is a lower bound");
        assertEquals(1 - 2.0 / 70, r.interval().coverage(), 1e-12);
        ResultData side = new ResultData(work, "side", "m", "test", null, null, List.of(), List.of(), Map.of(), null);
        Comparison.Result result = new Comparison.Result(List.of(side), List.of(side), Comparison.Matching.SAME_MACHINE,
                "", 5, "test", Comparison.group(List.of(r)), 0, 0);
        String md = ComparisonReport.markdown(result);
        assertTrue(md.contains(String.format(java.util.Locale.ROOT, "%.3f [%.3f, %.3f], ≥ 97.1%%", r.ratio(),
                r.interval().low(), r.interval().high())), md);
    }

    @Test
    void intervalsStateTheirExactCoverage() {
        Comparison.Row r = judge(ONE_WAY_1M, new double[] {100, 101, 99}, new double[] {90, 91, 89}, 0.02, 5);
        // 3 vs 3: the extreme pairwise differences cover with 1 - 2/20 = 90%, which is said, not called 95%.
        assertEquals(0.9, r.interval().coverage(), 1e-12);
        assertEquals(89.0 / 101, r.interval().low(), 1e-12);
        assertEquals(91.0 / 99, r.interval().high(), 1e-12);
        assertFalse(judge(ONE_WAY_1M, new double[] {100}, new double[] {90}, 0, 5).interval().exists(),
                "no interval with one run each side");
    }

    @Test
    void lanesOfABidirectionalCopyAreOneMeasurement() {
        List<Comparison.Row> rows = List.of(
                Comparison.judge(Comparison.measure(m(FWD, 100), m(FWD, 80), new double[] {100}, new double[] {80},
                        floor(0.01)), Double.NaN, 5),
                Comparison.judge(Comparison.measure(m(REV, 100), m(REV, 100), new double[] {100}, new double[] {100},
                        floor(0.01)), Double.NaN, 5),
                Comparison.judge(Comparison.measure(m(SUM, 200), m(SUM, 180), new double[] {200}, new double[] {180},
                        floor(0.01)), Double.NaN, 5),
                Comparison.judge(Comparison.measure(m(BUS, 50), m(BUS, 40), new double[] {50}, new double[] {40},
                        floor(0.01)), Double.NaN, 5),
                Comparison.judge(Comparison.measure(m(ALG, 50), m(ALG, 40), new double[] {50}, new double[] {40},
                        floor(0.01)), Double.NaN, 5));
        List<Comparison.Group> groups = Comparison.group(rows);
        assertEquals(2, groups.size(), "one bidirectional copy, one collective");
        assertTrue(groups.stream().allMatch(g -> g.verdict() == Verdict.WORSE));
        Comparison.Group copy = groups.stream().filter(g -> g.headline().candidate().key().kind().equals("peer"))
                .findFirst().orElseThrow();
        assertEquals(ResultReader.BOTH_WAYS, copy.headline().candidate().key().direction(), "the sum decides");
        assertTrue(copy.rows().subList(1, 3).stream().allMatch(r -> r.verdict() == Verdict.UNJUDGED
                && r.why().equals(Comparison.LANE_NOT_JUDGED)), "the lanes are shown, not judged");
        assertEquals(3, groups.stream().filter(g -> g.headline().candidate().key().kind().equals("peer")).findFirst()
                .orElseThrow().rows().size());
        assertEquals(0.8, groups.get(0).headline().ratio(), 1e-12, "the worst lane leads");
    }

    /**
     * The Benjamini-Hochberg family holds one hypothesis per measurement: a bidirectional copy's lanes stand on its sum,
     * a collective's alg and bus are one; before, every row was a hypothesis, and the quick preset's 72 measurements
     * made a family of about 100 (with one lone change, q = p x family: a tenth of the changes at its edge were lost).
     */
    @Test
    void eachMeasurementIsOneHypothesisOfTheFamily() {
        double[] base = {100, 101, 102, 103};
        double[] lower = {80, 81, 82, 83};
        List<Comparison.Row> rows = List.of(
                Comparison.measure(m(FWD, base), m(FWD, lower), base, lower, floor(0.01)),
                Comparison.measure(m(REV, base), m(REV, base), base, base, floor(0.01)),
                Comparison.measure(m(SUM, base), m(SUM, lower), base, lower, floor(0.01)),
                Comparison.measure(m(BUS, base), m(BUS, lower), base, lower, floor(0.01)),
                Comparison.measure(m(ALG, base), m(ALG, lower), base, lower, floor(0.01)),
                Comparison.measure(m(ONE_WAY_1M, base), m(ONE_WAY_1M, lower), base, lower, floor(0.01)));
        assertTrue(rows.stream().allMatch(r -> r.p() > 0 && r.p() <= 1), "every row has a p");
        int[] h = Comparison.hypotheses(rows);
        assertArrayEquals(new int[] {2, 2, 2, 3, 3, 5}, h, "lanes -> their sum, alg -> bus (the first of equal p)");
        assertEquals(3, java.util.Arrays.stream(h).distinct().count(), "three measurements, three hypotheses");
    }

    @Test
    void severalBaselineRunsUseTheirOwnSpread() throws Exception {
        ResultData x1 = ResultReader.read(Fixtures.X1);
        Path a = Fixtures.copy(Fixtures.X1, work.resolve("a"));
        Fixtures.scaleBandwidth(a, 1.2);
        // The baseline's own runs differ by 20%, so a candidate 14% below their median is within its noise.
        Path lower = Fixtures.copy(Fixtures.X1, work.resolve("lower"));
        Fixtures.scaleBandwidth(lower, 0.95);
        NoiseFloors none = new NoiseFloors("empty", "elsewhere", Map.of());
        Comparison.Result r = Comparison.compare(List.of(x1, ResultReader.read(a)), List.of(ResultReader.read(lower)),
                2, none);
        assertTrue(r.noise().endsWith("pooled with the baseline's own 2 runs"), r.noise());
        assertEquals(0, r.count(Verdict.WORSE), ComparisonReport.markdown(r));
        // One baseline run and an empty table: no floor, the threshold decides.
        Comparison.Result single = Comparison.compare(List.of(x1), List.of(ResultReader.read(lower)), 2, none);
        assertTrue(single.count(Verdict.WORSE) > 0);
    }

    @Test
    void moreBaselineRunsNeverWidenTheFloorsOfRerunsThatAgree() throws Exception {
        // Two baseline runs that agree add evidence of no change: every floor is at most the table's.
        ResultData x1 = ResultReader.read(Fixtures.X1);
        Path again = Fixtures.copy(Fixtures.X1, work.resolve("again"));
        Path lower = Fixtures.copy(Fixtures.X1, work.resolve("lower"));
        Fixtures.scaleBandwidth(lower, 0.93);
        NoiseFloors table = NoiseFloors.defaults();
        Comparison.Result one = Comparison.compare(List.of(x1), List.of(ResultReader.read(lower)), 5, table);
        Comparison.Result two = Comparison.compare(List.of(x1, ResultReader.read(again)),
                List.of(ResultReader.read(lower)), 5, table);
        Map<String, Double> floorsOfOne = new java.util.HashMap<>();
        one.rows().forEach(r -> floorsOfOne.put(r.candidate().key().toString(), r.floor().fraction()));
        for (Comparison.Row r : two.rows()) {
            assertTrue(r.floor().fraction() <= floorsOfOne.get(r.candidate().key().toString()) + 1e-12,
                    r.candidate().key() + ": " + r.floor().fraction() + " > " + floorsOfOne.get(r.candidate().key().toString()));
        }
        assertTrue(one.count(Verdict.WORSE) > 0);
        assertTrue(two.count(Verdict.WORSE) >= one.count(Verdict.WORSE),
                "two agreeing baseline runs catch at least what one does");
    }

    @Test
    void poolingAddsTheBaselinesEvidenceToTheTables() {
        NoiseFloors table = new NoiseFloors("t", "m", Map.of("c", new NoiseFloors.ClassNoise(1e-4, 100, 10, 0.02)));
        NoiseFloors own = new NoiseFloors("o", "m", Map.of("c", new NoiseFloors.ClassNoise(0.0, 20, 1, 0.0)));
        NoiseFloors.ClassNoise pooled = table.pooledWith(own, "p").classes().get("c");
        assertEquals(new NoiseFloors.ClassNoise(1e-4 * 10 / 11, 120, 11, 0.02), pooled);
        assertTrue(pooled.floor() < table.classes().get("c").floor());
        // Alone, two baseline runs (one degree of freedom) bound s at 16 times its estimate: the old, blinder rule.
        NoiseFloors.ClassNoise onePair = new NoiseFloors.ClassNoise(0.0001, 20, 1, 0.01);
        assertTrue(onePair.floor() > 10 * NoiseFloors.floor(onePair.spread(), 1000));
    }

    @Test
    void aFloorWiderThanTheThresholdCannotJudgeSmallChanges() {
        Comparison.Row wide = judge(ONE_WAY_1M, new double[] {100}, new double[] {103}, 0.30, 5);
        assertEquals(Verdict.UNJUDGED, wide.verdict());
        assertTrue(wide.why().startsWith("cannot judge at ±5%: within the noise floor 30.0%"), wide.why());
        Comparison.Row big = judge(ONE_WAY_1M, new double[] {100}, new double[] {60}, 0.30, 5);
        assertEquals(Verdict.WORSE, big.verdict(), "beyond a wide floor is still worse");
        Comparison.Row none = judge(ONE_WAY_1M, new double[] {0}, new double[] {0}, 0.01, 5);
        assertEquals(Verdict.UNJUDGED, none.verdict());
        assertEquals("no ratio (a figure is not positive)", none.why());
    }

    @Test
    void theVerdictLineCountsUnjudgedMeasurementsApart() throws Exception {
        ResultData x1 = ResultReader.read(Fixtures.X1);
        Comparison.Result r = Comparison.compare(x1, x1, 5);
        long unjudged = r.count(Verdict.UNJUDGED);
        assertTrue(unjudged > 0, "the default table has floors wider than 5%");
        String line = ComparisonReport.summary(r, 20).get(0);
        assertTrue(line.contains(r.count(Verdict.SAME) + " same, " + unjudged + " cannot be judged here ("
                + r.widerFloors() + ": noise floor wider than ±5%; " + (unjudged - r.widerFloors()) + ": no ratio) of "
                + r.groups().size() + " measurements"), line);
        assertEquals(r.groups().size(), r.count(Verdict.SAME) + unjudged);
    }

    @Test
    void aChangeBeyondTheFloorThatIsNotSignificantIsCountedApartNotAsSame() throws Exception {
        Comparison.Row notSignificant = judge(ONE_WAY_1M, new double[] {100, 80, 120, 100},
                new double[] {90, 115, 70, 90}, 0.02, 5);
        Measurement.Key latency = new Measurement.Key("latency", "peer", "CE_P2P_READ", "one-way", "0-1", 4);
        Comparison.Row wide = judge(latency, new double[] {10}, new double[] {10.3}, 0.30, 5);
        ResultData x1 = ResultReader.read(Fixtures.X1);
        Comparison.Result r = new Comparison.Result(List.of(x1), List.of(x1), Comparison.Matching.SAME_MACHINE, "", 5,
                "test", Comparison.group(List.of(notSignificant, wide)), 0, 0);
        assertEquals(0, r.count(Verdict.SAME), "a row that moved 10% is not the same");
        assertEquals(1, r.widerFloors());
        assertEquals(1, r.unjudged(Comparison.Unjudged.NOT_SIGNIFICANT));
        String line = ComparisonReport.summary(r, 20).get(0);
        assertTrue(line.contains("0 same, 2 cannot be judged here (1: noise floor wider than ±5%; 1: beyond ±5% and "
                + "the floor, not significant across the rows) of 2 measurements"), line);
    }

    @Test
    void runsOfDifferentMachinesOnOneSideAreBadInput() throws Exception {
        BadInputException e = assertThrows(BadInputException.class, () -> Comparison.compare(
                List.of(ResultReader.read(Fixtures.X1), ResultReader.read(Fixtures.X8)),
                List.of(ResultReader.read(Fixtures.X8)), 5, NoiseFloors.defaults()));
        assertTrue(e.getMessage().contains("the baseline runs come from different machines"), e.getMessage());
    }

    @Test
    void differentMachinesMatchByLinkClass() throws Exception {
        Comparison.Result r = Comparison.compare(ResultReader.read(Fixtures.X1), ResultReader.read(Fixtures.X8), 5);
        assertEquals(Comparison.Matching.ACROSS_MACHINES, r.matching());
        assertTrue(r.rows().stream().allMatch(row -> row.candidate().link().equals("X")), "only the X class is shared");
        String md = ComparisonReport.markdown(r);
        assertTrue(md.contains("Matched by (path, direction, size, link class); the pairs of one link class are pooled."),
                md);
        assertTrue(r.rows().stream().anyMatch(row -> row.candidate().key().pair().equals("8 pairs")));
        // Another machine: ratios side by side, no verdict and no other machine's noise floor.
        assertTrue(r.rows().stream().allMatch(row -> row.verdict() == Verdict.UNJUDGED
                && Double.isNaN(row.floor().fraction())), md);
        assertEquals(0, r.widerFloors());
        assertTrue(r.noise().startsWith("none: different machines"), r.noise());
    }

    @Test
    void nvbandwidthBaselineIsMatchedByPairOnTheSameGpus() throws Exception {
        Comparison.Result r = Comparison.compare(Compare.read(Fixtures.NVBANDWIDTH, 256 * Sizes.MIB),
                ResultReader.read(Fixtures.X8), 5);
        assertEquals(Comparison.Matching.SAME_MACHINE, r.matching());
        assertTrue(r.note().contains("(it lists the same GPUs)"), r.note());
        assertEquals(65, r.rows().size());
        assertEquals(0, r.count(Verdict.WORSE));
    }

    @Test
    void nvbandwidthAtTheWrongAssumedSizeSaysWhichSizeAndTheOption() throws Exception {
        BadInputException e = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(Fixtures.NVBANDWIDTH, 512 * Sizes.MIB), ResultReader.read(Fixtures.X8), 5));
        assertTrue(e.getMessage().contains("512 MiB was assumed (pass nvbandwidth's -b as --nvbandwidth-size)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("measured copies at "), e.getMessage());
    }

    @Test
    void nothingInCommonIsBadInput() throws Exception {
        BadInputException e = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(Fixtures.NCCL_TESTS, 0), ResultReader.read(Fixtures.X1), 5));
        assertTrue(e.getMessage().contains("measured the same path, direction and size only on different GPUs"),
                e.getMessage());
        BadInputException none = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(Fixtures.NCCL_TESTS, 0), Compare.read(Fixtures.NVBANDWIDTH, 0), 5));
        assertTrue(none.getMessage().startsWith("synthetic-h200x8-all_reduce_perf.json and "
                + "synthetic-h200x8-nvbandwidth-v0.8.json have no measurement in common"), none.getMessage());
    }

    /**
     * Inputs that measured the same collective on other GPUs say so and name each side's GPUs, the single-GPU
     * label included, instead of "no measurement in common".
     */
    @Test
    void inputsThatDifferOnlyInTheirGpusSaySo() throws Exception {
        BadInputException e = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(Fixtures.NCCL_TESTS_TWO_RANKS_ONE_GPU, 0), ResultReader.read(Fixtures.X1), 5));
        assertEquals("synthetic-h200x1-all_reduce_perf_mpi-2ranks-1gpu-tag-output.txt and "
                + "h200x1-single-r580/synthetic-h200x1 measured the same path, direction and size only on different "
                + "GPUs (synthetic-h200x1-all_reduce_perf_mpi-2ranks-1gpu-tag-output.txt on 0,0 (group of 2), "
                + Measurement.SINGLE_GPU + "; h200x1-single-r580/synthetic-h200x1 on 0 (group of 1), "
                + Measurement.SINGLE_GPU + "); a figure is compared only with one of the same GPUs, so nothing was "
                + "compared", e.getMessage());
    }

    @Test
    void compareWritesMarkdownChartsAndAShortSummary() throws Exception {
        Path lower = Fixtures.copy(Fixtures.X8, work.resolve("lower"));
        Fixtures.scaleBandwidth(lower, 0.5);
        Compare.Outcome o = Compare.run(Fixtures.X8, List.of(lower), 5, 0, work.resolve("out"));
        assertTrue(o.worse());
        assertTrue(Files.exists(o.outDir().resolve(Compare.MARKDOWN)));
        assertTrue(o.summary().get(0).startsWith("WORSE: "), o.summary().get(0));
        // The verdict line, what the gate does not cover here, the rows named, "... and N more", "Full table".
        assertTrue(o.summary().size() <= Compare.SUMMARY_ROWS + 4, String.join("\n", o.summary()));
        assertTrue(o.summary().get(o.summary().size() - 3).contains("more in compare.md"));
        assertTrue(o.summary().get(o.summary().size() - 2).startsWith("  not gated at ±5% (floor wider): "),
                String.join("\n", o.summary()));
        assertTrue(o.summary().get(o.summary().size() - 1).startsWith("Full table: "));
        assertTrue(Files.exists(o.outDir().resolve("compare-peer-0-1-one-way.svg")));
        assertTrue(Files.readString(o.outDir().resolve(Compare.MARKDOWN)).contains("](compare-peer-0-1-one-way.svg)"));
        Compare.Outcome same = Compare.run(Fixtures.X8, List.of(Fixtures.X8), 5, 0, work.resolve("same"));
        assertFalse(same.worse());
        assertTrue(same.summary().get(0).startsWith("SAME: "), same.summary().get(0));
        assertEquals(3, same.summary().size(), String.join("\n", same.summary()));
        assertTrue(same.summary().get(1).startsWith("  not gated at ±5% (floor wider): "), same.summary().get(1));
    }
}
