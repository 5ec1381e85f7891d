package io.p2pbench.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scheduler on a virtual clock with a model executor: hand-computed steps and latencies. */
class ContinuousBatcherTest {
    private static final long MS = 1_000_000L;

    /** Fixed requests, then requests that never arrive. */
    static Arrivals fixed(Request... rs) {
        return new Arrivals() {
            private int i;

            @Override
            public Request next() {
                return i < rs.length ? rs[i++] : new Request(i++, Long.MAX_VALUE / 4, 1, 1);
            }
        };
    }

    /** An executor whose every step takes {@code stepMs} and that remembers the shapes it ran. */
    private static final class Recorder {
        final VirtualClock clock = new VirtualClock();
        final List<StepShape> shapes = new ArrayList<>();
        final ModelStepExecutor executor;

        Recorder(long stepMs, StepExecutor.StepLimits limits) {
            executor = new ModelStepExecutor(s -> {
                shapes.add(s);
                return stepMs * MS;
            }, clock, limits);
        }
    }

    private static final StepExecutor.StepLimits WIDE = new StepExecutor.StepLimits(64, 100_000, 100_000);

    @Test
    void oneRequestsLatenciesAreItsSteps() {
        Recorder rec = new Recorder(10, WIDE);
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(8, 8192), 10_000);
        ContinuousBatcher.Served s = b.serve(fixed(new Request(0, 5 * MS, 100, 4)), 0, 1, 10_000 * MS);
        // idle until 5 ms; prefill [5, 15] gives the first token; decodes end at 25, 35, 45
        RequestRecord r = s.measured().get(0);
        assertEquals(15 * MS, r.firstTokenNanos());
        assertEquals(45 * MS, r.lastTokenNanos());
        assertEquals(10 * MS, r.ttftNanos());
        assertEquals(10 * MS, r.tpotNanos());
        assertEquals(40 * MS, r.e2eNanos());
        assertEquals(List.of(new StepShape(0, 0, 1, 100, 0), new StepShape(1, 100, 0, 0, 0),
                new StepShape(1, 101, 0, 0, 0), new StepShape(1, 102, 0, 0, 0)), rec.shapes);
        assertEquals(4, s.steps());
        assertEquals(40 * MS, s.deviceNanos());
        assertFalse(s.capped());
    }

    @Test
    void aNewRequestJoinsTheRunningBatchBetweenDecodeSteps() {
        Recorder rec = new Recorder(10, WIDE);
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(8, 8192), 10_000);
        ContinuousBatcher.Served s = b.serve(fixed(new Request(0, 0, 10, 5), new Request(1, 12 * MS, 10, 2)), 0, 2,
                10_000 * MS);
        // [0,10] prefill r0; [10,20] decode r0 (r1 arrives at 12, during the step); [20,30] decode r0 + prefill r1;
        // [30,40] decode r0 and r1 (r1 done); [40,50] decode r0 (done)
        assertEquals(List.of(new StepShape(0, 0, 1, 10, 0), new StepShape(1, 10, 0, 0, 0),
                new StepShape(1, 11, 1, 10, 0), new StepShape(2, 12 + 10, 0, 0, 0), new StepShape(1, 13, 0, 0, 0)),
                rec.shapes);
        RequestRecord r0 = s.measured().get(0);
        RequestRecord r1 = s.measured().get(1);
        assertEquals(10 * MS, r0.ttftNanos());
        assertEquals(10 * MS, r0.tpotNanos());
        assertEquals(50 * MS, r0.e2eNanos());
        assertEquals(18 * MS, r1.ttftNanos());
        assertEquals(10 * MS, r1.tpotNanos());
        assertEquals(28 * MS, r1.e2eNanos());
        // window: first measured arrival 0 to last measured token 50 ms; 5 + 2 tokens
        assertEquals(7, s.windowTokens());
        PointStats st = PointStats.of(s);
        assertEquals(7 / 0.05, st.outputTokensPerSecond(), 1e-9);
        assertEquals(1 / 0.010, st.achievedPerSecond(), 1e-9); // completions at 40 and 50 ms
        assertEquals(1 / 0.012, st.offeredPerSecond(), 1e-9);
    }

    @Test
    void longPromptsArePrefilledInChunksWithinTheStepBudget() {
        Recorder rec = new Recorder(10, WIDE);
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(4, 100), 10_000);
        ContinuousBatcher.Served s = b.serve(fixed(new Request(0, 0, 250, 2), new Request(1, 0, 30, 3)), 0, 2,
                10_000 * MS);
        // budget 100: r0 100, 100, then its last 50 and r1's whole 30-token prompt join the same step
        assertEquals(List.of(new StepShape(0, 0, 1, 100, 0), new StepShape(0, 0, 1, 100, 100),
                new StepShape(0, 0, 2, 80, 200), new StepShape(2, 250 + 30, 0, 0, 0), new StepShape(1, 31, 0, 0, 0)),
                rec.shapes);
        assertEquals(30 * MS, s.measured().get(0).ttftNanos());
        assertEquals(30 * MS, s.measured().get(1).ttftNanos());
        assertEquals(40 * MS, s.measured().get(0).e2eNanos());
        assertEquals(50 * MS, s.measured().get(1).e2eNanos());
    }

    @Test
    void decodesComeFirstAndPrefillGetsWhatIsLeftOfTheBudget() {
        Recorder rec = new Recorder(10, WIDE);
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(4, 16), 10_000);
        b.serve(fixed(new Request(0, 0, 8, 3), new Request(1, 0, 8, 3), new Request(2, 5 * MS, 40, 1)), 0, 3,
                10_000 * MS);
        // [0,10]: both 8-token prompts (16 = the budget); then 2 decodes leave 14 tokens for r2's 40
        assertEquals(new StepShape(0, 0, 2, 16, 0), rec.shapes.get(0));
        assertEquals(new StepShape(2, 16, 1, 14, 0), rec.shapes.get(1));
        assertEquals(new StepShape(2, 18, 1, 14, 14), rec.shapes.get(2));
        assertEquals(new StepShape(0, 0, 1, 12, 28), rec.shapes.get(3));
    }

    @Test
    void aRequestIsAdmittedOnlyWhenItsPromptAndOutputFitTheFreeKvCache() {
        Recorder rec = new Recorder(10, WIDE);
        // 300 KV tokens: r0 reserves 200, r1 needs 110 and waits until r0 is done
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(8, 8192), 300);
        ContinuousBatcher.Served s = b.serve(fixed(new Request(0, 0, 100, 100), new Request(1, 0, 100, 10)), 0, 2,
                100_000 * MS);
        RequestRecord r0 = s.measured().get(0);
        RequestRecord r1 = s.measured().get(1);
        assertEquals(1000 * MS, r0.lastTokenNanos()); // prefill + 99 decodes
        assertEquals(1010 * MS, r1.firstTokenNanos());
        for (StepShape shape : rec.shapes.subList(0, 100)) {
            assertEquals(0, shape.prefillSequences() > 0 && shape.decodeSequences() > 0 ? 1 : 0, shape.toString());
        }
        // with room for both, r1 joins at once
        Recorder wide = new Recorder(10, WIDE);
        ContinuousBatcher roomy = new ContinuousBatcher(wide.executor, wide.clock, new BatchPolicy(8, 8192), 310);
        assertEquals(10 * MS, roomy.serve(fixed(new Request(0, 0, 100, 100), new Request(1, 0, 100, 10)), 0, 2,
                100_000 * MS).measured().get(1).firstTokenNanos());
    }

    @Test
    void theBatchNeverExceedsItsSequencesAndTheExecutorsLimits() {
        Recorder rec = new Recorder(10, new StepExecutor.StepLimits(3, 4096, 64));
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(8, 8192), 100_000);
        assertEquals(new BatchPolicy(3, 64), b.policy());
        Workload w = new Workload(new LengthRange(20, 200), new LengthRange(2, 40), 9, 50, 0, 0);
        ContinuousBatcher.Served s = b.serve(new LoadGenerator(w, 200), 0, 50, 1_000_000 * MS);
        assertEquals(50, s.measured().size());
        for (StepShape shape : rec.shapes) {
            assertTrue(shape.decodeSequences() + shape.prefillSequences() <= 3 && shape.tokens() <= 64, shape.toString());
        }
        assertTrue(s.measured().stream().allMatch(RequestRecord::finished));
    }

    @Test
    void warmupAndCooldownRequestsLoadTheServerButAreNotMeasured() {
        Recorder rec = new Recorder(10, WIDE);
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(8, 8192), 100_000);
        Workload w = new Workload(LengthRange.fixed(50), LengthRange.fixed(20), 4, 10, 5, 0);
        ContinuousBatcher.Served s = b.serve(new LoadGenerator(w, 30), 5, 15, 1_000_000 * MS);
        assertEquals(10, s.measured().size());
        assertEquals(5, s.measured().get(0).index());
        assertEquals(14, s.measured().get(9).index());
        assertEquals(5, s.warmupFinished());
        assertTrue(s.cooldownFinished() >= 0);
        assertTrue(rec.shapes.stream().anyMatch(x -> x.decodeSequences() > 1), "requests overlap at 30/s");
    }

    @Test
    void aPointCutAtItsCapCountsItsUnfinishedRequestsAsInfinitelyLate() {
        Recorder rec = new Recorder(1000, WIDE); // one second per step: hopelessly overloaded at 50/s
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(8, 8192), 100_000);
        Workload w = new Workload(LengthRange.fixed(50), LengthRange.fixed(20), 4, 100, 0, 0);
        ContinuousBatcher.Served s = b.serve(new LoadGenerator(w, 50), 0, 100, 10_000 * MS);
        assertTrue(s.capped());
        assertEquals(100, s.measured().size(), "every measured request is recorded, finished or not");
        PointStats st = PointStats.of(s);
        assertTrue(st.unfinished() > 0);
        assertEquals(Double.POSITIVE_INFINITY, st.e2e().p99());
        assertFalse(Target.DEFAULT.metBy(st));
    }

    @Test
    void aRequestThatCanNeverFitIsRefusedNamingItsSize() {
        Recorder rec = new Recorder(10, WIDE);
        ContinuousBatcher b = new ContinuousBatcher(rec.executor, rec.clock, new BatchPolicy(8, 8192), 150);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.serve(fixed(new Request(0, 0, 100, 100)), 0, 1, 10_000 * MS));
        assertTrue(e.getMessage().contains("needs 200 KV tokens"), e.getMessage());
    }
}
