package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.stats.RoundTest;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows measured in rounds are judged by the spread of their rounds, not by a table learned elsewhere. */
class RoundComparisonTest {
    private static final Measurement.Key BW = new Measurement.Key("bandwidth", "host", "PINNED LOCAL", "H2D", "GPU0",
            64L << 20);
    private static final Measurement.Key LAT = new Measurement.Key("latency", "peer", "CE_P2P_READ", "one-way", "0-0",
            4096);

    /** A measurement of rounds, each round a few batches around its figure. */
    private static Measurement rounds(Measurement.Key key, double... figures) {
        List<Measurement> each = Arrays.stream(figures).mapToObj(f -> new Measurement(key, "m", "host", true, "sweep",
                "id", new double[] {f * 0.999, f, f * 1.001}, "test")).toList();
        return Measurement.ofRounds(each);
    }

    private static Comparison.Row judged(Measurement b, Measurement c, double thresholdPct) {
        Comparison.Row r = RoundRows.measure(b, c, RoundRows.roundFigures(b), RoundRows.roundFigures(c), 0, 1, 1);
        return Comparison.judge(r, r.p(), thresholdPct);
    }

    @Test
    void roundsKeepEachRoundApartAndPoolTheSamples() {
        Measurement m = rounds(BW, 50, 51, 52, 53);
        assertEquals(4, m.roundCount());
        assertEquals(12, m.samples().length);
        assertEquals(List.of(50.0, 51.0, 52.0, 53.0), Arrays.stream(RoundRows.roundFigures(m)).boxed().toList());
    }

    @Test
    void tightRoundsJudgeASmallChangeAndCatchTenPercent() {
        Measurement base = rounds(BW, 55.0, 55.2, 54.9, 55.1);
        Comparison.Row same = judged(base, rounds(BW, 55.1, 54.8, 55.0, 55.3), 5);
        assertEquals(Verdict.SAME, same.verdict(), same.why());
        Comparison.Row worse = judged(base, rounds(BW, 49.5, 49.7, 49.4, 49.6), 5);
        assertEquals(Verdict.WORSE, worse.verdict(), worse.why());
        assertTrue(worse.why().contains("Student t over rounds"), worse.why());
        Comparison.Row slower = judged(rounds(LAT, 9.7, 9.8, 9.7, 9.75), rounds(LAT, 10.8, 10.7, 10.75, 10.8), 5);
        assertEquals(Verdict.WORSE, slower.verdict(), slower.why());
    }

    @Test
    void widelySpreadRoundsCannotBeJudgedAtTheThresholdButStillSeeAHugeChange() {
        Measurement base = rounds(BW, 10, 14, 8, 12);
        Comparison.Row small = judged(base, rounds(BW, 11, 9, 13, 10), 5);
        assertEquals(Verdict.UNJUDGED, small.verdict(), small.why());
        Comparison.Row halved = judged(base, rounds(BW, 5, 6, 4.5, 5.5), 5);
        assertEquals(Verdict.WORSE, halved.verdict(), halved.why());
    }

    @Test
    void identicalRoundsDoNotMakeAnyChangeSignificant() {
        // Four equal p50s of a binned histogram: the spread's floor keeps a 5.5% change from being certain noise-free.
        Measurement base = rounds(LAT, 9.7, 9.7, 9.7, 9.7);
        RoundTest.Result t = RoundTest.of(RoundRows.roundFigures(base), new double[] {9.7, 9.7, 9.7, 9.7}, 0.95);
        assertEquals(RoundTest.MIN_SPREAD, t.spread(), 1e-12);
        assertEquals(1.0, t.p(), 1e-9);
    }

    @Test
    void theTestNeedsThreeDegreesOfFreedom() {
        assertTrue(!RoundTest.applies(new double[] {1, 2}, new double[] {3}));
        assertTrue(RoundTest.applies(new double[] {1}, new double[] {1, 2, 3, 4}));
        assertTrue(!RoundTest.applies(new double[] {1, 2}, new double[] {0, 3}), "a figure that is not positive");
    }

