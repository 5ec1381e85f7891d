package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.render.ComparisonReport;
import io.p2pbench.report.stats.RoundTest;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run whose rounds of a row through pinned host memory disagree (most of them far below the others) is a machine
 * disturbed during the run, not a build: on set V's H100 host (GPU-d830a94e, 2026-12-06 20:54Z) the eighth of eight A/A
 * runs drew its pinned H2D+D2H copy of 64 MiB at 69.7-86.5 GB/s in 5 of 8 rounds and at 101-102 in the other 3, every
 * round of the three runs before it at 101-103; with all rounds kept, compare read that run as 18% worse and exited 1.
 */
class DisturbedRoundsTest {
    private static final Measurement.Key PINNED = new Measurement.Key("bandwidth", "host", "PINNED LOCAL",
            "H2D+D2H (sum)", "GPU0", 64L << 20);
    private static final Measurement.Key H2D = new Measurement.Key("bandwidth", "host", "PINNED LOCAL", "H2D", "GPU0",
            64L << 20);
    private static final Measurement.Key DEVICE = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way",
            "0-0", 64L << 20);

    /** The H100 node's fingerprint: its committed drift table is part of the model, as in a real comparison. */
    private static final String MACHINE = "h100-80gb-hbm3x1-single-r580";

    /** The rounds of set V's eighth run (as measured, round 1 to 8) and of the three runs before it. */
    private static final double[] V8 = {101.8, 101.9, 86.5, 69.7, 79.3, 101.2, 85.7, 82.3};
    private static final double[] V5 = {102.6, 103.1, 103.1, 102.4, 102.2, 102.6, 103.2, 102.3};
    private static final double[] V6 = {102.5, 103.0, 102.5, 102.5, 102.8, 102.8, 102.7, 102.6};
    private static final double[] V7 = {102.8, 103.0, 102.7, 103.1, 102.4, 102.5, 102.5, 90.3};

    /** The pinned H2D copy of 64 MiB, one way (the table judges it; the H2D+D2H sum does not): set V's runs 5-7. */
    private static final double[] H5 = {55.4, 55.3, 55.3, 55.3, 55.2, 55.3, 55.3, 55.3};
    private static final double[] H6 = {55.4, 55.4, 55.3, 55.4, 55.4, 55.4, 55.4, 55.4};
    private static final double[] H7 = {53.1, 55.3, 55.4, 55.1, 55.2, 55.2, 55.2, 54.8};

    private static Topology host() {
        GpuInfo gpu = new GpuInfo(0, "NVIDIA H100 80GB HBM3", "GPU-d830a94e", "0000:00:06.0", "9.0", 85_017_493_504L, 132,
                3, 5, 5, 16, 16, -1, "0-15", List.of(), "");
        return new Topology("0.1.0", "2026-12-06T00:00:00Z", null, List.of(gpu), List.of(), "h100", List.of());
    }

    private static ResultData run(String name, Measurement.Key key, double... rounds) {
        Measurement m = Measurement.ofRounds(Arrays.stream(rounds).mapToObj(f -> new Measurement(key, MACHINE, "X",
                true, "sweep", "id", new double[] {f * 0.999, f, f * 1.001}, "test")).toList());
        return new ResultData(Path.of(name), name, MACHINE, "test", host(), null, List.of(m), List.of(), Map.of(), null);
    }

    private static double[] logs(double... v) {
        return Arrays.stream(v).map(Math::log).toArray();
    }

    private static double[] scaled(double[] v, double by) {
        return Arrays.stream(v).map(x -> x * by).toArray();
    }

    @Test
    void moreThanAQuarterOfEightRoundsTenPercentBelowTheUpperQuartileIsDisturbed() {
        assertTrue(RoundTest.disturbed(logs(V8), true), "5 of 8 below 91");
        assertEquals(5, RoundTest.belowUpperQuartile(logs(V8)));
        assertFalse(RoundTest.disturbed(logs(V8), false), "only rows whose slow rounds are set aside");
        assertFalse(RoundTest.disturbed(logs(V7), true), "one slow round of 8 is set aside, not a disturbance");
        assertFalse(RoundTest.disturbed(logs(55, 55, 55, 55, 55, 55, 30, 40), true), "two of 8: set aside");
        assertTrue(RoundTest.disturbed(logs(55, 55, 55, 55, 55, 30, 40, 45), true), "three of 8");
        assertFalse(RoundTest.disturbed(logs(55, 55, 55, 30), true), "four rounds: too few to tell");
        assertFalse(RoundTest.disturbed(logs(scaled(V5, 0.9)), true), "a level moved in every round is judged");
        assertFalse(RoundTest.disturbed(logs(101, 96.5, 100.2, 89.5, 98.3, 102, 88, 94.2), true),
                "set T's spread levels: 2 of 8 below 90.4");
    }

    @Test
    void anAaComparisonWithADisturbedRunIsNotJudgedAndExitsZero() throws Exception {
        List<ResultData> base = List.of(run("v5", PINNED, V5), run("v6", PINNED, V6), run("v7", PINNED, V7));
        Comparison.Result r = Comparison.compare(base, List.of(run("v8", PINNED, V8)), 5, NoiseFloors.defaults());
        Comparison.Row row = r.groups().get(0).headline();
        assertEquals(Verdict.UNJUDGED, row.verdict(), row.why());
        assertEquals(Comparison.Unjudged.DISTURBED, row.cause());
        assertTrue(row.why().startsWith("rounds disagree (candidate 5 of 8 rounds more than 10% below their upper "
                + "quartile 101): the machine was disturbed"), row.why());
        assertTrue(Double.isNaN(row.q()), "out of the Benjamini-Hochberg family");
        assertEquals(0, r.count(Verdict.WORSE));
        assertTrue(ComparisonReport.summary(r, 20).get(0).contains("1 cannot be judged here (rounds disagree, the "
                + "machine was disturbed (rerun))"), ComparisonReport.summary(r, 20).get(0));
        // the disturbed run as the whole baseline: the same, from the other side
        Comparison.Row back = Comparison.compare(List.of(run("v8", PINNED, V8)), List.of(run("v5", PINNED, V5)), 5,
                NoiseFloors.defaults()).groups().get(0).headline();
        assertEquals(Comparison.Unjudged.DISTURBED, back.cause(), back.why());
        assertTrue(back.why().contains("baseline 5 of 8 rounds"), back.why());
    }

    @Test
    void theSameRunsWithEveryRoundTenPercentLowerAreWorse() throws Exception {
        double[] hit = {55.3, 55.4, 48.1, 47.2, 49.0, 55.1, 48.5, 47.9}; // disturbed as V8's H2D+D2H was
        List<ResultData> base = List.of(run("v5", H2D, H5), run("v6", H2D, H6), run("v7", H2D, H7));
        Comparison.Row row = Comparison.compare(base, List.of(run("v6x", H2D, scaled(H6, 0.9))), 5,
                NoiseFloors.defaults()).groups().get(0).headline();
        assertEquals(Verdict.WORSE, row.verdict(), row.why());
        Comparison.Row hitRow = Comparison.compare(base, List.of(run("hit", H2D, hit)), 5, NoiseFloors.defaults())
                .groups().get(0).headline();
        assertEquals(Comparison.Unjudged.DISTURBED, hitRow.cause(), hitRow.why());
        // a disturbed run among a baseline of three is set aside (the floor says so), and it teaches no drift
        List<ResultData> withHit = List.of(run("v5", H2D, H5), run("v7", H2D, H7), run("hit", H2D, hit));
        Comparison.Row pooled = Comparison.compare(withHit, List.of(run("v6x", H2D, scaled(H6, 0.9))), 5,
                NoiseFloors.defaults()).groups().get(0).headline();
        assertEquals(Verdict.WORSE, pooled.verdict(), pooled.why());
        assertEquals(16, pooled.baselineRuns().length, "two runs of 8 rounds");
        assertTrue(pooled.floor().source().endsWith("; set aside, rounds disagree: baseline 5 of 8 rounds more than 10% "
                + "below their upper quartile 55.1"), pooled.floor().source());
        assertEquals(RunDrift.learn("two", List.of(run("v5", H2D, H5), run("v7", H2D, H7))).tau(H2D),
                RunDrift.learn("three", withHit).tau(H2D), 1e-12, "the disturbed run is not a run of the drift");
    }

    @Test
    void rowsThatDoNotSetSlowRoundsAsideAreJudgedAsBefore() throws Exception {
        Comparison.Row device = Comparison.compare(List.of(run("v5", DEVICE, V5)), List.of(run("v8", DEVICE, V8)), 5,
                NoiseFloors.defaults()).groups().get(0).headline();
        assertTrue(device.cause() != Comparison.Unjudged.DISTURBED, "a device copy's rounds are not read so: " + device);
        Comparison.Row calm = Comparison.compare(List.of(run("v5", H2D, H5)), List.of(run("v6", H2D, H6)), 5,
                NoiseFloors.defaults()).groups().get(0).headline();
        assertEquals(Verdict.SAME, calm.verdict(), calm.why());
    }
}
