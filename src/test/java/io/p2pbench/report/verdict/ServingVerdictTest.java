package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.partition.Plan;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.render.ServingSection;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.serving.BatchPolicy;
import io.p2pbench.serving.LengthRange;
import io.p2pbench.serving.PointStats;
import io.p2pbench.serving.RequestRecord;
import io.p2pbench.serving.SearchPlan;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.Stability;
import io.p2pbench.serving.StepShape;
import io.p2pbench.serving.Target;
import io.p2pbench.serving.Workload;
import io.p2pbench.transfer.SkipCause;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The keep/reject logic of "Does splitting pay at a request rate?" on fixture sweeps. */
class ServingVerdictTest {
    private static final ServingSweep SWEEP = ServingFixtures.SWEEP;
    private static final PartitionVerdict.Machine MACHINE = new PartitionVerdict.Machine("h200x8 (8x NVIDIA H200)", 400,
            "0-1, 2-3 (NV18)");

    static ServingResults.Point point(double rate, double ttftMs, double tpotMs) {
        return ServingFixtures.point(rate, ttftMs, tpotMs);
    }

    static ServingResults.Run run(ServingSamples.Breakdown b, ServingResults.Point... points) {
        return ServingFixtures.run("h200x8/run", b, points);
    }

    static ServingResults.Sweep sweep(String plan, String transport, String group, boolean oneGpu, String skip,
                                      ServingResults.Run... runs) {
        return new ServingResults.Sweep("h200x8", "DENSE_8B", Plan.valueOf(plan), transport, group, oneGpu, SWEEP, List.of(runs), skip);
    }

    /** A sweep that did not run, for {@code cause}. */
    static ServingResults.Sweep skipped(String plan, String group, SkipCause cause, String reason) {
        return new ServingResults.Sweep("h200x8", "DENSE_8B", Plan.valueOf(plan), "P2P", group, false, SWEEP, List.of(),
                reason, cause);
    }

