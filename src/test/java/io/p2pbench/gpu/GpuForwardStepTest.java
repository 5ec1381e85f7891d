package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.KernelMismatchException;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.PartitionStep;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.StepBatch;
import io.p2pbench.partition.StepKernel;
import io.p2pbench.partition.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The forward step's kernels on one GPU, dense and mixture of experts, on a step that decodes and
 * prefills a chunk with cached context at once (both attention kernels): its check passes; for
 * every kernel kind the corruption hook's wrong element fails the check naming the kind; steps of
 * other shapes run, and the per-kernel breakdown covers every kind the step runs. Figures are not
 * judged.
 */
@RequiresGpu
class GpuForwardStepTest {
    private static final long CHUNK = 4L << 20;
    private static final String CORRUPT = "p2pbench.test.corrupt";

    private static PartitionStep mixedStep(ModelShape model) {
        PartitionSpec spec = new PartitionSpec(model, Plan.SINGLE, 1, Phase.DECODE, 4, 1, 600);
        return PartitionStep.forLimits(spec, 4, 320, 600, Group.parse("0"), Transport.P2P, false, CHUNK, new int[0]);
    }

    @TestFactory
    List<DynamicTest> everyKernelCheckCatchesAWrongElement() {
        List<DynamicTest> tests = new ArrayList<>();
        for (ModelShape model : List.of(ModelShape.DENSE_8B, ModelShape.MOE_8X_TOP2)) {
            tests.add(DynamicTest.dynamicTest(model.name(), () -> {
                try (PartitionStep step = mixedStep(model)) {
                    assertTrue(step.verify() > 0);
                    List<StepKernel> kinds = new ArrayList<>(List.of(StepKernel.EMBED, StepKernel.NORM,
                            StepKernel.ROTARY_CACHE, StepKernel.ATTENTION, StepKernel.SILU_MUL, StepKernel.LM_HEAD));
                    if (model.experts() > 0) {
                        kinds.addAll(List.of(StepKernel.ROUTER, StepKernel.EXPERT_GATHER, StepKernel.EXPERT_COMBINE));
                    }
                    for (StepKernel kind : kinds) {
                        System.setProperty(CORRUPT, kind.name());
                        try {
                            KernelMismatchException e = assertThrows(KernelMismatchException.class, step::verify, kind.name());
                            assertTrue(e.getMessage().contains("forward check failed for " + kind + " on rank 0"),
                                    e.getMessage());
                        } finally {
                            System.clearProperty(CORRUPT);
                        }
                    }
                    long again = step.verify();
                    assertEquals(again, step.verify());
                }
            }));
        }
        return tests;
    }

    @Test
    void stepsOfOtherShapesRunAndTheBreakdownCoversEveryKind() {
        try (PartitionStep step = mixedStep(ModelShape.MOE_8X_TOP2)) {
            for (StepBatch b : List.of(new StepBatch(1, 1, 0, 0, 0), new StepBatch(4, 2400, 0, 0, 0),
                    new StepBatch(0, 0, 1, 320, 0), new StepBatch(0, 0, 2, 280, 300), new StepBatch(3, 900, 1, 64, 500))) {
                assertTrue(step.deviceMicros(b) > 0, b.toString());
            }
            assertThrows(IllegalArgumentException.class, () -> step.deviceMicros(new StepBatch(5, 5, 0, 0, 0)));
            assertThrows(IllegalArgumentException.class, () -> step.deviceMicros(new StepBatch(1, 601, 0, 0, 0)));
            Map<StepKernel, Double> kernels = step.kernelMicros().get(0);
            for (StepKernel k : StepKernel.values()) {
                assertTrue(kernels.getOrDefault(k, 0.0) > 0, k + " missing from " + kernels);
            }
            assertTrue(step.verify() > 0); // still right after steps of other shapes
        }
    }
}
