package io.p2pbench.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.ModelShape;
import org.junit.jupiter.api.Test;

/** Plan arithmetic on the CPU: divisibility errors, memory per GPU, bytes per boundary, GEMM shapes. */
class PartitionSpecTest {
    private static final long GIB = 1L << 30;
    /** An H200's memory as the topology reports it (139.8 GiB). */
    private static final long H200 = 150_110_011_392L;

    private static PartitionSpec decode(ModelShape m, Plan plan, int ranks, int batch) {
        return new PartitionSpec(m, plan, ranks, Phase.DECODE, batch, 2048, 4096);
    }

    @Test
    void tpDegreeNotDividingHeadsNamesTheValueAndWhatDivides() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> decode(ModelShape.DENSE_8B, Plan.TP, 3, 1).requireDivides());
        assertEquals("plan TP over 3 ranks does not divide DENSE_8B (32 attention heads, 8 KV heads, FFN 14336, "
                + "vocabulary 128256); use a TP degree that divides them all: 1, 2, 4, 8", e.getMessage());
        decode(ModelShape.DENSE_8B, Plan.TP, 8, 1).requireDivides();
    }

    @Test
    void moreStagesThanLayersAndMoreExpertsRanksAreRefused() {
        IllegalArgumentException pp = assertThrows(IllegalArgumentException.class,
                () -> decode(ModelShape.DENSE_8B, Plan.PP, 33, 1).requireDivides());
        assertEquals("plan PP over 33 stages exceeds DENSE_8B's 32 layers; use at most 32 stages", pp.getMessage());
        IllegalArgumentException ep = assertThrows(IllegalArgumentException.class,
                () -> decode(ModelShape.MOE_8X_TOP2, Plan.EP, 16, 1).requireDivides());
        assertEquals("plan EP over 16 ranks does not divide MOE_8X_TOP2's 8 experts; use an EP degree that divides "
                + "them: 1, 2, 4, 8", ep.getMessage());
        IllegalArgumentException dense = assertThrows(IllegalArgumentException.class,
                () -> decode(ModelShape.DENSE_8B, Plan.EP, 2, 1).requireDivides());
        assertTrue(dense.getMessage().startsWith("plan EP needs experts, but DENSE_8B is dense"), dense.getMessage());
    }

    @Test
    void stagesSplitLayersEvenlyFirstStagesTakingTheRemainder() {
        PartitionSpec s = decode(ModelShape.DENSE_70B, Plan.PP, 3, 1);
        assertEquals(27, s.layersOfStage(0));
        assertEquals(27, s.layersOfStage(1));
        assertEquals(26, s.layersOfStage(2));
    }

    @Test
    void weightsOfAnEightBillionModelAreAboutSixteenGigabytes() {
        PartitionSpec s = decode(ModelShape.DENSE_8B, Plan.SINGLE, 1, 1);
        // Llama-3-8B: 8.03e9 parameters in bf16
        double params = (32.0 * s.weightBytesPerLayer() + s.embeddingBytesPerRank()) / 2;
        assertEquals(8.03e9, params, 0.01e9);
        // KV: 32 layers x 2 x 8 heads x 128 x 2 B x 4096 tokens = 512 MiB per sequence
        assertEquals(512L << 20, 32 * s.kvBytesPerLayer());
        assertNull(s.doesNotFit(H200));
    }

    @Test
    void seventyBillionDoesNotFitOneGpuAtBatchEightButFitsOverTwo() {
        PartitionSpec single = decode(ModelShape.DENSE_70B, Plan.SINGLE, 1, 8);
        String why = single.doesNotFit(H200);
        assertNotNull(why);
        assertTrue(why.startsWith("does not fit: DENSE_70B SINGLE over 1 GPU needs 14"), why);
        assertTrue(why.endsWith("GPU has 139.8 GiB"), why);
        assertNull(decode(ModelShape.DENSE_70B, Plan.TP, 2, 8).doesNotFit(H200));
        assertNull(decode(ModelShape.DENSE_70B, Plan.PP, 2, 8).doesNotFit(H200));
        assertTrue(decode(ModelShape.DENSE_70B, Plan.TP, 2, 8).memoryPerGpu() < single.memoryPerGpu() / 2 + GIB);
    }

    @Test
    void bytesPerBoundaryFollowThePlan() {
        PartitionSpec tp = new PartitionSpec(ModelShape.DENSE_8B, Plan.TP, 4, Phase.PREFILL, 2, 1024, 4096);
        assertEquals(2L * 1024 * 4096 * 2, tp.bytesPerBoundary()); // [batch x prompt x hidden] bf16, summed by each all-reduce
        assertEquals(64, tp.boundariesPerStep());
        PartitionSpec pp = decode(ModelShape.DENSE_8B, Plan.PP, 4, 8);
        assertEquals(8L * 4096 * 2, pp.bytesPerBoundary());
        assertEquals(3, pp.boundariesPerStep());
        PartitionSpec ep = decode(ModelShape.MOE_8X_TOP2, Plan.EP, 4, 8);
        // 2 tokens per rank, each to 2 experts, 3 of 4 ranks remote: ceil(4 x 3 / 4) = 3 token copies
        assertEquals(3L * 4096 * 2, ep.bytesPerBoundary());
        assertEquals(0, decode(ModelShape.DENSE_8B, Plan.SINGLE, 1, 8).bytesPerBoundary());
    }

    @Test
    void expertParallelRoutesEveryTokenAndSizesItsExchangeBuffers() {
        // prefill, batch 2 x 256 tokens over 2 ranks: 256 tokens per rank, 512 routed, half stay, half cross
        PartitionSpec ep = new PartitionSpec(ModelShape.MOE_8X_TOP2, Plan.EP, 2, Phase.PREFILL, 2, 256, 512);
        long[][] counts = ep.routedTokens();
        assertEquals(256, ep.rankTokens());
        assertEquals(256, counts[0][1]);
        assertEquals(256, counts[1][0]);
        assertEquals(256L * 4096 * 2, ep.dispatchBytesPerRank());
        assertEquals(128, ep.tokensPerExpert()); // 512 tokens x top-2 over 8 experts
        assertEquals(512, ep.receiveRows());
        assertEquals(2L * (512 + 512) * 4096 * 2, ep.exchangeBufferBytes());
        assertEquals("[qkv 256x4096x6144, out 256x4096x4096, router 256x4096x8, "
                + "gate_up 128x4096x28672 (x4), down 128x14336x4096 (x4)]", ep.layerGemms().toString());
        // the exchange buffers count towards the memory per GPU
        PartitionSpec single = new PartitionSpec(ModelShape.MOE_8X_TOP2, Plan.SINGLE, 1, Phase.PREFILL, 2, 256, 512);
        assertEquals(0, single.exchangeBufferBytes());
        assertEquals(0, single.receiveRows());
        // decode over 8 ranks: one token each, the experts' GEMMs still read ceil(8 x 2 / 8) rows
        PartitionSpec wide = decode(ModelShape.MOE_8X_TOP2, Plan.EP, 8, 8);
        assertEquals(3, wide.receiveRows());
        assertEquals(2, wide.tokensPerExpert());
        assertEquals(2L * 4096 * 2, wide.dispatchBytesPerRank()); // both routed tokens of rank 0 cross
        assertEquals(0, decode(ModelShape.MOE_8X_TOP2, Plan.EP, 1, 8).dispatchBytesPerRank());
    }

    @Test
    void tensorParallelSplitsEveryGemmsColumnsOrInner() {
        PartitionSpec s = decode(ModelShape.DENSE_8B, Plan.TP, 2, 4);
        assertEquals("[qkv 4x4096x3072, out 4x2048x4096, gate_up 4x4096x14336, down 4x7168x4096]",
                s.layerGemms().toString());
        PartitionSpec moe = decode(ModelShape.MOE_8X_TOP2, Plan.SINGLE, 1, 8);
        assertEquals("router 8x4096x8", moe.layerGemms().get(2).toString());
        assertEquals("gate_up 2x4096x28672 (x8)", moe.layerGemms().get(3).toString());
    }

    @Test
    void theLmHeadTakesEachSequencesLastTokenAndItsVocabularyShare() {
        PartitionSpec prefill = new PartitionSpec(ModelShape.DENSE_8B, Plan.TP, 2, Phase.PREFILL, 8, 2048, 4096);
        assertEquals("lm_head 8x4096x64128", prefill.headGemm().toString());
        assertEquals(64128L * 4096 * 2, prefill.headBytesPerRank());
        assertEquals("lm_head 4x4096x32000", decode(ModelShape.MOE_8X_TOP2, Plan.EP, 2, 8).headGemm().toString());
    }

    @Test
    void attentionFlopsAreCausalInPrefillAndTheWholeContextInDecode() {
        PartitionSpec prefill = new PartitionSpec(ModelShape.DENSE_8B, Plan.SINGLE, 1, Phase.PREFILL, 2, 4, 4096);
        // query i sees i + 1 keys: 1 + 2 + 3 + 4 = 10 pairs per sequence and head, 4 x 128 FLOPs each, 32 heads
        assertEquals(2 * 10 * 4.0 * 128 * 32, prefill.attentionFlopsPerLayer());
        PartitionSpec tp = decode(ModelShape.DENSE_8B, Plan.TP, 4, 8);
        assertEquals(8 * 4096 * 4.0 * 128 * 8, tp.attentionFlopsPerLayer());
        double gemms = tp.layerGemms().stream().mapToDouble(GemmShape::flops).sum();
        assertEquals(gemms + tp.attentionFlopsPerLayer(), tp.flopsPerLayer());
    }

    @Test
    void aHeadSizeTheKernelsDoNotTakeIsRefusedWithWhatTheyTake() {
        ModelShape odd = new ModelShape("ODD", 4096, 4096, 1, ModelShape.DENSE_8B.dtype(), 0, 0, 32, 14336, 64, 8, 32000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> decode(odd, Plan.SINGLE, 1, 1).requireDivides());
        assertEquals("ODD has head size 64 and 64 query heads over 8 KV heads; the step's attention kernels take head "
                + "size 128 and 1, 2, 4 or 8 query heads per KV head", e.getMessage());
    }

    @Test
    void theWorkspaceCountsTheBuffersTheStepAllocates() {
        PartitionSpec s = decode(ModelShape.DENSE_8B, Plan.SINGLE, 1, 8);
        BufferPlan plan = BufferPlan.of(s, StepCapacity.of(s));
        assertEquals(s.kvBytesPerLayer(), plan.kvBytesPerLayer());
        // decode at batch 8: activations are small; the cuBLAS workspace (32 MiB) dominates
        assertTrue(s.workspaceBytes() > 32L << 20 && s.workspaceBytes() < 64L << 20, Long.toString(s.workspaceBytes()));
        PartitionSpec prefill = new PartitionSpec(ModelShape.DENSE_8B, Plan.SINGLE, 1, Phase.PREFILL, 8, 2048, 4096);
        // 16384 tokens: the gate_up output alone is 16384 x 28672 bf16 = 0.94 GB
        assertTrue(prefill.workspaceBytes() > 16384L * 28672 * 2, Long.toString(prefill.workspaceBytes()));
    }

    @Test
    void elementwiseBytesCountTheNormsRotaryAndSiluTraffic() {
        PartitionSpec dense = new PartitionSpec(ModelShape.DENSE_8B, Plan.SINGLE, 1, Phase.PREFILL, 1, 2, 4096);
        // 2 tokens: norms 8 x 4096, rotary 2 x 6144, SiLU 3 x 14336 values per token, bf16
        assertEquals(2L * (8 * 4096 + 2 * 6144 + 3 * 14336) * 2, dense.elementwiseBytesPerLayer());
        PartitionSpec moe = new PartitionSpec(ModelShape.MOE_8X_TOP2, Plan.SINGLE, 1, Phase.PREFILL, 1, 4, 4096);
        // 4 tokens, 8 routed: SiLU on 8 experts x 1 row, gather 2 x 8 rows, combine 8 + 4 rows of 4096
        assertEquals((4L * (8 * 4096 + 2 * 6144) + 3L * 14336 * 8 + 2L * 8 * 4096 + 12L * 4096) * 2,
                moe.elementwiseBytesPerLayer());
    }
}
