package io.p2pbench.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plan every rank makes from the hellos: copies per host, collectives inter- and intra-node, labels. */
class JobPlanTest {
    static RankHello hello(int rank, int world, int local, int localSize, String host, int gpu, String uuid,
                           String commId, Boolean here) {
        return new RankHello(rank, world, local, localSize, host, null, 1000 + rank, "pid:[1]", "2026-12-04T00:00:00Z",
                "Slurm", "0.1.0", "abc1234", gpu, uuid, null, 0, "", null, commId, rank == 0 ? here : null, "CUDA IPC and NCCL",
                "h200x8-nv18-r580", null);
    }

    /** {@code hosts} hosts of {@code perHost} ranks, block placement, one GPU each. */
    static List<RankHello> world(int hosts, int perHost) {
        List<RankHello> w = new ArrayList<>();
        for (int r = 0; r < hosts * perHost; r++) {
            w.add(hello(r, hosts * perHost, r % perHost, perHost, "node" + r / perHost, r % perHost,
                    "GPU-" + r / perHost + "-" + r % perHost, "node0:29517", true));
        }
        return w;
    }

    static JobRequest request(List<Long> sweep, long matrix, List<Long> collective) {
        return new JobRequest("p2pbench run", "quick", Path.of("results"), sweep, matrix, collective,
                EnumSet.of(DataType.FLOAT32), EnumSet.of(Operation.ALL_REDUCE, Operation.ALL_GATHER), true, true, 1, 5);
    }

    @Test
    void eachHostCopiesItsFirstPairOverTheSizesAndEveryPairAtTheMatrixSize() {
        JobPlan p = JobPlan.make(world(2, 3), request(List.of(4 * Sizes.KIB, Sizes.MIB), 256 * Sizes.MIB,
                List.of(64 * Sizes.MIB)), false, null, null);
        List<JobPlan.IpcStep> copies = p.steps().stream().filter(s -> s instanceof JobPlan.IpcStep)
                .map(s -> (JobPlan.IpcStep) s).toList();
        assertEquals(2 * (2 + 6), copies.size(), "per host: 2 sweep sizes of 0->1, 6 ordered pairs at 256 MiB");
        assertEquals(List.of("ipc-r0-r1-4KiB", "ipc-r0-r1-1MiB", "ipc-r0-r1-256MiB", "ipc-r0-r2-256MiB"),
                copies.subList(0, 4).stream().map(JobPlan.IpcStep::id).toList());
        assertNull(copies.get(0).previous());
        assertEquals("ipc-r0-r1-4KiB", copies.get(1).previous(), "a host's copies run one after another");
        JobPlan.IpcStep secondHost = copies.stream().filter(c -> c.host().equals("node1")).findFirst().orElseThrow();
        assertEquals(3, secondHost.exporter());
        assertEquals(4, secondHost.importer());
        assertNull(secondHost.previous(), "hosts copy at the same time");
        assertTrue(copies.stream().noneMatch(c -> c.exporter() / 3 != c.importer() / 3), "no CUDA IPC across hosts");
    }

    @Test
    void collectivesRunOverAllRanksInterNodeThenOverEachHostIntraNode() {
        JobPlan p = JobPlan.make(world(2, 2), request(List.of(Sizes.MIB), Sizes.MIB, List.of(64 * Sizes.MIB)), false,
                null, null);
        List<JobPlan.CollectiveStep> c = p.steps().stream().filter(s -> s instanceof JobPlan.CollectiveStep)
                .map(s -> (JobPlan.CollectiveStep) s).toList();
        assertEquals(2 + 2 * 2, c.size(), "2 operations over the world, then over each of 2 hosts");
        JobPlan.CollectiveStep world = c.get(0);
        assertEquals(JobPlan.Scope.WORLD, world.scope());
        assertEquals(List.of(0, 1, 2, 3), world.ranks());
        assertEquals("inter-node", world.span());
        JobPlan.CollectiveStep host = c.get(2);
        assertEquals(JobPlan.Scope.HOST, host.scope());
        assertEquals(List.of(0, 1), host.ranks());
        assertEquals("intra-node", host.span());
        assertEquals("nccl-ALL_REDUCE-FLOAT32-host-node1-64MiB", c.get(3).id());
        Combination r3 = p.combination(c.get(0), 3);
        assertEquals("ncclmp-bw-ALL_REDUCE-FLOAT32-world-64MiB-r3", r3.id());
        assertEquals("inter-node", r3.params().get("span"));
        assertEquals("3", r3.params().get("rank"));
        assertFalse(r3.singleGpu());
        // Entries: rank 1 imports 0->1 (sweep) and writes one entry per collective it is a rank of.
        assertEquals(List.of("ipc-bw-r0-r1-1MiB", "ncclmp-bw-ALL_REDUCE-FLOAT32-world-64MiB-r1",
                "ncclmp-bw-ALL_GATHER-FLOAT32-world-64MiB-r1", "ncclmp-bw-ALL_REDUCE-FLOAT32-host-node0-64MiB-r1",
                "ncclmp-bw-ALL_GATHER-FLOAT32-host-node0-64MiB-r1"), p.combinationsOf(1).stream().map(Combination::id)
                .toList());
    }