    private static final ServingResults.Sweep SINGLE = sweep("SINGLE", "P2P", "0", false, null,
            run(null, point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)));

    private static ServingVerdict.Row only(ServingResults.Sweep... sweeps) {
        List<ServingVerdict.Row> rows = ServingVerdict.judge(List.of(sweeps), MACHINE);
        assertEquals(1, rows.size());
        return rows.get(0);
    }

    @Test
    void keepsAPlanFasterAtTheSameRateAndWithAHigherKnee() {
        ServingVerdict.Row r = only(SINGLE, sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 300, 30), point(20, 400, 35), point(40, 800, 40), point(80, 4000, 200))));
        assertEquals(20, r.ratePerSecond(), 1e-9, "the highest common rate at which SINGLE met the target");
        assertEquals(Verdict.KEEP, r.verdict(), r.why());
        assertTrue(r.why().contains("at 20 req/s p99 TTFT -55.6%"), r.why());
        assertTrue(r.why().contains("knee 40 vs 20 req/s, +100% (floor 20%, documented; met at 40 where SINGLE broke "
                + "at 40 (p99 TTFT over 2s))"), r.why());
        assertTrue(r.why().contains("n too small: 1 run per side"), r.why());
    }

    @Test
    void rejectsAPlanWithinTheFloorAndOneThatIsWorseSomewhere() {
        ServingVerdict.Row same = only(SINGLE, sweep("PP", "P2P", "0,1", false, null,
                run(null, point(10, 520, 52), point(20, 950, 58), point(40, 3100, 95))));
        assertEquals(Verdict.REJECT, same.verdict(), same.why());
        assertTrue(same.why().contains("(floor 20%)"), same.why());
        assertTrue(same.why().contains("knee 20 vs 20 req/s, +0% (floor 20%, documented; within SINGLE's bracket, which "
                + "breaks at 40 (p99 TTFT over 2s))"), same.why());
        // TTFT much better, TPOT much worse at the same rate: not a gain
        ServingVerdict.Row mixed = only(SINGLE, sweep("PP", "HOST_STAGED", "0,1", false, null,
                run(null, point(10, 200, 80), point(20, 300, 90), point(40, 3000, 95))));
        assertEquals(Verdict.REJECT, mixed.verdict(), mixed.why());
    }

    @Test
    void theFloorsRiseToTheSpreadBetweenReruns() {
        ServingResults.Sweep single = sweep("SINGLE", "P2P", "0", false, null,
                run(null, point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)),
                run(null, point(10, 500, 50), point(20, 1500, 60), point(40, 3000, 90)));
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 450, 50), point(20, 800, 60), point(40, 3000, 90)),
                run(null, point(10, 450, 50), point(20, 800, 60), point(40, 3000, 90)));
        ServingVerdict.Row r = only(single, tp);
        // SINGLE's p99 TTFT at 20 req/s moved by 1500 / 900 - 1 = 67% between its runs: that is the floor now
        assertTrue(r.why().contains("(floor 67%)"), r.why());
        assertEquals(Verdict.REJECT, r.verdict(), r.why());
        assertTrue(!r.why().contains("n too small"), r.why());
    }

    @Test
    void oneFloorJudgesEveryP99EvenWhenALaterMetricWidensIt() {
        // SINGLE's p99 TPOT at 20 req/s moved by 58% between its runs, its TTFT not at all; a TTFT 33% lower is
        // inside that floor too: the floor is the widest spread of the three p99s, applied to each
        ServingResults.Sweep single = sweep("SINGLE", "P2P", "0", false, null,
                run(null, point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)),
                run(null, point(10, 500, 50), point(20, 900, 95), point(40, 3000, 90)));
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 500, 50), point(20, 600, 78), point(40, 3000, 90)),
                run(null, point(10, 500, 50), point(20, 600, 78), point(40, 3000, 90)));
        ServingVerdict.Row r = only(single, tp);
        assertTrue(r.why().contains("p99 TTFT -33.3%"), r.why());
        assertTrue(r.why().contains("(floor 58%)"), r.why());
        assertEquals(Verdict.REJECT, r.verdict(), r.why());
    }

    @Test
    void aP99TtftAsFarApartAsTwoRerunsOfOneH100HostIsNoGain() {
        // TP with P2P off, A/A on GPU-adeb0106 (17:20Z, 17:25Z): p99 TTFT 135.7 and 97.9 ms at 42.1 req/s; with one
        // 20% floor for the three p99s this verdict kept one run against the other
        ServingResults.Sweep single = sweep("SINGLE", "P2P", "0", false, null,
                run(null, point(10, 100, 50), point(20, 135.7, 60), point(40, 3000, 90)));
        ServingResults.Sweep rerun = sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 100, 50), point(20, 97.87, 60), point(40, 3000, 90)));
        ServingVerdict.Row r = only(single, rerun);
        assertEquals(Verdict.REJECT, r.verdict(), r.why());
        assertTrue(r.why().contains("(floor 50%), TPOT"), r.why());
        // a TTFT 60% lower is beyond it
        ServingVerdict.Row faster = only(single, sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 100, 50), point(20, 54, 60), point(40, 3000, 90))));
        assertEquals(Verdict.KEEP, faster.verdict(), faster.why());
    }

    /** {@code p} judged broken because its queue grows, for {@code why}. */
    private static ServingResults.Point broke(ServingResults.Point p, String why) {
        return new ServingResults.Point(p.ratePerSecond(), false, p.capped(), p.stats(), p.meanStepUs(), p.stability(), "broke: " + why, Set.of(Target.Breach.QUEUE_GROWS));
    }

    @Test
    void theBreakRatePrintedIsExplainedByTheRunThatBrokeThere() {
        // the first run breaks at 40 on TTFT, the second only at 80 because its queue grows: the text prints
        // SINGLE's highest break rate, 80, and must give the second run's reason, not the first's
        ServingResults.Sweep single = sweep("SINGLE", "P2P", "0", false, null,
                run(null, point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)),
                run(null, point(10, 500, 50), point(20, 900, 60), point(40, 1500, 70),
                        broke(point(80, 1800, 80), "the queue grows: offered 80 req/s, served 61 req/s")));
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)),
                run(null, point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)));
        ServingVerdict.Row r = only(single, tp);
        assertTrue(r.why().contains("within SINGLE's bracket, which breaks at 80 (the queue grows: offered 80 req/s, "
                + "served 61 req/s))"), r.why());
        assertTrue(!r.why().contains("p99 TTFT over 2s"), r.why());
    }

    @Test
    void figuresOfASweepAgainstItselfShowNoChangeAndThoseOfAFasterOneKeep() {
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,0", true, null,
                run(null, point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)));
        ServingVerdict.Figures same = ServingVerdict.figures(tp, tp);
        assertEquals(20, same.ratePerSecond(), 1e-9);
        assertEquals(List.of(0.0, 0.0, 0.0), same.latency().p99Changes());
        assertEquals(0.20, same.latency().floor(), 1e-12);
        assertEquals(20, same.capacity().knee(), 1e-9);
        assertTrue(!same.keep() && !same.worse(), same.why().toString());
        // every latency 30% lower at every rate: a keep by latency, and the other way round a "worse"
        ServingResults.Sweep faster = sweep("TP", "P2P", "0,0", true, null,
                run(null, point(10, 350, 35), point(20, 630, 42), point(40, 2100, 63)));
        ServingVerdict.Figures keep = ServingVerdict.figures(faster, tp);
        assertEquals(-0.30, keep.latency().p99Changes().get(0), 0.01);
        assertTrue(keep.latency().keep() && keep.keep() && !keep.worse(), keep.why().toString());
        ServingVerdict.Figures worse = ServingVerdict.figures(tp, faster);
        assertTrue(worse.worse() && !worse.keep(), worse.why().toString());
    }

    @Test
    void oneGpuCannotJudgeAndASingleThatDoesNotFitKeepsTheSplit() {
        ServingVerdict.Row oneGpu = only(SINGLE, sweep("TP", "P2P", "0,0", true, null,
                run(null, point(10, 300, 30), point(20, 400, 35), point(40, 800, 40))));
        assertEquals(Verdict.UNJUDGED, oneGpu.verdict());
        assertTrue(oneGpu.why().startsWith(PartitionVerdict.SINGLE_GPU), oneGpu.why());
        ServingVerdict.Row fits = only(skipped("SINGLE", "0", SkipCause.DOES_NOT_FIT,
                        "does not fit: DENSE_70B SINGLE over 1 GPU"),
                sweep("TP", "P2P", "0,1", false, null, run(null, point(10, 300, 30))));
        assertEquals(Verdict.KEEP, fits.verdict());
        assertTrue(fits.why().contains("splitting is needed for capacity"), fits.why());
        ServingVerdict.Row skipped = only(SINGLE, sweep("EP", "P2P", "0,1", false, "plan EP needs experts"));
        assertEquals(Verdict.NOT_MEASURED, skipped.verdict());
    }

    @Test
    void theSkipCauseDecidesNotTheWordsOfItsReason() {
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,1", false, null, run(null, point(10, 300, 30)));
        ServingVerdict.Row reworded = only(skipped("SINGLE", "0", SkipCause.DOES_NOT_FIT,
                "weights and KV cache need 150.0 GiB on one GPU, which has 141.0 GiB"), tp);
        assertEquals(Verdict.KEEP, reworded.verdict(), reworded.why());
        assertTrue(reworded.why().contains("which has 141.0 GiB"), reworded.why());
        ServingVerdict.Row otherCause = only(skipped("SINGLE", "0", SkipCause.NO_PEER_ACCESS,
                "does not fit the words a verdict once looked for"), tp);
        assertEquals(Verdict.NO_VERDICT, otherCause.verdict(), otherCause.why());
    }

    @Test
    void namesBothRemediesWithTheirFiguresWhenCommunicationBound() {
        // 50% of a 64-token decode step exposed: TP x2 crosses 64 all-reduces of 64 x 4096 x 2 B = 512 KiB,
        // bus factor 1: 33.5 MB in 2000 us = 16.8 GB/s, far below the 400 GB/s peer copy
        ServingSamples.Breakdown b = new ServingSamples.Breakdown(new StepShape(64, 64L * 600, 0, 0, 0), 4000, 2000, 2000,
                0);
        ServingVerdict.Row r = only(SINGLE, sweep("TP", "P2P", "0,1", false, null,
                run(b, point(10, 300, 30), point(20, 400, 35), point(40, 800, 40))));
        assertTrue(r.why().contains("communication-bound: 50% of the step is exposed communication (17 GB/s bus)"),
                r.why());
        assertTrue(r.why().contains("try a placement on the best-linked pairs 0-1, 2-3 (NV18), or fewer crossings (PP "
                + "instead of TP)"), r.why());
        assertTrue(r.why().contains("the step crosses 64 partition boundaries (two all-reduces per layer), PP over the "
                + "same 2 ranks 1"), r.why());
        assertEquals(16.777, ServingVerdict.busGBps(r.plan(), b), 0.01);
    }

    @Test
    void theVerdictsOfEachMachineCarryTheDecisionWithoutRendering() {
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 300, 30), point(20, 400, 35), point(40, 800, 40), point(80, 4000, 200)));
        ServingResults.Sweep pp = skipped("PP", "0,1", SkipCause.OTHER, "does not divide");
        List<ServingVerdict.MachineVerdicts> verdicts = ServingVerdict.judgeByMachine(List.of(SINGLE, tp, pp),
                Map.of("h200x8", MACHINE));
        assertEquals(1, verdicts.size());
        ServingVerdict.MachineVerdicts v = verdicts.get(0);
        assertEquals("h200x8", v.fingerprint());
        assertEquals(MACHINE, v.machine());
        assertEquals(List.of(SINGLE, tp, pp), v.sweeps());
        assertFalse(v.oneGpu());
        assertEquals(List.of(Verdict.KEEP, Verdict.NOT_MEASURED), v.rows().stream().map(ServingVerdict.Row::verdict)
                .toList());
        assertEquals(20, v.rows().get(0).ratePerSecond(), 1e-9);
        assertEquals(SINGLE, v.rows().get(0).single());
        ServingResults.Sweep oneGpu = sweep("TP", "P2P", "0,0", true, null,
                run(null, point(10, 300, 30), point(20, 400, 35), point(40, 800, 40)));
        ServingVerdict.MachineVerdicts repeated = ServingVerdict.judgeByMachine(List.of(SINGLE, oneGpu), Map.of()).get(0);
        assertTrue(repeated.oneGpu());
        assertEquals("h200x8", repeated.machine().description(), "a machine not described is named by its fingerprint");
        assertEquals(Verdict.UNJUDGED, repeated.rows().get(0).verdict());
        assertFalse(ServingVerdict.judgeByMachine(List.of(SINGLE), Map.of()).get(0).oneGpu(),
                "no multi-rank sweep: nothing ran over a repeated GPU");
    }

    @Test
    void theSectionHasTheTableEveryPointAndItsIntervals() {
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 300, 30), point(20, 400, 35), point(40, 800, 40)));
        String md = ServingSection.section(ServingVerdict.judgeByMachine(List.of(SINGLE, tp),
                Map.of("h200x8", MACHINE)), List.of(), p -> p.toString());
        assertTrue(md.startsWith("## Does splitting pay at a request rate?"), md);
        assertTrue(md.contains("### Does splitting pay at a request rate on h200x8 (8x NVIDIA H200)?"), md);
        assertTrue(md.contains("| TP | P2P | 0,1 | 20 |"), md);
        assertTrue(md.contains("Every point"), md);
        // 200 values: the p99's interval runs to the largest value and covers about 85%, stated
        assertTrue(md.matches("(?s).*\\[[0-9.]+\\.\\.[0-9.]+, 8[0-9]%\\].*"), md);
        assertTrue(md.contains("Warm-up requests"), md);
    }

    @Test
    void theTablesNameTheModelWhenTheSweepsHoldSeveral() {
        ServingResults.Sweep tp = sweep("TP", "P2P", "0,1", false, null,
                run(null, point(10, 300, 30), point(20, 400, 35), point(40, 800, 40)));
        ServingResults.Sweep moeSingle = new ServingResults.Sweep("h200x8", "MOE_8X_TOP2", Plan.SINGLE, "P2P", "0", false,
                ServingFixtures.SWEEP, List.of(run(null, point(10, 500, 50), point(20, 3000, 60))), null);
        ServingResults.Sweep ep = new ServingResults.Sweep("h200x8", "MOE_8X_TOP2", Plan.EP, "P2P", "0,1", false,
                ServingFixtures.SWEEP, List.of(run(null, point(10, 400, 40), point(20, 2500, 50))), null);
        String one = ServingSection.section(ServingVerdict.judgeByMachine(List.of(SINGLE, tp),
                Map.of("h200x8", MACHINE)), List.of(), p -> p.toString());
        assertTrue(one.contains("| TP | P2P | 0,1 |"), one);
        String two = ServingSection.section(ServingVerdict.judgeByMachine(List.of(SINGLE, tp, moeSingle, ep),
                Map.of("h200x8", MACHINE)), List.of(), p -> p.toString());
        assertTrue(two.contains("| TP (DENSE_8B) | P2P | 0,1 |"), two);
        assertTrue(two.contains("| EP (MOE_8X_TOP2) | P2P | 0,1 |"), two);
        assertTrue(two.contains("| SINGLE (MOE_8X_TOP2) | P2P | h200x8/run |"), two);
    }
}
