package io.p2pbench.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rate search: its walk on a synthetic knee, and the real scheduler on a model whose capacity is known. */
class CapacitySearchTest {
    private static final Workload W = new Workload(LengthRange.fixed(100), LengthRange.fixed(10), 1, 200, 20, 0);

    /**
     * A point runner that serves nothing: it advances the clock by the point's expected time and returns the
     * workload's trace at the rate with a TTFT of 1 s below {@code knee} req/s and 5 s above it, its window
     * producing every output token that arrived in it (the server keeps up).
     */
    private static CapacitySearch.PointRunner synthetic(double knee, VirtualClock clock, List<Double> rates) {
        return (rate, cap) -> {
            rates.add(rate);
            clock.advance((long) (CapacitySearch.expectedSeconds(W, rate) * 1e9));
            long ttft = rate <= knee ? 1_000_000_000L : 5_000_000_000L;
            LoadGenerator trace = new LoadGenerator(W, rate);
            List<Request> all = new ArrayList<>();
            List<RequestRecord> rs = new ArrayList<>();
            for (int i = 0; i < W.warmup(rate) + W.measured(); i++) {
                Request r = trace.next();
                all.add(r);
                if (i >= W.warmup(rate)) {
                    long a = r.arrivalNanos();
                    rs.add(new RequestRecord(r.index(), a, 100, 10, a + ttft, a + ttft + 9 * 10_000_000L));
                }
            }
            long start = rs.get(0).arrivalNanos();
            long end = rs.get(rs.size() - 1).lastTokenNanos();
            for (Request r = trace.next(); r.arrivalNanos() <= end; r = trace.next()) {
                all.add(r);
            }
            long tokens = all.stream().filter(r -> r.arrivalNanos() >= start).mapToLong(Request::outputTokens).sum();
            return new ContinuousBatcher.Served(rs, 20, 0, false, 0, 1, 1, start, end, tokens, 1,
                    new StepShape(1, 100, 0, 0, 0));
        };
    }

    @Test
    void climbsGeometricallyThenBisectsTheBracket() {
        VirtualClock clock = new VirtualClock();
        List<Double> rates = new ArrayList<>();
        SearchPlan plan = new SearchPlan(10, 2, 8, 2, 2, 10_000);
        CapacitySearch.Outcome o = CapacitySearch.run(plan, Target.DEFAULT, W, synthetic(50, clock, rates), clock);
        // 10+ 20+ 40+ 80- then sqrt(40 * 80) = 56.6- then sqrt(40 * 56.6) = 47.6+
        assertEquals(List.of(10.0, 20.0, 40.0, 80.0), rates.subList(0, 4));
        assertEquals(Math.sqrt(40 * 80), rates.get(4), 1e-9);
        assertEquals(Math.sqrt(40 * Math.sqrt(40 * 80)), rates.get(5), 1e-9);
        assertEquals(6, o.points().size());
        assertEquals(rates.get(5), o.kneePerSecond(), 1e-9);
        assertEquals(rates.get(4), o.breakPerSecond(), 1e-9);
        assertTrue(o.stop().startsWith("bracketed"), o.stop());
        assertEquals(CapacitySearch.Step.BISECT, o.points().get(5).step());
    }

    @Test
    void bisectsUntilTheBrokenRateIsWithinFivePerCentOfTheMetOne() {
        assertEquals(4, SearchPlan.bisectionsFor(2, SearchPlan.RESOLUTION), "2^(1/16) = 1.044");
        assertEquals(3, SearchPlan.bisectionsFor(Math.sqrt(2), SearchPlan.RESOLUTION));
        assertEquals(0, SearchPlan.bisectionsFor(1.05, SearchPlan.RESOLUTION));
        // a plan allowing more bisections than the resolution needs stops at it: 10+ 20+ 40+ 80- then four
        VirtualClock clock = new VirtualClock();
        List<Double> rates = new ArrayList<>();
        CapacitySearch.Outcome o = CapacitySearch.run(new SearchPlan(10, 2, 20, 10, 2, 10_000), Target.DEFAULT, W,
                synthetic(50, clock, rates), clock);
        assertEquals(8, rates.size(), rates.toString());
        assertEquals(Math.pow(2, 1.0 / 16), o.breakPerSecond() / o.kneePerSecond(), 1e-9);
        assertTrue(o.kneePerSecond() <= 50 && o.breakPerSecond() > 50, o.stop());
        assertEquals(Math.pow(2, 1.0 / 16), new SearchPlan(10, 2, 20, 4, 2, 10_000).finalStep(), 1e-12);
    }

