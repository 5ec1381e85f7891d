package io.p2pbench.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import org.junit.jupiter.api.Test;

/** KV capacity from free memory (PartitionSpec's arithmetic) and the step model's figures. */
class KvCapacityTest {
    private static final long GIB = 1L << 30;
    private static final long H200 = 150_754_820_096L; // what the committed H200 topologies record
    private static final Group ONE = Group.parse("0");
    private static final Group SHARED = Group.parse("0,0");
    private static final Group TWO = Group.parse("0,1");

    @Test
    void singleHoldsWhatIsLeftBesideWeightsAndBuffersByHand() {
        ModelShape m = ModelShape.DENSE_8B;
        BatchPolicy p = BatchPolicy.DEFAULT;
        KvCapacity kv = KvCapacity.of(m, Plan.SINGLE, ONE, p, d -> H200);
        PartitionSpec decode = new PartitionSpec(m, Plan.SINGLE, 1, Phase.DECODE, 256, 1, 1);
        PartitionSpec prefill = new PartitionSpec(m, Plan.SINGLE, 1, Phase.PREFILL, 1, 8192, 1);
        long fixed = 32 * decode.weightBytesPerLayer() + decode.embeddingBytesPerRank()
                + Math.max(decode.workspaceBytes(), prefill.workspaceBytes());
        long perToken = 32L * 2 * 8 * 128 * 2; // layers x K and V x KV heads x head size x bf16: 128 KiB
        assertEquals(128 * 1024, perToken);
        assertEquals((H200 - PartitionSpec.RESERVE_BYTES - fixed) / perToken, kv.tokens());
        assertNull(kv.shortfall());
        assertTrue(kv.tokens() > 950_000 && kv.tokens() < 1_050_000, "about 122 GiB of KV: " + kv.tokens());
        assertEquals(kv.tokens() / 1024, kv.sequencesAt(1024));
        assertEquals(kv.tokens() / 256, kv.contextAt(256));
    }

    @Test
    void ranksSharingAGpuShareItsMemoryAndTpOnTwoGpusHoldsMore() {
        ModelShape m = ModelShape.DENSE_8B;
        KvCapacity single = KvCapacity.of(m, Plan.SINGLE, ONE, BatchPolicy.DEFAULT, d -> H200);
        KvCapacity shared = KvCapacity.of(m, Plan.TP, SHARED, BatchPolicy.DEFAULT, d -> H200);
        KvCapacity two = KvCapacity.of(m, Plan.TP, TWO, BatchPolicy.DEFAULT, d -> H200);
        // TP x2 on one GPU: each rank half the weights and half the KV heads on half the memory: about SINGLE's
        assertEquals(single.tokens(), shared.tokens(), 0.02 * single.tokens());
        // on two GPUs: twice the memory for the same weights
        assertTrue(two.tokens() > 2.1 * single.tokens(), two.tokens() + " vs " + single.tokens());
        KvCapacity pp = KvCapacity.of(m, Plan.PP, TWO, BatchPolicy.DEFAULT, d -> H200);
        assertTrue(pp.tokens() > 2 * single.tokens(), "each stage holds half the layers' KV");
    }

    @Test
    void expertParallelRanksHoldWholeSequencesSoThePlanHoldsTheirSum() {
        ModelShape m = ModelShape.MOE_8X_TOP2;
        KvCapacity ep = KvCapacity.of(m, Plan.EP, TWO, BatchPolicy.DEFAULT, d -> H200);
        PartitionSpec spec = new PartitionSpec(m, Plan.EP, 2, Phase.DECODE, 256, 1, 1);
        PartitionSpec prefill = new PartitionSpec(m, Plan.EP, 2, Phase.PREFILL, 1, 8192, 1);
        long fixed = 32 * spec.weightBytesPerLayer() + spec.embeddingBytesPerRank()
                + Math.max(spec.workspaceBytes(), prefill.workspaceBytes());
        assertEquals(2 * ((H200 - PartitionSpec.RESERVE_BYTES - fixed) / (128 * 1024)), ep.tokens());
    }

    @Test
    void aModelThatDoesNotFitSaysWhatItNeedsAndWhatIsFree() {
        KvCapacity kv = KvCapacity.of(ModelShape.DENSE_8B, Plan.SINGLE, ONE, BatchPolicy.DEFAULT, d -> 8 * GIB);
        assertEquals(0, kv.tokens());
        assertEquals("does not fit: DENSE_8B SINGLE over 1 GPU needs 16.0 GiB per rank (weights, embeddings, buffers) "
                + "+ 2 GiB reserve per GPU, GPU0 has 8.0 GiB free", kv.shortfall());
        assertTrue(!kv.fits(1));
        // 70B in bf16 on one H200: 131 GiB of weights and embeddings leave KV for about 16k tokens (320 KiB each)
        KvCapacity tight = KvCapacity.of(ModelShape.DENSE_70B, Plan.SINGLE, ONE, BatchPolicy.DEFAULT, d -> H200);
        assertTrue(tight.tokens() > 10_000 && tight.tokens() < 25_000, "tokens " + tight.tokens());
        assertEquals(80L * 2 * 8 * 128 * 2, tight.kvBytesPerToken());
        KvCapacity shared = KvCapacity.of(ModelShape.DENSE_70B, Plan.TP, SHARED, BatchPolicy.DEFAULT, d -> 80 * GIB);
        assertTrue(shared.shortfall().contains("for 2 ranks"), shared.shortfall());
        assertTrue(KvCapacity.of(ModelShape.DENSE_70B, Plan.TP, Group.parse("0,1,2,3"), BatchPolicy.DEFAULT,
                d -> H200).tokens() > 50 * tight.tokens());
    }

    @Test
    void theStepModelReadsWeightsOnceAndKvPerToken() {
        StepCostModel single = new StepCostModel(ModelShape.DENSE_8B, Plan.SINGLE, 1, 1);
        // the decode step, batch 8 at 4096 cached tokens: 4.69 ms measured for the partition step, which
        // has no LM head; the model adds it (1 GB of weights at 4 TB/s)
        long decode = single.nanos(new StepShape(8, 8L * 4096, 0, 0, 0));
        assertTrue(decode > 4_600_000 && decode < 5_200_000, "decode " + decode);
        // prefill of 8 x 2048 tokens: 0.30 s measured
        long prefill = single.nanos(new StepShape(0, 0, 8, 8 * 2048, 0));
        assertTrue(prefill > 290_000_000 && prefill < 330_000_000, "prefill " + prefill);
        // two ranks on one GPU run one after the other: no faster; PP the same layers in sequence
        StepCostModel tpShared = new StepCostModel(ModelShape.DENSE_8B, Plan.TP, 2, 1);
        StepCostModel tpTwo = new StepCostModel(ModelShape.DENSE_8B, Plan.TP, 2, 2);
        StepShape s = new StepShape(64, 64L * 600, 1, 512, 0);
        assertEquals(single.nanos(s), tpShared.nanos(s), 0.03 * single.nanos(s));
        assertTrue(tpTwo.nanos(s) < 0.6 * single.nanos(s));
    }
}
