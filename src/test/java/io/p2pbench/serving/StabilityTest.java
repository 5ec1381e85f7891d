package io.p2pbench.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.results.AtomicFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The stability test of a serving point: synthetic records on the workload's trace (a server that keeps up,
 * one that does not, one whose measured requests finish long after the last measured arrival), the real
 * scheduler on a step model shaped like the H200's, and the committed H200 run.
 */
class StabilityTest {
    private static final long MS = 1_000_000L;
    private static final Workload W = new Workload(LengthRange.fixed(256), new LengthRange(64, 192), 27, 200, 20, 2.0);

    /** The trace at {@code rate} through the measured requests and on to {@code seconds}. */
    private static List<Request> trace(double rate, double seconds) {
        LoadGenerator g = new LoadGenerator(W, rate);
        List<Request> rs = new ArrayList<>();
        for (Request r = g.next(); r.index() < W.warmup(rate) + W.measured() || r.arrivalNanos() <= seconds * 1e9;
                r = g.next()) {
            rs.add(r);
        }
        return rs;
    }

    /** The measured requests of {@code trace}, each done {@code e2e} after it arrived (TTFT 50 ms). */
    private static List<RequestRecord> measured(List<Request> trace, double rate, java.util.function.IntToLongFunction e2e) {
        List<RequestRecord> out = new ArrayList<>();
        for (Request r : trace.subList(W.warmup(rate), W.warmup(rate) + W.measured())) {
            long a = r.arrivalNanos();
            out.add(new RequestRecord(r.index(), a, r.promptTokens(), r.outputTokens(), a + 50 * MS,
                    a + Math.max(50 * MS, e2e.applyAsLong(r.index()))));
        }
        return out;
    }

    private static long tokensArrived(List<Request> trace, long start, long end) {
        return trace.stream().filter(r -> r.arrivalNanos() >= start && r.arrivalNanos() <= end)
                .mapToLong(Request::outputTokens).sum();
    }

    private static long end(List<RequestRecord> rs) {
        return rs.stream().mapToLong(RequestRecord::lastTokenNanos).max().orElseThrow();
    }

    @Test
    void aServerThatProducesWhatArrivesKeepsUp() {
        List<Request> t = trace(20, 30);
        List<RequestRecord> rs = measured(t, 20, i -> 1000 * MS);
        long start = rs.get(0).arrivalNanos();
        long offered = tokensArrived(t, start, end(rs));
        // a little short of it (the batch still filling from the warm-up): within the margin
        Stability s = Stability.of(W, 20, rs, start, end(rs), Math.round(offered * 0.95));
        assertTrue(s.traced());
        assertEquals(offered, s.offeredTokens());
        assertTrue(s.keepsUp(), s.toString());
        assertNull(s.problem());
        assertEquals(0.95, s.servedShare(), 1e-3);
        PointStats st = PointStats.of(rs, start, end(rs), Math.round(offered * 0.95));
        assertEquals(new Target.Judgement(true, "met", Set.of()), Target.DEFAULT.judge(st, s, false, rs.size(), W.measured()));
    }