    @Test
    void stepsDownWhenTheStartAlreadyBreaksTheTarget() {
        VirtualClock clock = new VirtualClock();
        List<Double> rates = new ArrayList<>();
        CapacitySearch.Outcome o = CapacitySearch.run(new SearchPlan(10, 2, 8, 1, 2, 10_000), Target.DEFAULT, W,
                synthetic(3, clock, rates), clock);
        // 10- 5- 2.5+ then sqrt(2.5 * 5)
        assertEquals(List.of(10.0, 5.0, 2.5, Math.sqrt(12.5)), rates);
        assertEquals(2.5, o.kneePerSecond(), 1e-9);
        assertEquals(Math.sqrt(12.5), o.breakPerSecond(), 1e-9);
        CapacitySearch.Outcome never = CapacitySearch.run(new SearchPlan(10, 2, 8, 1, 2, 10_000), Target.DEFAULT, W,
                synthetic(0.1, new VirtualClock(), new ArrayList<>()), new VirtualClock());
        assertTrue(Double.isNaN(never.kneePerSecond()));
        assertTrue(never.stop().contains("broke at every rate down to 2.5"), never.stop());
    }

    @Test
    void stopsAtItsPointCountWhenTheTargetNeverBreaks() {
        VirtualClock clock = new VirtualClock();
        CapacitySearch.Outcome o = CapacitySearch.run(new SearchPlan(1, 2, 5, 2, 2, 10_000), Target.DEFAULT, W,
                synthetic(1e9, clock, new ArrayList<>()), clock);
        assertEquals(5, o.points().size());
        assertEquals(16, o.kneePerSecond(), 1e-9);
        assertTrue(Double.isNaN(o.breakPerSecond()));
        assertTrue(o.stop().contains("held at every rate up to 16"), o.stop());
    }

    @Test
    void startsNoPointItsBudgetCannotHold() {
        VirtualClock clock = new VirtualClock();
        List<Double> rates = new ArrayList<>();
        // each point's arrivals: 220 requests at 10/s = 22 s + 2 s drain; at 20/s 13 s; budget 40 s
        CapacitySearch.Outcome o = CapacitySearch.run(new SearchPlan(10, 2, 8, 2, 2, 40), Target.DEFAULT, W,
                synthetic(1e9, clock, rates), clock);
        assertEquals(List.of(10.0, 20.0), rates);
        assertTrue(o.stop().contains("time budget (40 s) was spent"), o.stop());
        assertTrue(o.elapsedSeconds() <= 40, "elapsed " + o.elapsedSeconds());
        // the first point always runs, however small the budget
        assertEquals(1, CapacitySearch.run(new SearchPlan(10, 2, 8, 2, 2, 1), Target.DEFAULT, W,
                synthetic(1e9, new VirtualClock(), new ArrayList<>()), new VirtualClock()).points().size());
    }

    @Test
    void onAModelWhoseCapacityIsKnownTheKneeLiesJustBelowIt() {
        // One sequence at a time, 10 ms a step, 10 output tokens: each request holds the server 100 ms, so it
        // serves at most 10 req/s; above that the queue grows without bound and TTFT with it.
        VirtualClock clock = new VirtualClock();
        StepExecutor.StepLimits limits = new StepExecutor.StepLimits(1, 1000, 8192);
        ModelStepExecutor exec = new ModelStepExecutor(s -> 10_000_000L, clock, limits);
        ServingSweep sweep = new ServingSweep(W, new BatchPolicy(1, 8192), Target.DEFAULT,
                new SearchPlan(2.5, 2, 8, 2, 2, 80_000), 0);
        CapacitySearch.Outcome o = new ServingSession(sweep, exec, clock, 10_000).search();
        assertTrue(o.kneePerSecond() >= 5 && o.kneePerSecond() < 10, "knee " + o.kneePerSecond());
        assertTrue(o.breakPerSecond() <= 10.0 + 1e-9, "break " + o.breakPerSecond());
        assertTrue(o.breakPerSecond() / o.kneePerSecond() <= Math.pow(2, 0.25) + 1e-9, o.toString());
        for (CapacitySearch.Point p : o.points()) {
            assertEquals(W.measured(), p.served().measured().size());
            // TPOT is the step time at every rate: one sequence decodes alone
            assertTrue(p.stats().tpot().p99() <= 10_000_000L + 1, p.toString());
        }
    }
}
