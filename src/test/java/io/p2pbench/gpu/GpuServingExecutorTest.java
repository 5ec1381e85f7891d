package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.serving.PartitionStepExecutor;
import io.p2pbench.serving.StepExecutor.StepLimits;
import io.p2pbench.serving.StepShape;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The serving executor for every plan over the group 0,0 (EP on MOE_8X_TOP2, the others on
 * DENSE_8B), with decode graphs: decode steps padded to a captured size and not, prefill-only and
 * mixed steps run and take device time, its check passes after them, and a shape beyond its
 * limits is refused. Figures are not judged.
 */
@RequiresGpu
class GpuServingExecutorTest {
    /** 8 sequences of up to 1024 tokens, 512 tokens a step. */
    private static final StepLimits LIMITS = new StepLimits(8, 1024, 512);

    @TestFactory
    List<DynamicTest> everyPlanRunsEveryKindOfStep() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Plan plan : Plan.values()) {
            for (Transport transport : plan == Plan.SINGLE ? new Transport[] {Transport.P2P}
                    : new Transport[] {Transport.P2P, Transport.HOST_STAGED}) {
                ModelShape model = plan == Plan.EP ? ModelShape.MOE_8X_TOP2 : ModelShape.DENSE_8B;
                tests.add(DynamicTest.dynamicTest(plan + " " + transport, () -> check(model, plan, transport)));
            }
        }
        return tests;
    }

    private static void check(ModelShape model, Plan plan, Transport transport) {
        try (PartitionStepExecutor ex = new PartitionStepExecutor(model, plan, Group.parse("0,0"), transport, LIMITS, true,
                4L << 20)) {
            for (StepShape s : List.of(new StepShape(3, 1500, 0, 0, 0), new StepShape(8, 8000, 0, 0, 0),
                    new StepShape(1, 1, 0, 0, 0), new StepShape(0, 0, 1, 400, 0), new StepShape(0, 0, 2, 500, 200),
                    new StepShape(5, 2000, 1, 256, 700))) {
                assertTrue(ex.run(s) > 0, plan + " " + s);
            }
            assertTrue(ex.verify() > 0);
            assertThrows(IllegalArgumentException.class, () -> ex.run(new StepShape(9, 900, 0, 0, 0)));
            assertThrows(IllegalArgumentException.class, () -> ex.run(new StepShape(0, 0, 1, 513, 0)));
        }
    }
}
