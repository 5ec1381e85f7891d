package io.p2pbench.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.ModelShape;
import org.junit.jupiter.api.Test;

/** A step's batch: what it refuses, the spec's own batch, and the busiest rank's share under data-parallel attention. */
class StepBatchTest {
    @Test
    void aStepMustDoSomethingAndEverySequenceNeedsAToken() {
        assertThrows(IllegalArgumentException.class, () -> new StepBatch(0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new StepBatch(1, 1, 1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new StepBatch(-1, 1, 0, 0, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new StepBatch(4, 3, 0, 0, 0));
        assertTrue(e.getMessage().startsWith("every sequence needs a token: 4 decode sequences over 3 context tokens"),
                e.getMessage());
    }

    @Test
    void theSpecsBatchDecodesAtItsContextOrPrefillsItsPrompt() {
        PartitionSpec d = new PartitionSpec(ModelShape.DENSE_8B, Plan.SINGLE, 1, Phase.DECODE, 8, 2048, 4096);
        assertEquals(new StepBatch(8, 8L * 4096, 0, 0, 0), StepBatch.of(d));
        PartitionSpec p = new PartitionSpec(ModelShape.DENSE_8B, Plan.SINGLE, 1, Phase.PREFILL, 8, 2048, 4096);
        assertEquals(new StepBatch(0, 0, 8, 8 * 2048, 0), StepBatch.of(p));
        assertEquals(8 * 2048, StepBatch.of(p).tokens());
    }

    @Test
    void theBusiestRankTakesTheRoundedUpShareOfWholeSequences() {
        StepBatch b = new StepBatch(5, 500, 3, 300, 30);
        assertEquals(b, b.perRank(1));
        // 3 of 5 decode sequences (300 tokens), 2 of 3 prefill sequences (200 tokens, 20 cached)
        assertEquals(new StepBatch(3, 300, 2, 200, 20), b.perRank(2));
        assertEquals(new StepBatch(1, 100, 1, 100, 10), b.perRank(8));
        assertEquals(3, StepBatch.share(10, 3, 0) + StepBatch.share(10, 3, 1) - StepBatch.share(10, 3, 2) - 1);
    }
}
