package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.partition.Plan;
import io.p2pbench.spec.Combination;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.StepCostModel;
import io.p2pbench.serving.Target;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Dry runs of {@code --paths SERVING} on the committed topologies: points, skips and predicted time. */
class ServingPlannerTest {
    private static final Path TOPOLOGIES = Path.of("src/test/resources/topologies");

    private static Topology topology(String name) throws Exception {
        return TopologyJson.read(TOPOLOGIES.resolve(name + ".json"));
    }

    private static List<Combination> plan(Topology t, Group group, String model, Set<Plan> plans, Target target) {
        return RunPlanner.plan(t, new RunPlanner.Request(Preset.QUICK, null, null, Set.of(RunPlanner.SERVING), group,
                model, plans, target));
    }

    @Test
    void oneGpuOverZeroZeroPlansEverySplitAndStaysInsideTenMinutes() throws Exception {
        Topology t = topology("h200x1-single-r580");
        List<Combination> plan = plan(t, Group.parse("0,0"), null, null, null);
        assertEquals(10, plan.size(), "SINGLE, and TP, PP, EP over three transports");
        assertTrue(plan.stream().allMatch(c -> c.kind().equals("serving")
                && c.benchmark().equals("io.p2pbench.bench.ServingBenchmark.serve")));
        List<Combination> runnable = plan.stream().filter(c -> !c.plannedSkip()).toList();
        assertEquals(7, runnable.size());
        assertTrue(plan.stream().filter(Combination::plannedSkip).allMatch(c -> c.params().get("plan").equals("EP")));
        assertTrue(runnable.stream().filter(c -> !c.params().get("plan").equals("SINGLE")).allMatch(Combination::singleGpu),
                "a repeated GPU measures no interconnect");
        double seconds = TimePredictor.run(plan, Preset.QUICK, TimePredictor.RunShape.current(), c -> null)[0];
        assertTrue(seconds < 9 * 60, "the serving sweep of one model stays inside 10 minutes at quick timing: " + seconds);
        // every sweep starts at the same rate and grows by the same factor: the geometric rates are common
        assertEquals(1, runnable.stream().map(c -> ServingSweep.parse(c.params().get("sweep")).comparableKey()).distinct()
                .count());
        String described = RunPlanner.describe(t, Preset.QUICK, plan);
        assertTrue(described.contains("Serving sweeps (continuous batching with chunked prefill"), described);
        assertTrue(described.matches("(?s).*SINGLE P2P +over 0,0 +KV [0-9,]+ tokens; [0-9.]+\\+ .*knee [0-9.]+ req/s; [0-9]+(m[0-9]+)?s.*"),
                described);
        assertTrue(described.contains("serving sweeps together:"), described);
    }

    @Test
    void eightGpuTopologiesShowTheServingPointsAndTheirPredictedTime() throws Exception {
        for (String name : List.of("h200x8-nv18-r580", "l40sx8-pix+sys-r580")) {
            Topology t = topology(name);
            List<Combination> plan = plan(t, null, null, null, null);
            String described = RunPlanner.describe(t, Preset.QUICK, plan);
            for (Combination c : plan) {
                String line = String.format("  %-6s %-11s over %-9s", c.params().get("plan"), c.params().get("transport"),
                        "0,1,2,3,4,5,6,7");
                assertTrue(described.contains(line), name + " lacks " + line + ":\n" + described);
            }
            assertTrue(described.contains("predicted"), described);
            double seconds = TimePredictor.run(plan, Preset.QUICK, TimePredictor.RunShape.current(), c -> null)[0];
            assertTrue(seconds < 10 * 60, name + ": " + seconds);
        }
        // the L40S pairs across the host bridge have no peer access: P2P is a planned skip with its reason
        Combination p2p = plan(topology("l40sx8-pix+sys-r580"), null, null, null, null).stream()
                .filter(c -> c.id().equals("serve-DENSE_8B-TP-P2P-g0.1.2.3.4.5.6.7")).findFirst().orElseThrow();
        assertTrue(p2p.skipReason().startsWith("no peer access between GPU"), p2p.skipReason());
        assertEquals(SkipCause.NO_PEER_ACCESS, p2p.skipCause());
    }

