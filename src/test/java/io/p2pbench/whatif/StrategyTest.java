package io.p2pbench.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.transfer.Sizes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bytes each GPU sends per step, per strategy, against values computed by hand. */
class StrategyTest {
    private static final TrainingModel M70_FP16 = TrainingModel.Preset.DENSE_70B.model(GradientType.FP16);
    private static final long BUCKET = 25 * Sizes.MIB;

    private static double bytes(Strategy s, TrainingModel m, int gpus) {
        return s.step(m, gpus, BUCKET, 1).bytesPerGpu();
    }

    @Test
    void seventyBillionFp16IsOneHundredFortyGigabytesOfGradients() {
        assertEquals(140_000_000_000L, M70_FP16.gradientBytes());
        assertEquals(280_000_000_000L, TrainingModel.Preset.DENSE_70B.model(GradientType.FP32).gradientBytes());
    }

    @Test
    void dataParallelRingAllReduceSendsTwoSevenEighthsOfTheGradientsOnEightGpus() {
        // 2 (n-1)/n x 140 GB = 2 x 7/8 x 140e9 = 245e9 bytes per GPU.
        assertEquals(245e9, bytes(Strategy.DP, M70_FP16, 8), 1e-3);
        // 2 GPUs: 2 x 1/2 x 140e9.
        assertEquals(140e9, bytes(Strategy.DP, M70_FP16, 2), 1e-3);
    }

    @Test
    void dataParallelSplitsTheGradientsIntoBucketsAndALastBucket() {
        List<Strategy.Message> ms = Strategy.DP.step(M70_FP16, 8, BUCKET, 1).messages();
        // 140e9 / 26214400 = 5340 full buckets, 140e9 - 5340 x 26214400 = 15104000 bytes left.
        assertEquals(2, ms.size());
        assertEquals(new Strategy.Message(Comm.ALL_REDUCE, 26_214_400L, 5340, "gradients in buckets"), ms.get(0));
        assertEquals(15_104_000L, ms.get(1).sizeBytes());
        assertEquals(1, ms.get(1).count());
    }

    @Test
    void zeroOneTwoReduceScattersGradientsAndAllGathersParameters() {
        // (n-1)/n x 140e9 each: 122.5e9 + 122.5e9.
        Strategy.Step step = Strategy.ZERO12.step(M70_FP16, 8, BUCKET, 1);
        double rs = step.messages().stream().filter(m -> m.op() == Comm.REDUCE_SCATTER).mapToDouble(m -> m.bytesPerGpu(8)).sum();
        double ag = step.messages().stream().filter(m -> m.op() == Comm.ALL_GATHER).mapToDouble(m -> m.bytesPerGpu(8)).sum();
        assertEquals(122.5e9, rs, 1e-3);
        assertEquals(122.5e9, ag, 1e-3);
        assertEquals(245e9, step.bytesPerGpu(), 1e-3);
    }

    @Test
    void zeroThreeGathersTwiceAndReduceScattersOncePerLayer() {
        // 3 (n-1)/n x 140e9 = 367.5e9; messages of one layer: 140e9 / 80 = 1.75e9 bytes.
        Strategy.Step step = Strategy.ZERO3.step(M70_FP16, 8, BUCKET, 1);
        assertEquals(367.5e9, step.bytesPerGpu(), 1e-3);
        assertEquals(new Strategy.Message(Comm.ALL_GATHER, 1_750_000_000L, 160,
                "one layer's parameters, forward and backward"), step.messages().get(0));
        assertEquals(80, step.messages().get(1).count());
    }

    @Test
    void tensorParallelAllReducesFourActivationsPerLayer() {
        // A = 4096 tokens x 8192 hidden x 2 bytes = 67108864; 80 layers x 4 x 2 x 7/8 x A.
        assertEquals(67_108_864L, M70_FP16.activationBytes());
        assertEquals(80 * 4 * 1.75 * 67_108_864L, bytes(Strategy.TP, M70_FP16, 8), 1e-3);
        assertEquals(37_580_963_840.0, bytes(Strategy.TP, M70_FP16, 8), 1e-3);
    }

    @Test
    void pipelineMiddleStageSendsActivationForwardAndGradientBack() {
        assertEquals(2 * 67_108_864.0, bytes(Strategy.PP, M70_FP16, 8), 1e-9);
        assertEquals(67_108_864.0, bytes(Strategy.PP, M70_FP16, 2), 1e-9, "2 stages: each GPU sends one direction");
        Strategy.Step micro = Strategy.PP.step(M70_FP16, 8, BUCKET, 8);
        assertEquals(2 * 67_108_864.0, micro.bytesPerGpu(), 1e-9, "micro-batches split the messages, not the bytes");
        assertEquals(8 * Sizes.MIB, micro.messages().get(0).sizeBytes());
        assertEquals(16, micro.messages().get(0).count());
    }

    @Test
    void fp32DoublesEveryCount() {
        TrainingModel fp32 = TrainingModel.Preset.DENSE_70B.model(GradientType.FP32);
        for (Strategy s : Strategy.values()) {
            assertEquals(2 * bytes(s, M70_FP16, 8), bytes(s, fp32, 8), 1e-3 * bytes(s, fp32, 8) * 1e-9, s.name());
        }
    }

    @Test
    void strategiesThatNeedTheShapeSayWhichOptionIsMissing() {
        TrainingModel bare = new TrainingModel("custom", 70_000_000_000L, 0, 0, 0, GradientType.BF16);
        assertEquals(245e9, bytes(Strategy.DP, bare, 8), 1e-3, "data parallel needs only the parameter count");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bytes(Strategy.ZERO3, bare, 8));
        assertTrue(e.getMessage().contains("--layers"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> bytes(Strategy.PP, bare, 8));
        assertTrue(e.getMessage().contains("--hidden"), e.getMessage());
    }

    @Test
    void namesAndAliasesParse() {
        assertEquals(Strategy.ZERO12, Strategy.parse("zero-1"));
        assertEquals(Strategy.ZERO12, Strategy.parse("ZeRO2"));
        assertEquals(Strategy.ZERO3, Strategy.parse("fsdp"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Strategy.parse("EP"));
        assertTrue(e.getMessage().contains("'EP'") && e.getMessage().contains("DP, ZERO1"), e.getMessage());
        assertEquals(70_000_000_000L, TrainingModel.parseParams("70B"));
        assertEquals(6_700_000_000L, TrainingModel.parseParams("6.7b"));
        assertEquals(350_000_000L, TrainingModel.parseParams("350M"));
        assertThrows(IllegalArgumentException.class, () -> TrainingModel.parseParams("-5B"));
        assertThrows(IllegalArgumentException.class, () -> TrainingModel.parseParams("0"));
    }

    /** What a GPU holds at least, in parameters and gradients: 70B in FP16 on 8 GPUs. */
    @Test
    void stateHeldPerGpuIsAWholeReplicaForDataParallelAndAShardForZero3() {
        assertEquals(280e9, Strategy.DP.stateBytesPerGpu(M70_FP16, 8), 1e-3);
        assertEquals(140e9 + 140e9 / 8, Strategy.ZERO12.stateBytesPerGpu(M70_FP16, 8), 1e-3);
        for (Strategy s : List.of(Strategy.ZERO3, Strategy.TP, Strategy.PP)) {
            assertEquals(35e9, s.stateBytesPerGpu(M70_FP16, 8), 1e-3, s.label());
        }
    }
}
