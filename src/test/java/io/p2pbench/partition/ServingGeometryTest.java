package io.p2pbench.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.ModelShape;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The host side of a step built for whole-step limits (what the serving executor builds), on the CPU:
 * every plan lays out a geometry for the steps a scheduler sends, padded to a captured decode size or
 * not, within the buffers its capacity sizes; a step beyond them is refused before any GPU work.
 */
class ServingGeometryTest {
    /** The GPU executor test's limits: 8 sequences, 512 step tokens, 1024 tokens of context. */
    private static final int SEQUENCES = 8;
    private static final int STEP_TOKENS = 512;
    private static final int CONTEXT = 1024;
    private static final NavigableSet<Integer> BUCKETS = new TreeSet<>(List.of(1, 2, 4, 8));
    private static final List<StepBatch> STEPS = List.of(new StepBatch(3, 1500, 0, 0, 0), new StepBatch(8, 8000, 0, 0, 0),
            new StepBatch(1, 1, 0, 0, 0), new StepBatch(0, 0, 1, 400, 0), new StepBatch(0, 0, 2, 500, 200),
            new StepBatch(5, 2000, 1, 256, 700), PartitionStep.checkBatch(SEQUENCES, STEP_TOKENS, CONTEXT));

    private static BufferPlan plan(Plan p) {
        ModelShape model = p == Plan.EP ? ModelShape.MOE_8X_TOP2 : ModelShape.DENSE_8B;
        PartitionSpec spec = new PartitionSpec(model, p, p == Plan.SINGLE ? 1 : 2, Phase.DECODE, SEQUENCES, 1, CONTEXT);
        return BufferPlan.of(spec, StepCapacity.forLimits(spec, SEQUENCES, STEP_TOKENS, CONTEXT));
    }

    @Test
    void everyPlanLaysOutTheSchedulersStepsWithinItsBuffers() {
        for (Plan p : Plan.values()) {
            BufferPlan plan = plan(p);
            PartitionSpec spec = plan.spec();
            for (StepBatch step : STEPS) {
                for (NavigableSet<Integer> buckets : List.of(BUCKETS, new TreeSet<Integer>())) {
                    String what = p + " " + step + (buckets.isEmpty() ? " eager" : " padded");
                    StepGeometry g = StepGeometry.of(plan, buckets, step);
                    assertTrue(g.tokens <= plan.tokens() && g.decodeRows + g.prefillSequences <= plan.sequences(), what);
                    assertTrue((long) g.decodeRows * g.decodeSplits * spec.qHeadsPerRank() <= plan.partialRows(), what);
                    if (plan.moe()) {
                        assertTrue((long) g.expertTokens * spec.expertsPerRank() <= plan.expertRows(), what);
                        assertTrue(g.gatheredRows(plan) <= Math.max(plan.sendRows(), plan.expertRows()), what);
                        assertTrue(plan.receivedRows(g.tokens) <= plan.expertBufferRows(), what);
                    }
                    assertTrue(g.metaUsed() <= plan.metaInts(), what);
                }
            }
        }
    }

    @Test
    void aPureDecodeStepIsPaddedToTheNextCapturedSizeOnEveryRank() {
        StepGeometry single = StepGeometry.of(plan(Plan.SINGLE), BUCKETS, new StepBatch(3, 1500, 0, 0, 0));
        assertEquals(4, single.decodeRows);
        assertEquals(4, single.tokens);
        // EP over 2: the busiest rank's share of the padded batch, 8 -> 4 rows each
        StepGeometry ep = StepGeometry.of(plan(Plan.EP), BUCKETS, new StepBatch(7, 700, 0, 0, 0));
        assertEquals(4, ep.decodeRows);
        assertEquals(2, ep.expertTokens); // the padded step's 8 tokens, top-2 over 8 experts
        StepGeometry mixed = StepGeometry.of(plan(Plan.SINGLE), BUCKETS, new StepBatch(3, 300, 1, 10, 0));
        assertEquals(3, mixed.decodeRows); // steps with prefill are not padded
    }

    @Test
    void aStepBeyondTheLimitsIsRefusedOnTheHost() {
        BufferPlan plan = plan(Plan.TP);
        assertThrows(IllegalArgumentException.class, () -> StepGeometry.of(plan, BUCKETS, new StepBatch(8, 8200, 0, 0, 0)));
        assertThrows(IllegalArgumentException.class, () -> StepGeometry.of(plan, BUCKETS, new StepBatch(0, 0, 1, 513, 0)));
        assertThrows(IllegalArgumentException.class, () -> StepGeometry.of(plan, BUCKETS, new StepBatch(9, 9, 0, 0, 0)));
    }
}