    @Test
    void theTargetTravelsInTheSweepAndPlansFilterWithoutMovingTheRates() throws Exception {
        Topology t = topology("h200x8-nv18-r580");
        Target target = new Target(500_000_000L, 40_000_000L);
        List<Combination> all = plan(t, Group.parse("0,1"), null, null, target);
        List<Combination> tp = plan(t, Group.parse("0,1"), null, Set.of(Plan.TP), target);
        assertEquals(3, tp.size());
        ServingSweep sweep = ServingSweep.parse(tp.get(0).params().get("sweep"));
        assertEquals(target, sweep.target());
        assertEquals(ServingSweep.parse(all.get(0).params().get("sweep")).comparableKey(), sweep.comparableKey(),
                "a run of TP alone meets SINGLE's run at the same rates");
        assertTrue(sweep.search().budgetSeconds() > ServingSweep.parse(all.get(0).params().get("sweep")).search()
                .budgetSeconds(), "fewer sweeps, more time each");
    }

    @Test
    void aModelThatDoesNotFitIsAPlannedSkipWithItsReason() throws Exception {
        // eight 48 GiB GPUs: 70B fits neither one nor two of them, but eight
        Topology t = topology("h200x8-nv18-r580");
        Topology small = new Topology(t.suiteVersion(), t.capturedAt(), t.host(), t.gpus().stream().map(g -> new GpuInfo(
                g.index(), g.name(), g.uuid(), g.pciBusId(), g.computeCapability(), 48L << 30, g.smCount(),
                g.copyEngines(), g.pcieGenCurrent(), g.pcieGenMax(), g.pcieWidthCurrent(), g.pcieWidthMax(), g.numaNode(),
                g.cpuAffinity(), g.nvlinks(), g.nvlinkNote())).toList(), t.pairs(), t.fingerprint(), t.notes());
        List<Combination> two = plan(small, Group.parse("0,1"), "DENSE_70B", null, null);
        Combination tp = two.stream().filter(c -> c.id().equals("serve-DENSE_70B-TP-HOST_STAGED-g0.1")).findFirst()
                .orElseThrow();
        assertTrue(tp.skipReason().startsWith("does not fit: DENSE_70B TP over 2 GPUs"), tp.skipReason());
        Combination single = two.stream().filter(c -> c.id().equals("serve-DENSE_70B-SINGLE-P2P-g0")).findFirst()
                .orElseThrow();
        assertTrue(single.skipReason().startsWith("does not fit: DENSE_70B SINGLE over 1 GPU"), single.skipReason());
        assertEquals(SkipCause.DOES_NOT_FIT, single.skipCause(), "the verdict reads the cause, not the words");
        assertEquals(SkipCause.DOES_NOT_FIT, tp.skipCause());
        assertTrue(RunPlanner.describe(small, Preset.QUICK, two).contains("skipped: does not fit"));
        assertTrue(plan(small, null, "DENSE_70B", null, null).stream().anyMatch(c -> c.skipReason() == null));
        // one H200 holds 70B in bf16 with about 16k KV tokens to spare: slow, so the sweep starts at the lowest rate
        // whose 220 requests arrive within its budget, and stays inside it
        List<Combination> h200 = plan(topology("h200x1-single-r580"), Group.parse("0,0"), "DENSE_70B", null, null);
        Combination one = h200.stream().filter(c -> c.id().equals("serve-DENSE_70B-SINGLE-P2P-g0")).findFirst()
                .orElseThrow();
        assertNull(one.skipReason());
        assertFalse(one.singleGpu());
        ServingSweep sweep = ServingSweep.parse(one.params().get("sweep"));
        assertTrue(io.p2pbench.serving.CapacitySearch.expectedSeconds(sweep.workload(), sweep.search().startRatePerSecond())
                <= sweep.search().budgetSeconds(), sweep.encode());
        double seconds = TimePredictor.run(h200, Preset.QUICK, TimePredictor.RunShape.current(), c -> null)[0];
        assertTrue(seconds < 10 * 60, "70B on one GPU: " + seconds);
    }

    @Test
    void thePredictionIsTheSameFromTheManifestAndTheStepModelUsesThePartitionRates() throws Exception {
        Combination c = plan(topology("h200x1-single-r580"), Group.parse("0,0"), null, null, null).get(0);
        assertEquals(c.predictedSeconds(), TimePredictor.forEntry(c, Preset.QUICK.latency(), true), 1e-9);
        assertEquals(TimePredictor.PARTITION_FLOPS_PER_SECOND, StepCostModel.FLOPS_PER_SECOND);
        assertEquals(TimePredictor.PARTITION_BYTES_PER_SECOND, StepCostModel.BYTES_PER_SECOND);
    }
}
