package io.p2pbench.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.cuda.Nccl.DataType;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ring schedule, nccl-tests' busbw formulas and the model-shape arithmetic: no GPU needed. */
class CollectiveUnitsTest {

    /**
     * Runs the schedule on sets of contributions: rank r starts with chunk c = {r}; a reduce-scatter
     * transfer adds the sender's set to the receiver's chunk, an all-gather transfer replaces it.
     * After the schedule every rank must hold every rank's contribution in every chunk.
     */
    @Test
    void theRingScheduleSumsEveryChunkOnEveryRankForTwoToEightRanks() {
        for (int n = 2; n <= 8; n++) {
            List<RingSchedule.Step> steps = RingSchedule.steps(n);
            assertEquals(2 * (n - 1), steps.size());
            long[][] held = new long[n][n]; // bit q set: rank q's contribution is in
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < n; c++) {
                    held[r][c] = 1L << r;
                }
            }
            for (RingSchedule.Step step : steps) {
                long[][] before = new long[n][];
                for (int r = 0; r < n; r++) {
                    before[r] = held[r].clone();
                }
                Set<Integer> senders = new HashSet<>();
                for (RingSchedule.Transfer t : step.transfers()) {
                    assertEquals((t.sender() + 1) % n, t.receiver());
                    assertTrue(senders.add(t.sender()), "each rank sends once per step");
                    long incoming = before[t.sender()][t.chunk()];
                    if (step.phase() == RingSchedule.Phase.REDUCE_SCATTER) {
                        assertEquals(0, incoming & held[t.receiver()][t.chunk()] & ~before[t.receiver()][t.chunk()]);
                        assertEquals(0, incoming & before[t.receiver()][t.chunk()], "no contribution is added twice");
                        held[t.receiver()][t.chunk()] |= incoming;
                    } else {
                        assertEquals((1L << n) - 1, incoming, "all-gather passes on only complete chunks");
                        held[t.receiver()][t.chunk()] = incoming;
                    }
                }
                if (step.index() == n - 2) {
                    for (int r = 0; r < n; r++) {
                        assertEquals((1L << n) - 1, held[r][RingSchedule.ownedAfterReduceScatter(r, n)],
                                "n=" + n + ": rank " + r + " owns its chunk after the reduce-scatter");
                    }
                }
            }
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < n; c++) {
                    assertEquals((1L << n) - 1, held[r][c], "n=" + n + " rank " + r + " chunk " + c);
                }
            }
        }
    }

    @Test
    void aRingOfOneIsRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RingSchedule.steps(1)).getMessage()
                .contains("at least 2 ranks"));
    }

    @Test
    void busBandwidthFollowsNcclTests() {
        assertEquals(1.5, Operation.ALL_REDUCE.factor(4), 1e-12);     // 2(n-1)/n
        assertEquals(1.75, Operation.ALL_REDUCE.factor(8), 1e-12);
        assertEquals(0.0, Operation.ALL_REDUCE.factor(1), 1e-12);
        assertEquals(0.75, Operation.ALL_GATHER.factor(4), 1e-12);    // (n-1)/n
        assertEquals(0.875, Operation.REDUCE_SCATTER.factor(8), 1e-12);
        assertEquals(0.5, Operation.ALL_TO_ALL.factor(2), 1e-12);
        // 1 GB in 5 ms: algbw 200 GB/s; 8 ranks all-reduce: busbw 350 GB/s
        assertEquals(200.0, BusBandwidth.algGbps(1_000_000_000L, 5_000_000), 1e-9);
        assertEquals(350.0, BusBandwidth.busGbps(Operation.ALL_REDUCE, 8, 1_000_000_000L, 5_000_000), 1e-9);
    }

    @Test
    void modelShapesGiveActivationSizes() {
        assertEquals(4096L * 4096 * 2, ModelShape.DENSE_8B.activationBytes()); // 32 MiB
        assertEquals(4096L * 8192 * 2, ModelShape.DENSE_70B.activationBytes()); // 64 MiB
        assertEquals(8192, ModelShape.MOE_8X_TOP2.tokenBytes());
        assertEquals(ModelShape.DENSE_70B, ModelShape.named("dense_70b"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ModelShape.named("GPT5")).getMessage()
                .contains("unknown model preset 'GPT5'"));
    }

    @Test
    void routingSpreadsEveryTokenAndHonoursTheSkew() {
        long routed = ModelShape.MOE_8X_TOP2.tokens() * 2;
        long[][] uniform = ModelShape.MOE_8X_TOP2.routedTokens(4, 0.25);
        for (long[] row : uniform) {
            assertEquals(routed, java.util.Arrays.stream(row).sum());
            assertArrayEquals(new long[] {2048, 2048, 2048, 2048}, row);
        }
        long[][] hot = ModelShape.MOE_8X_TOP2.routedTokens(4, 0.7);
        for (long[] row : hot) {
            assertEquals(routed, java.util.Arrays.stream(row).sum());
            assertEquals(Math.round(routed * 0.7), row[0]);
            assertTrue(Math.abs(row[1] - row[3]) <= 1, "the rest spread evenly");
        }
        assertThrows(IllegalArgumentException.class, () -> ModelShape.DENSE_8B.routedTokens(4, 0.25));
        assertThrows(IllegalArgumentException.class, () -> ModelShape.MOE_8X_TOP2.routedTokens(4, 1.5));
    }

    @Test
    void routingOfAFewTokensSpreadsTheRemaindersOverTheRanks() {
        // one decode token per rank, top-2, 8 ranks: round(2/8) = 0 to rank 0, two remainders per sender
        long[][] few = ModelShape.MOE_8X_TOP2.routedTokens(1, 8, 1.0 / 8);
        assertArrayEquals(new long[] {0, 1, 1, 0, 0, 0, 0, 0}, few[0]);
        assertArrayEquals(new long[] {0, 0, 1, 1, 0, 0, 0, 0}, few[1]);
        assertArrayEquals(new long[] {0, 1, 0, 0, 0, 0, 0, 1}, few[6]);
        assertArrayEquals(new long[] {0, 1, 1, 0, 0, 0, 0, 0}, few[7]);
        long[] received = new long[8];
        for (long[] row : few) {
            assertEquals(2, java.util.Arrays.stream(row).sum());
            for (int d = 0; d < 8; d++) {
                received[d] += row[d];
            }
        }
        for (int d = 1; d < 8; d++) {
            assertTrue(received[d] >= 2 && received[d] <= 3, "rank " + d + " receives " + received[d]);
        }
    }

    @Test
    void groupsParseRepeatAndNameWhatIsWrong() {
        Group g = Group.parse("0,0,0,0");
        assertEquals(4, g.size());
        assertTrue(g.repeatsDevices());
        assertTrue(g.singleGpu());
        assertFalse(Group.parse("0, 1,2 ,3").repeatsDevices());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Group.parse("0;1")).getMessage()
                .contains("group '0;1' is malformed"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Group.parse("0,5").requireWithin(1))
                .getMessage().contains("names GPU 5"));
    }

    @Test
    void shapesTheAlgorithmsCannotSplitAreRefused() {
        Group four = Group.parse("0,0,0,0");
        RingAllReduce.requireShape(four, DataType.FLOAT32, 1 << 20);
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> RingAllReduce.requireShape(Group.parse("0,0,0"), DataType.FLOAT32, 1 << 20)).getMessage()
                .contains("multiple of 12 bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> RingAllReduce.requireShape(Group.parse("0"), DataType.FLOAT32, 1 << 20)).getMessage()
                .contains("at least 2 ranks"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> NcclCollective.requireShape(four, Operation.ALL_REDUCE, DataType.FLOAT32, 1 << 20)).getMessage()
                .contains("NCCL needs distinct GPUs"));
        NcclCollective.requireShape(Group.parse("0"), Operation.ALL_GATHER, DataType.BFLOAT16, 2);
    }

    @Test
    void theCpuReferenceMatchesTheKernelsFormulaAndBounds() {
        // float32 inputs are multiples of 2^-16 in [-0.5, 0.5); bfloat16 ones multiples of 2^-8
        for (long i = 0; i < 1000; i++) {
            double f = Reference.value(DataType.FLOAT32, 3, i);
            double b = Reference.value(DataType.BFLOAT16, 3, i);
            assertTrue(f >= -0.5 && f < 0.5 && f * 65536 == Math.rint(f * 65536));
            assertTrue(b >= -0.5 && b < 0.5 && b * 256 == Math.rint(b * 256));
        }
        assertEquals(0.0, Reference.bound(DataType.FLOAT32, 8, 3.0));
        assertEquals(4 * 2.0 / 256, Reference.bound(DataType.BFLOAT16, 4, 2.0), 1e-15);
        assertEquals(1.0f, Reference.bf16ToFloat((short) 0x3F80));
    }
}