    @Test
    void aServerThatFallsBehindBreaksTheTargetThoughItsLatenciesAreWithinIt() {
        // 100 req/s offered; the server produces 60% of what arrives. TTFT 50 ms, e2e rising from 1 s to 3 s
        // over the measured requests: every p99 within the target, and the queue grows.
        List<Request> t = trace(100, 30);
        int first = W.warmup(100);
        List<RequestRecord> rs = measured(t, 100, i -> (1000 + 10L * (i - first)) * MS);
        long start = rs.get(0).arrivalNanos();
        long offered = tokensArrived(t, start, end(rs));
        long served = Math.round(offered * 0.6);
        Stability s = Stability.of(W, 100, rs, start, end(rs), served);
        assertFalse(s.keepsUp());
        PointStats st = PointStats.of(rs, start, end(rs), served);
        assertTrue(Target.DEFAULT.metBy(st), "the latencies alone meet it");
        Target.Judgement j = Target.DEFAULT.judge(st, s, false, rs.size(), W.measured());
        assertFalse(j.met());
        assertTrue(j.why().startsWith("broke: the queue grows: offered "), j.why());
        assertEquals(Set.of(Target.Breach.QUEUE_GROWS), j.breaches(), "typed, for the charts: the queue alone broke it");
        assertTrue(j.why().contains("(60% of the output tokens that arrived in the"), j.why());
        assertEquals(0.6 * s.offeredPerSecond(), s.servedPerSecond(), 1e-3);
        // just below the margin breaks, just above it does not
        assertFalse(Stability.of(W, 100, rs, start, end(rs), (long) Math.floor(offered * 0.899)).keepsUp());
        assertTrue(Stability.of(W, 100, rs, start, end(rs), (long) Math.ceil(offered * 0.9)).keepsUp());
    }

    @Test
    void measuredRequestsFinishingLongAfterTheLastMeasuredArrivalDoNotBreakIt() {
        // Drain tail: the last measured request finishes 20 s after the last measured arrival, the others within 1 s.
        // Completions per second of the measured requests fall far below the offered rate; the window's tokens
        // (cool-down arrivals go on and are served) keep up.
        List<Request> t = trace(50, 60);
        int last = W.warmup(50) + W.measured() - 1;
        List<RequestRecord> rs = measured(t, 50, i -> i == last ? 20_000 * MS : 1000 * MS);
        long start = rs.get(0).arrivalNanos();
        long offered = tokensArrived(t, start, end(rs));
        Stability s = Stability.of(W, 50, rs, start, end(rs), offered);
        assertTrue(s.keepsUp(), s.toString());
        PointStats st = PointStats.of(rs, start, end(rs), offered);
        assertTrue(st.achievedPerSecond() < 0.5 * st.offeredPerSecond(), "completions: " + st.achievedPerSecond());
        assertEquals(50, s.offeredPerSecond(), 5);
    }

    @Test
    void recordsThatAreNotTheTraceCannotBeJudgedStable() {
        List<Request> t = trace(20, 30);
        List<RequestRecord> rs = new ArrayList<>(measured(t, 20, i -> 1000 * MS));
        RequestRecord r = rs.get(7);
        rs.set(7, new RequestRecord(r.index(), r.arrivalNanos() + 1, r.promptTokens(), r.outputTokens(),
                r.firstTokenNanos() + 1, r.lastTokenNanos() + 1));
        long start = rs.get(0).arrivalNanos();
        Stability s = Stability.of(W, 20, rs, start, end(rs), tokensArrived(t, start, end(rs)));
        assertFalse(s.traced());
        assertFalse(s.keepsUp());
        assertTrue(s.problem().contains("not the sweep's seeded trace"), s.problem());
    }

    /** A step shaped like SINGLE's on the H200: 4.5 ms, 0.114 ms per decoding sequence, 0.004 ms per prefill token. */
    private static ContinuousBatcher.Served h200Shaped(Workload w, double rate) {
        VirtualClock clock = new VirtualClock();
        ModelStepExecutor exec = new ModelStepExecutor(s -> Math.round(4.5 * MS + 0.114 * MS * s.decodeSequences()
                + 0.004 * MS * s.prefillTokens()), clock, new StepExecutor.StepLimits(256, 4096, 8192));
        int warmup = w.warmup(rate);
        return new ContinuousBatcher(exec, clock, BatchPolicy.DEFAULT, 993_660).serve(new LoadGenerator(w, rate), warmup,
                warmup + w.measured(), (long) ((2 * CapacitySearch.expectedSeconds(w, rate) + CapacitySearch.CAP_SLACK_SECONDS)
                        * 1e9));
    }

