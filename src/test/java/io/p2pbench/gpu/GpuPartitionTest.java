package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.GemmMismatchException;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.PartitionStep;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.StepBreakdown;
import io.p2pbench.partition.Transport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * One small step per plan on the group 0,0 (every code path on one GPU; EP on MOE_8X_TOP2, the
 * others on DENSE_8B), eager and as CUDA graphs, P2P and host-staged: it runs, and its compute +
 * exposed communication + wait account for the instrumented step's device time within 5%; its check
 * ({@link PartitionStep#verify}) passes, counting more than every GEMM sample, boundary copy,
 * all-reduce output and EP dispatch and combine word (the forward kernels' checked outputs come on
 * top), and the same again when repeated; with the corruption hook a wrong GEMM output fails it.
 * Figures are not judged.
 */
@RequiresGpu
class GpuPartitionTest {
    private static final long CHUNK = 4L << 20;

    @TestFactory
    List<DynamicTest> everyPlanAccountsForItsStep() {
        Group group = Group.parse("0,0");
        List<DynamicTest> tests = new ArrayList<>();
        for (Plan plan : new Plan[] {Plan.SINGLE, Plan.TP, Plan.PP, Plan.EP}) {
            ModelShape model = plan == Plan.EP ? ModelShape.MOE_8X_TOP2 : ModelShape.DENSE_8B;
            for (Phase phase : Phase.values()) {
                for (Transport transport : new Transport[] {Transport.P2P, Transport.HOST_STAGED}) {
                    for (boolean graph : new boolean[] {false, true}) {
                        int ranks = plan == Plan.SINGLE ? 1 : 2;
                        PartitionSpec spec = new PartitionSpec(model, plan, ranks, phase, 2, 256, 512);
                        tests.add(DynamicTest.dynamicTest(spec.label() + " " + transport + (graph ? " graph" : " eager"),
                                () -> check(spec, group, transport, graph)));
                    }
                }
            }
        }
        return tests;
    }

    @Test
    void aWrongGemmOutputFailsTheCheck() {
        PartitionSpec spec = new PartitionSpec(ModelShape.DENSE_8B, Plan.SINGLE, 1, Phase.DECODE, 2, 256, 512);
        try (PartitionStep step = new PartitionStep(spec, Group.parse("0"), Transport.P2P, false, CHUNK)) {
            step.deviceMicrosPerStep(1);
            System.setProperty("p2pbench.test.corrupt", "true");
            try {
                GemmMismatchException e = assertThrows(GemmMismatchException.class, step::verify);
                assertTrue(e.getMessage().contains("qkv"), e.getMessage());
            } finally {
                System.clearProperty("p2pbench.test.corrupt");
            }
            assertTrue(step.verify() > 0);
        }
    }

    private static void check(PartitionSpec spec, Group group, Transport transport, boolean graph) {
        try (PartitionStep step = new PartitionStep(spec, group, transport, graph, CHUNK)) {
            step.deviceMicrosPerStep(2); // warm-up: cuBLAS heuristics, first launches
            step.breakdown();
            StepBreakdown b = step.breakdown();
            double plain = step.deviceMicrosPerStep(3);
            String what = spec.label() + " " + transport + (graph ? " graph" : " eager") + ": " + b + ", plain step "
                    + plain + " us";
            assertTrue(b.computeUs() > 0, what);
            assertTrue(b.stepUs() > 0 && plain > 0, what);
            assertTrue(Math.abs(b.unaccountedUs()) <= 0.05 * b.stepUs(), "compute + comm + wait do not account for the step: "
                    + what);
            if (spec.plan() != Plan.SINGLE) {
                assertTrue(b.commUs() > 0, "no communication measured: " + what);
            }
            long host = step.hostNanosPerStep();
            assertTrue(host > 0, what);
            long verified = step.verify();
            long gemmBytes = gemmBytes(spec);
            long exchanged = switch (spec.plan()) {
                case PP -> (spec.ranks() - 1) * spec.activationBytes();
                case TP -> spec.ranks() * spec.activationBytes();
                case EP -> 2 * crossingTokens(spec) * spec.model().hidden() * 2; // dispatch and combine
                case SINGLE -> 0;
            };
            assertTrue(verified > gemmBytes + exchanged, "bytes verified: " + what + ": " + verified + " against GEMMs "
                    + gemmBytes + " and exchanges " + exchanged);
            step.deviceMicrosPerStep(1); // the step still runs after its buffers were checked
            assertEquals(2 * verified, verified + step.verify(), "second check: " + what);
        }
    }

    /** GEMM samples checked per verify: every layer GEMM (first and last expert of a batched one) on every rank, the LM head once per last stage. */
    private static long gemmBytes(PartitionSpec spec) {
        long perRank = 0;
        for (var g : spec.layerGemms()) {
            perRank += g.count() > 1 ? 2 : 1;
        }
        long heads = spec.plan() == Plan.PP ? 1 : spec.ranks();
        return (perRank * spec.ranks() + heads) * PartitionStep.GEMM_SAMPLES * 2;
    }

    /** Routed tokens that leave their rank in one EP dispatch. */
    private static long crossingTokens(PartitionSpec spec) {
        long[][] counts = spec.routedTokens();
        long crossing = 0;
        for (int s = 0; s < counts.length; s++) {
            for (int d = 0; d < counts.length; d++) {
                crossing += s == d ? 0 : counts[s][d];
            }
        }
        return crossing;
    }
}