    @Test
    void aCopyBetweenTwoGpusNeedsTheExportersGpuVisibleToTheImporter() {
        List<RankHello> w = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            RankHello h = hello(r, 2, r, 2, "node0", 0, "GPU-" + r, "node0:29517", true);
            w.add(new RankHello(h.rank(), h.worldSize(), h.localRank(), h.localWorldSize(), h.host(), h.nodeId(), h.pid(),
                    h.pidNamespace(), h.startedAt(), h.launcher(), h.suiteVersion(), h.suiteBuild(), 0, h.gpuUuid(),
                    "0000:1" + r + ":00.0", 0, "", Integer.toString(r), h.ncclCommId(), h.ncclCommIdHere(), h.workload(),
                    h.fingerprint(), List.of("0000:1" + r + ":00.0")));
        }
        JobPlan p = JobPlan.make(w, request(List.of(Sizes.MIB), 2 * Sizes.MIB, List.of(Sizes.MIB)), false, null, null);
        List<JobPlan.IpcStep> copies = p.steps().stream().filter(s -> s instanceof JobPlan.IpcStep)
                .map(s -> (JobPlan.IpcStep) s).toList();
        assertEquals(3, copies.size());
        for (JobPlan.IpcStep c : copies) {
            assertTrue(c.skipReason().startsWith("CUDA IPC between two GPUs needs the exporter's GPU visible in the "
                    + "importing process, and rank " + c.importer() + " sees only CUDA_VISIBLE_DEVICES=" + c.importer()),
                    c.skipReason());
            assertNull(c.previous(), "nothing to wait for: no copy runs");
            assertEquals(c.skipReason(), p.combination(c, c.importer()).skipReason());
        }
    }

    @Test
    void twoRanksOnOneGpuAreASingleGpuRow() {
        List<RankHello> w = List.of(hello(0, 2, 0, 2, "gpu-node", 0, "GPU-same", "127.0.0.1:29501", true),
                hello(1, 2, 1, 2, "gpu-node", 0, "GPU-same", "127.0.0.1:29501", null));
        JobPlan p = JobPlan.make(w, request(List.of(Sizes.MIB), Sizes.MIB, List.of(Sizes.MIB)), false, null, null);
        JobPlan.IpcStep copy = (JobPlan.IpcStep) p.steps().get(0);
        assertTrue(copy.sameGpu());
        Combination c = p.combination(copy, 1);
        assertTrue(c.singleGpu());
        assertEquals("X", c.link(), "the same GPU, as nvidia-smi topo -m labels it");
        JobPlan.CollectiveStep nccl = (JobPlan.CollectiveStep) p.steps().get(2);
        assertTrue(nccl.sharedGpu());
        assertTrue(p.combination(nccl, 0).singleGpu());
        assertNull(nccl.skipReason(), "tried: NCCL's own answer is recorded (it refuses duplicate GPUs in 2.28)");
    }

    @Test
    void ncclNeedsTheSameCommIdOnEveryRankNamingRankZerosHost() {
        JobRequest r = request(List.of(Sizes.MIB), Sizes.MIB, List.of(Sizes.MIB));
        List<RankHello> missing = new ArrayList<>(world(1, 2));
        missing.set(1, hello(1, 2, 1, 2, "node0", 1, "GPU-b", null, null));
        String why = ((JobPlan.CollectiveStep) JobPlan.make(missing, r, false, null, null).steps().get(2)).skipReason();
        assertTrue(why.startsWith("NCCL_COMM_ID is not set for rank 1; set it to rank 0's host"), why);
        List<RankHello> differ = new ArrayList<>(world(1, 2));
        differ.set(1, hello(1, 2, 1, 2, "node0", 1, "GPU-b", "node1:29517", null));
        why = JobPlan.bootstrapProblem(differ);
        assertTrue(why.startsWith("the ranks disagree on NCCL_COMM_ID (node0:29517 for rank 0, node1:29517 for rank 1)"),
                why);
        List<RankHello> elsewhere = new ArrayList<>(world(1, 2));
        elsewhere.set(0, hello(0, 2, 0, 2, "node0", 0, "GPU-a", "login1:29517", false));
        elsewhere.set(1, hello(1, 2, 1, 2, "node0", 1, "GPU-b", "login1:29517", null));
        why = JobPlan.bootstrapProblem(elsewhere);
        assertTrue(why.startsWith("NCCL_COMM_ID=login1:29517 does not name rank 0's host (node0)"), why);
        assertNull(JobPlan.bootstrapProblem(world(2, 2)));
    }

    @Test
    void aSizeThatDoesNotSplitIsAPlannedSkipAndAWorkloadWithoutNcclSkipsThemAll() {
        JobPlan p = JobPlan.make(world(1, 3), request(List.of(Sizes.MIB), Sizes.MIB, List.of(Sizes.MIB)), false,
                null, null);
        JobPlan.CollectiveStep gather = p.steps().stream().filter(s -> s instanceof JobPlan.CollectiveStep c
                && c.op() == Operation.ALL_GATHER).map(s -> (JobPlan.CollectiveStep) s).findFirst().orElseThrow();
        assertTrue(gather.skipReason().startsWith("size 1048576 bytes does not split into 3 equal parts"),
                gather.skipReason());
        JobPlan none = JobPlan.make(world(1, 2), request(List.of(Sizes.MIB), Sizes.MIB, List.of(Sizes.MIB)), true,
                "the CPU test stand-in runs no NCCL", null);
        assertTrue(none.steps().stream().filter(s -> s instanceof JobPlan.CollectiveStep)
                .allMatch(s -> ((JobPlan.CollectiveStep) s).skipReason().equals("the CPU test stand-in runs no NCCL")));
        assertEquals("test-stand-in", none.combinationsOf(1).get(0).kind());
    }

    @Test
    void theKindsOfAJobAreNoKindTheReportReadsAsJmhResults() {
        for (ProcessKind k : ProcessKind.values()) {
            assertNull(Kind.find(k.label()), k.label() + " would be read as a JMH benchmark kind by the report");
        }
    }

    @Test
    void everyRankChecksTheWorldAlike() {
        RankRun.checkWorld(world(2, 2));
        List<RankHello> mixed = new ArrayList<>(world(1, 2));
        RankHello h = mixed.get(1);
        mixed.set(1, new RankHello(h.rank(), h.worldSize(), h.localRank(), h.localWorldSize(), h.host(), h.nodeId(),
                h.pid(), h.pidNamespace(), h.startedAt(), h.launcher(), h.suiteVersion(), "def5678-dirty", h.gpu(),
                h.gpuUuid(), h.pciBusId(), h.numaNode(), h.numaNote(), h.cudaVisibleDevices(), h.ncclCommId(),
                h.ncclCommIdHere(), h.workload(), h.fingerprint(), h.visibleGpus()));
        LaunchException e = assertThrows(LaunchException.class, () -> RankRun.checkWorld(mixed));
        assertEquals("rank 1 (node0, GPU 1) runs p2pbench 0.1.0 (build def5678-dirty) but rank 0 runs p2pbench 0.1.0 "
                + "(build abc1234); run one build on every rank", e.getMessage());
        List<RankHello> crowded = new ArrayList<>(world(1, 3));
        crowded.set(2, hello(2, 3, 1, 2, "node0", 1, "GPU-x", "node0:29517", null));
        e = assertThrows(LaunchException.class, () -> RankRun.checkWorld(crowded));
        assertTrue(e.getMessage().startsWith("node0 runs 3 ranks (0, 1, 2) but rank "), e.getMessage());
    }

    @Test
    void numaBindingIsReportedNotForced() {
        assertEquals("NUMA node 1, the host's only one".replace(", the", " (the") + ")",
                NumaCheck.describe("", 1, 1));
        assertEquals("bound to NUMA node 1, the GPU's", NumaCheck.describe("Name:\tjava\nMems_allowed_list:\t1\n", 2, 1));
        assertTrue(NumaCheck.describe("Mems_allowed_list:\t0-1\n", 2, 1).startsWith("NOT bound to the GPU's NUMA node 1 "
                + "(memory allowed on nodes 0-1)"));
        assertTrue(NumaCheck.describe("", 1, -1).startsWith("the GPU's NUMA node is not known here"));
    }
}