    @Test
    void theFloorWithMoreBaselineRunsShrinksOnlyTheBaselineTerms() {
        Measurement base = rounds(BW, 10, 14, 8, 12);
        Measurement cand = rounds(BW, 11, 9, 13, 10);
        double tau = 0.02;
        Comparison.Row r = RoundRows.measure(base, cand, RoundRows.roundFigures(base), RoundRows.roundFigures(cand),
                tau, 1, 1);
        RoundTest.Result t = RoundTest.of(RoundRows.roundFigures(base), RoundRows.roundFigures(cand), 0.95, tau, 1, 1);
        assertEquals(Math.exp(t.halfWidth()) - 1, r.floor().fraction(), 1e-12);
        // The same half-width from the formula at today's counts: 4 + 4 rounds, one run a side.
        assertEquals(t.halfWidth(), RoundTest.halfWidth(t.spread(), 4, 4, tau * tau * 2, 0.95), 1e-12);
        // Three baseline runs of 4 rounds: 12 baseline rounds, tau^2 (1/3 + 1/1), 14 degrees of freedom.
        double expected = Math.exp(RoundTest.halfWidth(t.spread(), 12, 4, tau * tau * (1.0 / 3 + 1), 0.95)) - 1;
        assertEquals(expected, r.floor().withMoreRuns(), 1e-12);
        assertTrue(r.floor().withMoreRuns() < r.floor().fraction());
        Comparison.Row judged = Comparison.judge(r, r.p(), 5);
        assertEquals(Verdict.UNJUDGED, judged.verdict(), judged.why());
        assertTrue(judged.why().contains("with 2 more baseline runs like these about"), judged.why());
    }

    @Test
    void aRoundAtASlowLevelIsSetAsideWhereTheRowAsksForIt() {
        double[] base = {55.1, 55.2, 55.0, 55.1, 55.2, 55.1, 55.0, 55.1};
        double[] cand = {55.1, 55.0, 55.2, 55.1, 33.5, 55.1, 55.2, 55.0}; // set T's host: one process drew the slow level
        RoundTest.Result plain = RoundTest.of(base, cand, 0.95, 0, false);
        RoundTest.Result aside = RoundTest.of(base, cand, 0.95, 0, true);
        assertTrue(Math.exp(plain.halfWidth()) - 1 > 0.05, "the mean moves 6%: " + plain);
        assertTrue(Math.exp(aside.halfWidth()) - 1 < 0.01, aside.toString());
        assertEquals(1, aside.ratio(), 0.002);
        // the level 10% lower in every round moves the median: nothing is set aside and the change is seen
        RoundTest.Result moved = RoundTest.of(base, Arrays.stream(base).map(v -> v * 0.9).toArray(), 0.95, 0, true);
        assertEquals(0.9, moved.ratio(), 1e-9);
        assertTrue(moved.p() < 1e-6, moved.toString());
    }

    @Test
    void slowRoundsAreSetAsideOnlyWhenAtMostAQuarterOfEightOrMore() {
        double[] two = logs(55, 55, 55, 55, 55, 55, 30, 40);
        assertEquals(6, RoundTest.kept(two, true).length, "2 of 8 more than 10% below the median");
        assertEquals(8, RoundTest.kept(two, false).length);
        double[] three = logs(55, 55, 55, 55, 55, 30, 40, 45);
        assertEquals(8, RoundTest.kept(three, true).length, "3 of 8: a level of the run, kept");
        assertEquals(4, RoundTest.kept(logs(55, 55, 55, 30), true).length, "four rounds: never");
        assertEquals(8, RoundTest.kept(logs(55, 54, 53, 52, 51, 50.5, 50, 55), true).length, "within 10%: kept");
    }

    private static double[] logs(double... v) {
        return Arrays.stream(v).map(Math::log).toArray();
    }

    @Test
    void rowsThroughPinnedHostMemorySetSlowRoundsAsideAndNoOthers() throws Exception {
        List<String> aside = io.p2pbench.report.read.ResultReader.read(io.p2pbench.report.Fixtures.X1).measurements()
                .stream().map(Measurement::key).filter(RunDrift::setsAside).map(k -> k.kind() + " " + k.path())
                .distinct().sorted().toList();
        assertEquals(List.of("host PINNED LOCAL", "peer HOST_STAGED"), aside);
    }
}

