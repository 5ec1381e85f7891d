package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.collective.NcclCollective;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Binding;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.PartitionStep;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.TopologyProbe;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.Feasibility;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.TransferFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every fixture, opened and closed {@code -Dp2pbench.test.cycles} (or environment variable
 * P2PBENCH_TEST_CYCLES) times, default 200, leaves the GPU's free memory where it was after its
 * first cycle (the first may load modules and grow the context once). A leak of one buffer per
 * trial would show as cycles x size.
 */
@RequiresGpu
class GpuFixtureCyclesTest {
    private static final int CYCLES = Integer.getInteger("p2pbench.test.cycles",
            Integer.parseInt(System.getenv().getOrDefault("P2PBENCH_TEST_CYCLES", "200")));
    private static final long SIZE = 1 << 20;

    private static DynamicTest cycles(String name, Supplier<AutoCloseable> open) {
        return DynamicTest.dynamicTest(name, () -> {
            open.get().close(); // warm-up: modules, context growth, NCCL's first init
            Cuda.synchronize(0);
            long before = Cuda.memInfo(0)[0];
            long t0 = System.nanoTime();
            for (int i = 0; i < CYCLES; i++) {
                open.get().close();
            }
            Cuda.synchronize(0);
            long after = Cuda.memInfo(0)[0];
            // Printed as each fixture finishes (JUnit's tree comes only at the end), so a run stopped by a time
            // limit still tells which fixtures were done and how long each took.
            System.out.printf(java.util.Locale.ROOT, "cycles %-40s %d cycles, %.1f s, free memory moved by %d bytes%n",
                    name, CYCLES, (System.nanoTime() - t0) / 1e9, after - before);
            System.out.flush();
            assertEquals(before, after, name + ": free memory of GPU 0 after " + CYCLES + " cycles moved by "
                    + (after - before) + " bytes");
        });
    }

    @TestFactory
    List<DynamicTest> everyFixtureReleasesWhatItTakes() {
        var topology = TopologyProbe.probe();
        GpuPair self = new GpuPair(0, 0);
        List<DynamicTest> tests = new ArrayList<>();
        for (CopyPath path : CopyPath.values()) {
            if (Feasibility.peerCopy(path, self, topology).isEmpty()) {
                tests.add(cycles("peer " + path, () -> TransferFixture.peer(path, self, SIZE, false,
                        TransferFixture.DEFAULT_STAGING_CHUNK)));
                tests.add(cycles("peer-bidir " + path, () -> TransferFixture.peer(path, self, SIZE, true,
                        TransferFixture.DEFAULT_STAGING_CHUNK)));
            }
        }
        tests.add(cycles("peer CE_P2P_READ via JCuda", () -> TransferFixture.peer(CopyPath.CE_P2P_READ, self, SIZE,
                false, TransferFixture.DEFAULT_STAGING_CHUNK, Binding.JCUDA_DRIVER)));
        for (HostMemory memory : HostMemory.values()) {
            for (HostDirection d : HostDirection.values()) {
                tests.add(cycles("host " + d + " " + memory, () -> TransferFixture.hostDevice(0, List.of(d), memory,
                        SIZE)));
            }
            tests.add(cycles("host-bidir " + memory, () -> TransferFixture.hostDevice(0,
                    List.of(HostDirection.H2D, HostDirection.D2H), memory, SIZE)));
        }
        tests.add(cycles("host H2D PINNED via JCuda", () -> TransferFixture.hostDevice(0, List.of(HostDirection.H2D),
                HostMemory.PINNED, SIZE, Binding.JCUDA_DRIVER)));
        Group ring = Group.parse("0,0,0,0");
        for (CollectivePath path : CollectivePath.values()) {
            tests.add(cycles("ring all-reduce " + path, () -> new RingAllReduce(ring, DataType.FLOAT32, SIZE, path,
                    TransferFixture.DEFAULT_STAGING_CHUNK)));
            for (ActivationExchange.Pattern pattern : ActivationExchange.Pattern.values()) {
                ModelShape model = ModelShape.named(pattern == ActivationExchange.Pattern.EXPERT ? "MOE_8X_TOP2"
                        : "DENSE_8B");
                tests.add(cycles("exchange " + pattern + " " + path, () -> new ActivationExchange(pattern, ring, model,
                        path, ring.size() - 1, 1.0 / ring.size(), TransferFixture.DEFAULT_STAGING_CHUNK)));
            }
        }
        for (BusBandwidth.Operation op : BusBandwidth.Operation.values()) {
            tests.add(cycles("NCCL " + op, () -> new NcclCollective(Group.parse("0"), op, DataType.FLOAT32, SIZE)));
        }
        // The partition step: cuBLAS handles, weights, KV, exchanges and (graph) captured graphs, each cycle
        // running one step so that what a trial creates on first use is released too.
        Group pair = Group.parse("0,0");
        for (Plan plan : Plan.values()) {
            ModelShape model = plan == Plan.EP ? ModelShape.MOE_8X_TOP2 : ModelShape.DENSE_8B;
            int ranks = plan == Plan.SINGLE ? 1 : 2;
            PartitionSpec spec = new PartitionSpec(model, plan, ranks, Phase.DECODE, 2, 256, 512);
            for (boolean graph : new boolean[] {false, true}) {
                tests.add(cycles("partition " + plan + (graph ? " graph" : " eager"), () -> {
                    PartitionStep step = new PartitionStep(spec, plan == Plan.SINGLE ? Group.parse("0") : pair,
                            Transport.P2P, graph, TransferFixture.DEFAULT_STAGING_CHUNK);
                    try {
                        step.deviceMicrosPerStep(1);
                        return step;
                    } catch (RuntimeException e) {
                        step.close();
                        throw e;
                    }
                }));
            }
        }
        // P2PBENCH_TEST_CYCLES_ONLY=a,b: only fixtures whose name contains one of them (a session's device time
        // is short: NCCL's fixtures take about 104 s per 200 cycles each).
        String only = System.getenv("P2PBENCH_TEST_CYCLES_ONLY");
        if (only != null && !only.isBlank()) {
            List<String> parts = List.of(only.split(","));
            tests.removeIf(t -> parts.stream().noneMatch(p -> t.getDisplayName().contains(p.strip())));
        }
        return tests;
    }
}
