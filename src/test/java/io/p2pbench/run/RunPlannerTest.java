package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.Combination;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.SyntheticTopologies;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RunPlannerTest {
    private static List<Combination> plan(Topology t, Preset p) {
        return RunPlanner.plan(t, new RunPlanner.Request(p, null, null, null));
    }

    @Test
    void representativePairsAreOnePerLinkClassPlusTheDeviceLocalPair() {
        assertEquals(List.of(new GpuPair(0, 0), new GpuPair(0, 1)),
                RunPlanner.representativePairs(SyntheticTopologies.nvswitch8()));
        assertEquals(List.of(new GpuPair(0, 0), new GpuPair(0, 1), new GpuPair(0, 4)),
                RunPlanner.representativePairs(SyntheticTopologies.pcie8TwoSwitches()));
        assertEquals(List.of(new GpuPair(0, 0)), RunPlanner.representativePairs(SyntheticTopologies.singleH200()));
    }

    @Test
    void idsAreUniqueAndEveryCombinationHasAReasonOrRuns() {
        for (Topology t : List.of(SyntheticTopologies.nvswitch8(), SyntheticTopologies.pcie8TwoSwitches(),
                SyntheticTopologies.twoWithoutP2p(), SyntheticTopologies.singleH200())) {
            List<Combination> plan = plan(t, Preset.STANDARD);
            Set<String> ids = new HashSet<>();
            for (Combination c : plan) {
                assertTrue(ids.add(c.id()), "duplicate " + c.id());
                assertTrue(c.id().matches("[A-Za-z0-9_.+-]+"), c.id());
                assertTrue(c.predictedSeconds() > RunPlanner.FORK_OVERHEAD_SECONDS);
            }
        }
    }

    @Test
    void theMatrixGrowsWithTheSquareAndTheSweepWithLinkClasses() {
        List<Combination> eight = plan(SyntheticTopologies.nvswitch8(), Preset.STANDARD);
        long matrixUni = eight.stream().filter(c -> c.kind().equals("peer") && c.metric().equals("bandwidth")
                && c.sizeBytes() == 256 * Sizes.MIB).count();
        assertEquals(64 * 6, matrixUni, "every ordered pair and path at 256 MiB (two pairs come from the sweep)");
        long sweepPairs = eight.stream().filter(c -> c.group().equals("sweep") && c.kind().equals("peer"))
                .map(c -> c.params().get("pair")).distinct().count();
        assertEquals(2, sweepPairs, "0-0 and one NV18 pair");
        assertTrue(eight.stream().filter(c -> c.group().equals("matrix")).allMatch(c -> c.sizeBytes() == 256 * Sizes.MIB));
    }

    @Test
    void pairsWithoutPeerAccessAreSkippedWithTheReasonButStagedCopiesStillRun() {
        List<Combination> plan = plan(SyntheticTopologies.twoWithoutP2p(), Preset.QUICK);
        Combination p2p = find(plan, "peer-bw-CE_P2P_READ-0-1-1MiB");
        assertTrue(p2p.plannedSkip());
        assertTrue(p2p.skipReason().contains("no peer access"), p2p.skipReason());
        assertFalse(find(plan, "peer-bw-HOST_STAGED-0-1-1MiB").plannedSkip());
        assertFalse(find(plan, "peer-bw-CE_NO_P2P-0-1-1MiB").plannedSkip());
        assertEquals("PHB", p2p.link());
    }

    @Test
    void aSingleGpuRunsEveryPathThatMeansSomethingOnPair00() {
        List<Combination> plan = plan(SyntheticTopologies.singleH200(), Preset.QUICK);
        Set<String> running = plan.stream().filter(c -> !c.plannedSkip() && c.kind().equals("peer"))
                .map(c -> c.params().get("path")).collect(Collectors.toSet());
        assertEquals(Set.of("CE_P2P_READ", "HOST_STAGED", "SM_P2P_READ"), running);
        assertTrue(plan.stream().filter(c -> c.kind().startsWith("peer")).allMatch(Combination::singleGpu));
        Combination remote = plan.stream().filter(c -> "REMOTE".equals(c.params().get("numa"))).findFirst().orElseThrow();
        assertTrue(remote.skipReason().contains("one NUMA node"));
    }

    @Test
    void requestsNamingWhatTheMachineLacksAreRejectedWithTheValue() {
        Topology one = SyntheticTopologies.singleH200();
        IllegalArgumentException pair = assertThrows(IllegalArgumentException.class, () -> RunPlanner.plan(one,
                new RunPlanner.Request(Preset.QUICK, List.of(new GpuPair(0, 3)), null, null)));
        assertTrue(pair.getMessage().contains("pair '0-3' names GPU 3") && pair.getMessage().contains("only GPU 0"));
        IllegalArgumentException path = assertThrows(IllegalArgumentException.class, () -> RunPlanner.plan(one,
                new RunPlanner.Request(Preset.QUICK, null, null, Set.of("NVLINK"))));
        assertTrue(path.getMessage().contains("unknown path 'NVLINK'") && path.getMessage().contains("CE_P2P_READ"));
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class, () -> RunPlanner.plan(one,
                new RunPlanner.Request(Preset.QUICK, null, List.of(100 * Sizes.GIB), null)));
        assertTrue(size.getMessage().contains("size 100 GiB does not fit"), size.getMessage());
    }

    @Test
    void thePlanTextNamesTheMachineCountsAndPrediction() {
        Topology t = SyntheticTopologies.nvswitch8();
        List<Combination> plan = plan(t, Preset.STANDARD);
        String text = RunPlanner.describe(t, Preset.STANDARD, plan);
        assertTrue(text.startsWith("Plan for h200x8-nv18-r580 (8 GPUs), preset standard: "), text);
        assertTrue(text.contains("predicted " + RunPlanner.formatDuration(TimePredictor.run(plan, Preset.STANDARD,
                TimePredictor.RunShape.current(), c -> null)[0])), text);
        assertTrue(text.contains("matrix     peer           bandwidth"), text);
        assertTrue(text.contains("collective allreduce-ring bandwidth"), text);
    }

    @Test
    void collectivesUseEveryGpuOrFourRanksOnOneGpuAndSayWhenNothingCrossesALink() {
        List<Combination> one = plan(SyntheticTopologies.singleH200(), Preset.QUICK);
        Combination ring = find(one, "ring-bw-FLOAT32-P2P-g0.0.0.0-64MiB");
        assertTrue(ring.singleGpu());
        assertFalse(ring.plannedSkip());
        assertTrue(find(one, "nccl-bw-ALL_REDUCE-FLOAT32-g0-64MiB").singleGpu());
        List<Combination> eight = plan(SyntheticTopologies.nvswitch8(), Preset.QUICK);
        Combination ring8 = find(eight, "ring-bw-FLOAT32-P2P-g0.1.2.3.4.5.6.7-64MiB");
        assertFalse(ring8.singleGpu());
        List<Combination> noP2p = plan(SyntheticTopologies.twoWithoutP2p(), Preset.QUICK);
        assertTrue(find(noP2p, "ring-bw-FLOAT32-P2P-g0.1-64MiB").skipReason().contains("no peer access"));
        assertFalse(find(noP2p, "ring-bw-FLOAT32-HOST_STAGED-g0.1-64MiB").plannedSkip());
        List<Combination> repeated = RunPlanner.plan(SyntheticTopologies.singleH200(), new RunPlanner.Request(
                Preset.QUICK, null, null, Set.of(RunPlanner.NCCL), io.p2pbench.collective.Group.parse("0,0"), null));
        assertTrue(repeated.stream().allMatch(c -> c.skipReason().contains("NCCL needs distinct GPUs")));
    }

    private static Combination find(List<Combination> plan, String id) {
        return plan.stream().filter(c -> c.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id));
    }
}
