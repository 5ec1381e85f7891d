package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.partition.Transport;
import io.p2pbench.spec.Combination;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.topology.SyntheticTopologies;
import io.p2pbench.topology.Topology;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Dry runs of {@code --paths PARTITION} on synthetic topologies. */
class PartitionPlannerTest {
    private static List<Combination> plan(Topology t, Group group, String model) {
        return RunPlanner.plan(t, new RunPlanner.Request(Preset.QUICK, null, null, Set.of("PARTITION"), group, model));
    }

    private static Combination find(List<Combination> plan, String id) {
        return plan.stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError(id));
    }

    @Test
    void eightGpusPlanEveryPlanAndTransportAndSkipWhatCannotRun() {
        List<Combination> plan = plan(SyntheticTopologies.nvswitch8(), null, "DENSE_70B");
        assertTrue(plan.stream().allMatch(c -> c.kind().equals("partition")), "only partition benchmarks");
        // SINGLE: one transport; TP, PP, EP: three; each 2 phases x 2 modes + 1 request
        assertEquals(5 + 3 * 3 * 5, plan.size());
        Combination tp = find(plan, "part-step-DENSE_70B-TP-P2P-DECODE-graph-g0.1.2.3.4.5.6.7");
        assertNull(tp.skipReason(), tp.skipReason());
        assertEquals("io.p2pbench.bench.PartitionBenchmark.step", tp.benchmark());
        assertFalse(tp.singleGpu());
        Combination single = find(plan, "part-step-DENSE_70B-SINGLE-P2P-DECODE-eager-g0");
        assertTrue(single.skipReason().startsWith("does not fit: DENSE_70B SINGLE over 1 GPU needs"), single.skipReason());
        Combination ep = find(plan, "part-step-DENSE_70B-EP-P2P-DECODE-eager-g0.1.2.3.4.5.6.7");
        assertTrue(ep.skipReason().startsWith("plan EP needs experts, but DENSE_70B is dense"), ep.skipReason());
        assertEquals(SkipCause.DOES_NOT_FIT, single.skipCause(), "the verdict reads the cause, not the words");
        assertEquals(SkipCause.DOES_NOT_DIVIDE, ep.skipCause());
        assertNull(tp.skipCause());
        assertTrue(plan.stream().allMatch(c -> (c.skipReason() == null) == (c.skipCause() == null)),
                "every planned skip has a cause, and only those");
    }

    @Test
    void expertParallelRunsOnAMixtureOfExpertsAndSkipsWhereItDoesNotDivide() {
        List<Combination> plan = plan(SyntheticTopologies.nvswitch8(), null, "MOE_8X_TOP2");
        for (Transport transport : Transport.values()) {
            Combination ep = find(plan, "part-step-MOE_8X_TOP2-EP-" + transport + "-PREFILL-graph-g0.1.2.3.4.5.6.7");
            assertNull(ep.skipReason(), ep.skipReason());
        }
        assertNull(find(plan, "part-request-MOE_8X_TOP2-EP-P2P-REQUEST-graph-g0.1.2.3.4.5.6.7").skipReason());
        List<Combination> three = plan(SyntheticTopologies.nvswitch8(), Group.parse("0,1,2"), "MOE_8X_TOP2");
        assertEquals("plan EP over 3 ranks does not divide MOE_8X_TOP2's 8 experts; use an EP degree that divides "
                + "them: 1, 2, 4, 8", find(three, "part-step-MOE_8X_TOP2-EP-P2P-DECODE-eager-g0.1.2").skipReason());
    }

    @Test
    void aGroupOfThreeCannotSplitHeadsAndSaysWhatDivides() {
        List<Combination> plan = plan(SyntheticTopologies.nvswitch8(), Group.parse("0,1,2"), null);
        Combination tp = find(plan, "part-step-DENSE_8B-TP-HOST_STAGED-PREFILL-eager-g0.1.2");
        assertEquals("plan TP over 3 ranks does not divide DENSE_8B (32 attention heads, 8 KV heads, FFN 14336, "
                + "vocabulary 128256); use a TP degree that divides them all: 1, 2, 4, 8", tp.skipReason());
        assertNull(find(plan, "part-step-DENSE_8B-PP-HOST_STAGED-PREFILL-eager-g0.1.2").skipReason());
    }

    @Test
    void oneGpuRunsEveryPathLabelledAsNotAnInterconnectMeasurement() {
        List<Combination> plan = plan(SyntheticTopologies.singleH200(), Group.parse("0,0"), null);
        Combination tp = find(plan, "part-step-DENSE_8B-TP-P2P-DECODE-eager-g0.0");
        assertNull(tp.skipReason(), tp.skipReason());
        assertTrue(tp.singleGpu());
        assertFalse(find(plan, "part-step-DENSE_8B-SINGLE-P2P-DECODE-eager-g0").singleGpu());
    }

    @Test
    void partitionIsNotPartOfADefaultRun() {
        List<Combination> plan = RunPlanner.plan(SyntheticTopologies.singleH200(),
                new RunPlanner.Request(Preset.QUICK, null, null, null));
        assertTrue(plan.stream().noneMatch(c -> c.kind().equals("partition")));
    }
}
