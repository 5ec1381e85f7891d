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
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The stability test of a serving point: synthetic records on the workload's trace (a server that keeps up,
 * one that does not, one whose measured requests finish long after the last measured arrival), the real
 * scheduler on a step model whose capacity is known, and the committed H200 run.
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
        assertEquals(new Target.Judgement(true, "met"), Target.DEFAULT.judge(st, s, false, rs.size(), W.measured()));
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

    @Test
    void onAStepModelOfKnownCapacityTheStablePointPassesAndTheOverloadedOneDoesNot() {
        // One sequence at a time, 10 ms a step: a request of n output tokens holds the server n x 10 ms (the prompt
        // fits one step), 128 on average, so it serves at most 1 / 1.28 s = 0.78 req/s.
        Workload w = new Workload(LengthRange.fixed(100), new LengthRange(64, 192), 27, 200, 20, 2.0);
        Map<Double, Stability> byRate = new TreeMap<>();
        for (double rate : new double[] {0.5, 1.2}) {
            VirtualClock clock = new VirtualClock();
            ModelStepExecutor exec = new ModelStepExecutor(s -> 10 * MS, clock, new StepExecutor.StepLimits(1, 1000, 8192));
            int warmup = w.warmup(rate);
            ContinuousBatcher.Served served = new ContinuousBatcher(exec, clock, new BatchPolicy(1, 8192), 10_000)
                    .serve(new LoadGenerator(w, rate), warmup, warmup + w.measured(), 100_000_000 * MS);
            byRate.put(rate, Stability.of(w, rate, served.measured(), served.windowStartNanos(),
                    served.windowEndNanos(), served.windowTokens()));
        }
        assertTrue(byRate.get(0.5).keepsUp(), byRate.get(0.5).toString());
        Stability over = byRate.get(1.2);
        assertFalse(over.keepsUp(), over.toString());
        // it serves its capacity: 100 output tokens per second, 0.78 req/s of 128 tokens
        assertEquals(100, over.servedTokens() / over.windowSeconds(), 1);
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