    /**
     * On a step model shaped like the H200's, seeds 1..N (N = {@code -Dp2pbench.stability.seeds}, 10 by default) at
     * fractions of its saturated rate: how often a point keeps up, and how often its latencies alone meet the
     * target. The false-alarm and detection rates in docs/serving.md come from this with 130 seeds.
     */
    @Test
    void onAStepModelShapedLikeTheH200sStablePointsKeepUpAndOverloadedOnesDoNot() {
        int seeds = Integer.getInteger("p2pbench.stability.seeds", 10);
        Workload base = new Workload(new LengthRange(256, 768), new LengthRange(64, 192), 27, 200, 20, 2.0);
        ContinuousBatcher.Served saturated = h200Shaped(base, 400);
        double capacity = saturated.windowTokens() / ((saturated.windowEndNanos() - saturated.windowStartNanos()) / 1e9)
                / base.output().mean();
        assertEquals(53.3, capacity, 0.5, "req/s of 128-token outputs at saturation");
        Map<Double, int[]> counts = new TreeMap<>();
        StringBuilder note = new StringBuilder();
        for (double fraction : new double[] {0.25, 0.5, 0.7, 0.8, 0.9, 1.1, 1.2, 1.5}) {
            int[] c = new int[2];
            for (int seed = 1; seed <= seeds; seed++) {
                Workload w = new Workload(base.prompt(), base.output(), seed, 200, 20, 2.0);
                double rate = fraction * capacity;
                ContinuousBatcher.Served s = h200Shaped(w, rate);
                Stability st = Stability.of(w, rate, s.measured(), s.windowStartNanos(), s.windowEndNanos(),
                        s.windowTokens());
                c[0] += st.keepsUp() ? 1 : 0;
                c[1] += !s.capped() && Target.DEFAULT.metBy(PointStats.of(s)) ? 1 : 0;
            }
            counts.put(fraction, c);
            note.append(String.format(java.util.Locale.ROOT, "%.2f x capacity (%.1f req/s): keeps up %d of %d, "
                    + "latencies alone meet the target %d of %d%n", fraction, fraction * capacity, c[0], seeds, c[1], seeds));
        }
        io.p2pbench.TestNotes.write("StabilityTest", note);
        int stable = 0;
        for (double f : new double[] {0.25, 0.5, 0.7, 0.8}) {
            stable += counts.get(f)[0];
        }
        assertTrue(stable >= 0.95 * 4 * seeds, "stable points that kept up: " + stable + " of " + 4 * seeds);
        assertEquals(0, counts.get(1.2)[0], "at 1.2x capacity");
        assertEquals(0, counts.get(1.5)[0], "at 1.5x capacity");
        // what latency alone called met: every overloaded point up to 1.5x
        assertEquals(seeds, counts.get(1.5)[1]);
    }

    @Test
    void theCommittedH200RunKeepsUpAt15And31ReqPerSecondAndNotAbove() throws Exception {
        // SINGLE on the H200, 2026-12-04: output tokens served over offered in the window, by rate
        Path file = Path.of("results/h200x1-single-r580/2026-12-04T16-02-39Z/samples/serve-DENSE_8B-SINGLE-P2P-g0.json.gz");
        ServingSamples samples = ServingSamples.read(AtomicFiles.read(file));
        ServingSweep sweep = ServingSweep.parse(samples.sweep());
        Map<Long, Boolean> keepsUp = new TreeMap<>();
        for (ServingSamples.Point p : samples.points()) {
            Stability s = Stability.of(sweep.workload(), p.ratePerSecond(), p.records(), p.windowStartNanos(),
                    p.windowEndNanos(), p.windowTokens());
            assertTrue(s.traced(), "rate " + p.ratePerSecond());
            keepsUp.put(Math.round(p.ratePerSecond() * 10), s.keepsUp());
        }
        assertEquals(Map.of(156L, true, 312L, true, 624L, false, 882L, false, 1049L, false, 1248L, false), keepsUp);
    }
}
