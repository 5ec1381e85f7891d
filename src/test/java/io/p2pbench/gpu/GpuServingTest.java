package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.StepBreakdown;
import io.p2pbench.partition.Transport;
import io.p2pbench.serving.BatchPolicy;
import io.p2pbench.serving.ContinuousBatcher;
import io.p2pbench.serving.HostClock;
import io.p2pbench.serving.KvCapacity;
import io.p2pbench.serving.LengthRange;
import io.p2pbench.serving.LoadGenerator;
import io.p2pbench.serving.PartitionStepExecutor;
import io.p2pbench.serving.StepExecutor;
import io.p2pbench.serving.StepShape;
import io.p2pbench.serving.Workload;
import org.junit.jupiter.api.Test;

/**
 * The serving path on the GPU with the partition-step adapter, small: the KV capacity from the GPU's free
 * memory, a mixed step's device time, a short open-loop load served on the host clock to the last token,
 * the steps' check and one instrumented step. Figures are not judged.
 */
@RequiresGpu
class GpuServingTest {
    private static final StepExecutor.StepLimits LIMITS = new StepExecutor.StepLimits(8, 512, 512);

    @Test
    void aShortLoadIsServedOnRealStepsAndChecked() {
        long free = Cuda.memInfo(0)[0];
        KvCapacity kv = KvCapacity.of(ModelShape.DENSE_8B, Plan.SINGLE, Group.parse("0"), new BatchPolicy(8, 512),
                d -> Cuda.memInfo(d)[0]);
        assertTrue(kv.tokens() > 0, kv.toString());
        assertTrue(kv.tokens() * kv.kvBytesPerToken() < free, kv.toString());
        try (PartitionStepExecutor exec = new PartitionStepExecutor(ModelShape.DENSE_8B, Plan.SINGLE, Group.parse("0,0"),
                Transport.P2P, LIMITS, true, 4L << 20)) {
            long mixed = exec.run(new StepShape(3, 600, 1, 100, 0));
            assertTrue(mixed > 0, "device nanoseconds " + mixed);
            assertThrows(IllegalArgumentException.class, () -> exec.run(new StepShape(9, 900, 0, 0, 0)));
            Workload w = new Workload(LengthRange.fixed(64), new LengthRange(4, 12), 1, 12, 2, 0);
            ContinuousBatcher.Served s = new ContinuousBatcher(exec, new HostClock(), new BatchPolicy(8, 512), 4096)
                    .serve(new LoadGenerator(w, 50), 2, 14, 60_000_000_000L);
            assertEquals(12, s.measured().size());
            assertTrue(s.measured().stream().allMatch(r -> r.finished()), s.toString());
            assertTrue(exec.verify() > 0);
            StepBreakdown b = exec.breakdown(new StepShape(4, 800, 1, 64, 0));
            assertNotNull(b);
            assertTrue(b.stepUs() > 0 && b.commUs() >= 0, b.toString());
            assertTrue(exec.description().contains("decode graphs for [1, 2, 4, 8] sequences"), exec.description());
        }
    }

    @Test
    void tensorParallelOverZeroZeroRunsItsExchangesHostStaged() {
        try (PartitionStepExecutor exec = new PartitionStepExecutor(ModelShape.DENSE_8B, Plan.TP, Group.parse("0,0"),
                Transport.HOST_STAGED, LIMITS, true, 4L << 20)) {
            assertTrue(exec.run(new StepShape(2, 300, 1, 200, 0)) > 0);
            assertTrue(exec.verify() > 0);
            assertTrue(exec.breakdown(new StepShape(2, 300, 0, 0, 0)).commUs() > 0, "the all-reduces are timed");
        }
    }
}
