package io.p2pbench.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.ModelShape;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The step metadata the kernels read, laid out on the CPU: positions, slots, prefill records, LM-head rows, expert routing. */
class StepGeometryTest {
    private static final PartitionSpec DENSE = new PartitionSpec(ModelShape.DENSE_8B, Plan.SINGLE, 1, Phase.DECODE, 8, 16,
            64);

    private static int[] part(StepGeometry g, int at, int length) {
        return Arrays.copyOfRange(g.meta, at, at + length);
    }

    @Test
    void decodeRowsAreSequencesAttendingToTheirShareOfTheContext() {
        BufferPlan plan = BufferPlan.of(DENSE, new StepCapacity(8, 64, 64, 64));
        StepGeometry g = new StepGeometry(plan, new StepBatch(3, 100, 0, 0, 0), 3, 3);
        assertEquals(3, g.tokens);
        // 100 tokens over 3 sequences: 34, 33, 33; the new token sits at the last position
        assertArrayEquals(new int[] {33, 32, 32}, part(g, plan.posAt(), 3));
        assertArrayEquals(new int[] {0, 1, 2}, part(g, plan.slotAt(), 3));
        assertArrayEquals(new int[] {0, 1, 2}, part(g, plan.lastAt(), 3));
        assertEquals(3, g.headRows);
        assertTrue(g.decodeOnly());
    }

    @Test
    void paddedDecodeRowsAttendToOneTokenAndTheSplitsDependOnlyOnTheRowCount() {
        BufferPlan plan = BufferPlan.of(DENSE, new StepCapacity(8, 64, 4096, 64));
        StepGeometry g = new StepGeometry(plan, new StepBatch(3, 300, 0, 0, 0), 4, 4);
        assertArrayEquals(new int[] {99, 99, 99, 0}, part(g, plan.posAt(), 4));
        StepGeometry other = new StepGeometry(plan, new StepBatch(4, 16000, 0, 0, 0), 4, 4);
        assertEquals(g.decodeSplits, other.decodeSplits);
        // 4 rows x 8 KV heads: 384 / 32 = 12 splits, and never more than the context allows
        assertEquals(12, g.decodeSplits);
        assertEquals(1, BufferPlan.of(DENSE, new StepCapacity(8, 64, 100, 64)).decodeSplits(1, 100));
    }

    @Test
    void prefillSequencesFollowTheDecodeRowsWithTheirCachedContext() {
        BufferPlan plan = BufferPlan.of(DENSE, new StepCapacity(8, 64, 64, 64));
        StepGeometry g = new StepGeometry(plan, new StepBatch(2, 20, 2, 11, 7), 13, 2);
        assertEquals(13, g.tokens);
        assertEquals(6, g.longestPrefill);
        // prefill 0: rows 2..7, 6 tokens after 4 cached, slot 2; prefill 1: rows 8..12, 5 tokens after 3 cached, slot 3
        assertArrayEquals(new int[] {2, 6, 4, 2, 8, 5, 3, 3}, part(g, plan.infoAt(), 8));
        assertArrayEquals(new int[] {9, 9, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7}, part(g, plan.posAt(), 13));
        assertArrayEquals(new int[] {0, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3}, part(g, plan.slotAt(), 13));
        assertArrayEquals(new int[] {0, 1, 7, 12}, part(g, plan.lastAt(), 4));
        assertEquals(4, g.headRows);
    }

    @Test
    void aStepBeyondTheCapacityIsRefusedNamingIt() {
        BufferPlan plan = BufferPlan.of(DENSE, new StepCapacity(2, 16, 32, 16));
        IllegalArgumentException seqs = assertThrows(IllegalArgumentException.class,
                () -> new StepGeometry(plan, new StepBatch(3, 3, 0, 0, 0), 3, 3));
        assertTrue(seqs.getMessage().contains("exceeds the capacity"), seqs.getMessage());
        IllegalArgumentException ctx = assertThrows(IllegalArgumentException.class,
                () -> new StepGeometry(plan, new StepBatch(0, 0, 1, 10, 30), 10, 0));
        assertEquals("a sequence of 40 tokens exceeds the KV cache's 32", ctx.getMessage());
    }

    @Test
    void withoutExpertParallelismTheGatherSortsTokensByExpert() {
        PartitionSpec moe = new PartitionSpec(ModelShape.MOE_8X_TOP2, Plan.SINGLE, 1, Phase.DECODE, 8, 16, 64);
        BufferPlan plan = BufferPlan.of(moe, new StepCapacity(8, 8, 64, 8));
        StepGeometry g = new StepGeometry(plan, new StepBatch(6, 60, 0, 0, 0), 6, 6);
        // 12 routed pairs (token t, choice k) = pair 2t + k, to expert pair % 8; 2 rows per expert
        assertEquals(2, g.expertTokens);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3}, part(g, plan.choiceAt(), 12));
        // expert e's rows hold pairs e and e + 8: tokens e / 2 and (e + 8) / 2 (expert 4 to 7: padding, token 0)
        assertArrayEquals(new int[] {0, 4, 0, 4, 1, 5, 1, 5, 2, 0, 2, 0, 3, 0, 3, 0}, part(g, plan.gatherAt(), 16));
        // and each pair's output comes back from row expert * 2 + pair / 8
        assertArrayEquals(new int[] {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7}, part(g, plan.rowOfAt(), 12));
        assertEquals(16, g.gatheredRows(plan));
    }

    @Test
    void underExpertParallelismPairsStayInOrderForTheDispatch() {
        PartitionSpec ep = new PartitionSpec(ModelShape.MOE_8X_TOP2, Plan.EP, 2, Phase.DECODE, 8, 16, 64);
        BufferPlan plan = BufferPlan.of(ep, StepCapacity.of(ep));
        StepGeometry g = new StepGeometry(plan, StepBatch.of(ep).perRank(2), 8, 4);
        assertArrayEquals(new int[] {0, 0, 1, 1, 2, 2, 3, 3}, part(g, plan.gatherAt(), 8));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, part(g, plan.rowOfAt(), 8));
        assertEquals(2, g.expertTokens); // 8 tokens x top-2 over 8 experts
        assertTrue(plan.expertBufferRows() >= Math.max(8, 4 * 2));
    }

    @Test
    void theDecodePartialsFitEveryBatchTheCapacityAdmits() {
        for (ModelShape m : ModelShape.PRESETS) {
            for (int tp : new int[] {1, 2, 4, 8}) {
                PartitionSpec s = new PartitionSpec(m, tp == 1 ? Plan.SINGLE : Plan.TP, tp, Phase.DECODE, 64, 16, 8192);
                BufferPlan plan = BufferPlan.of(s, StepCapacity.of(s));
                for (int rows = 1; rows <= 64; rows++) {
                    long used = (long) rows * plan.decodeSplits(rows, 8192) * s.qHeadsPerRank();
                    assertTrue(used <= plan.partialRows(), m.name() + " tp " + tp + " rows " + rows);
                }
            }
        }
    }
}
