package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.CollectiveMismatchException;
import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.CollectiveTiming;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.collective.NcclCollective;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.Nccl.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Collectives on a real GPU: the ring all-reduce on 0,0,0,0 (and on every GPU where there are
 * several), NCCL on distinct GPUs, the activation exchanges; every result checked on the GPU and
 * against the CPU reference. Figures are checked for sanity only.
 */
@RequiresGpu
class GpuCollectiveTest {
    private static final long MIB = 1 << 20;

    private static Group ringGroup() {
        int n = Cuda.availability().deviceCount();
        if (n == 1) {
            return Group.parse("0,0,0,0");
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        return new Group(all);
    }

    private static Group ncclGroup() {
        return Cuda.availability().deviceCount() == 1 ? Group.parse("0") : ringGroup();
    }

    private static void exercise(CollectiveOperation op) {
        op.poison();
        CollectiveTiming t = op.time(4);
        assertTrue(t.nanosPerOp() > 0 && Double.isFinite(t.nanosPerOp()), t.toString());
        op.verify();
        long once = op.bytesVerified();
        assertTrue(once > 0, "bytes verified after one check: " + once);
        op.poison(); // a second batch: an operation timed as a graph launches the graph captured by the first
        op.time(4);
        op.verify();
        op.poison();
        op.runOnce();
        op.verify();
        assertEquals(3 * once, op.bytesVerified(), "every check counts every output byte");
        op.verifyOnHost();
    }

    @TestFactory
    List<DynamicTest> ringAllReduceIsRightForBothTypesAndPaths() {
        List<DynamicTest> tests = new ArrayList<>();
        for (DataType type : DataType.values()) {
            for (CollectivePath path : CollectivePath.values()) {
                for (long size : new long[] {64 * 1024, MIB, 64 * MIB}) {
                    tests.add(DynamicTest.dynamicTest(type + " " + path + " " + size, () -> {
                        try (RingAllReduce ring = new RingAllReduce(ringGroup(), type, size, path, 4 * MIB)) {
                            exercise(ring);
                        }
                    }));
                }
            }
        }
        return tests;
    }

    /**
     * The ring all-reduce of 64 MiB over four ranks of one GPU (and the tensor exchange, two of them a step) puts more
     * calls on a stream than a held stream takes: each operation is captured as a CUDA graph and the batch is graph
     * launches behind the gate. Checked: the batch is gated, its result right, eager operations after it still right,
     * and closing the operation gives back all of its device memory, graph included.
     */
    @TestFactory
    List<DynamicTest> operationsTooLongToHoldAreTimedAsGatedGraphLaunches() {
        List<DynamicTest> tests = new ArrayList<>();
        for (CollectivePath path : CollectivePath.values()) {
            tests.add(DynamicTest.dynamicTest("ring " + path, () -> gatedAsGraph(
                    () -> new RingAllReduce(Group.parse("0,0,0,0"), DataType.FLOAT32, 64 * MIB, path, 4 * MIB))));
            tests.add(DynamicTest.dynamicTest("tensor exchange " + path, () -> gatedAsGraph(
                    () -> new ActivationExchange(ActivationExchange.Pattern.TENSOR, Group.parse("0,0,0,0"),
                            ModelShape.DENSE_8B, path, 3, 0.5, 4 * MIB))));
        }
        return tests;
    }

    private static void gatedAsGraph(Supplier<CollectiveOperation> make) {
        try (CollectiveOperation warm = make.get()) {
            warm.time(8); // loads what stays loaded (kernel modules, the gate's), so that only the operation's own is counted
        }
        long freeBefore = Cuda.memInfo(0)[0];
        try (CollectiveOperation op = make.get()) {
            for (int batch = 0; batch < 3; batch++) {
                op.poison();
                CollectiveTiming t = op.time(8);
                assertTrue(t.gated(), "batch " + batch + " was not gated: " + t);
                op.verify();
            }
            op.poison();
            op.runOnce();
            op.verify();
            op.verifyOnHost();
        }
        long freeAfter = Cuda.memInfo(0)[0];
        assertTrue(Math.abs(freeAfter - freeBefore) <= 2 * MIB, "free device memory " + freeBefore + " before, "
                + freeAfter + " after");
    }

    @TestFactory
    List<DynamicTest> ncclCollectivesAreRight() {
        List<DynamicTest> tests = new ArrayList<>();
        for (BusBandwidth.Operation op : BusBandwidth.Operation.values()) {
            for (DataType type : DataType.values()) {
                tests.add(DynamicTest.dynamicTest(op + " " + type, () -> {
                    try (NcclCollective c = new NcclCollective(ncclGroup(), op, type, 8 * MIB)) {
                        exercise(c);
                    }
                }));
            }
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> activationExchangesMoveCheckedBytes() {
        List<DynamicTest> tests = new ArrayList<>();
        for (ActivationExchange.Pattern pattern : ActivationExchange.Pattern.values()) {
            for (CollectivePath path : CollectivePath.values()) {
                ModelShape model = pattern == ActivationExchange.Pattern.EXPERT ? ModelShape.MOE_8X_TOP2
                        : ModelShape.DENSE_8B;
                Group g = ringGroup();
                tests.add(DynamicTest.dynamicTest(pattern + " " + path, () -> {
                    try (ActivationExchange x = new ActivationExchange(pattern, g, model, path, g.size() - 1, 0.5,
                            4 * MIB)) {
                        assertTrue(x.bytesPerStep() > 0);
                        exercise(x);
                    }
                }));
            }
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> anUnwrittenOutputFailsTheChecks() {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(unwritten("ring", () -> new RingAllReduce(ringGroup(), DataType.FLOAT32, MIB, CollectivePath.P2P,
                4 * MIB)));
        tests.add(unwritten("nccl", () -> new NcclCollective(ncclGroup(), BusBandwidth.Operation.ALL_REDUCE,
                DataType.BFLOAT16, MIB)));
        tests.add(unwritten("pipeline", () -> new ActivationExchange(ActivationExchange.Pattern.PIPELINE, ringGroup(),
                ModelShape.DENSE_8B, CollectivePath.P2P, 1, 0.25, 4 * MIB)));
        return tests;
    }

    private static DynamicTest unwritten(String name, Supplier<CollectiveOperation> make) {
        return DynamicTest.dynamicTest(name, () -> {
            try (CollectiveOperation op = make.get()) {
                op.poison();
                Throwable e = assertThrows(RuntimeException.class, op::verify);
                assertTrue(e instanceof CollectiveMismatchException || e.getMessage().contains("data check failed"),
                        e.toString());
                if (!(op instanceof ActivationExchange)) {
                    assertThrows(CollectiveMismatchException.class, op::verifyOnHost);
                }
            }
        });
    }

    @Test
    void aGroupOfOneCannotRingAndRepeatsCannotUseNccl() {
        assertThrows(IllegalArgumentException.class, () -> new RingAllReduce(Group.parse("0"), DataType.FLOAT32, MIB,
                CollectivePath.P2P, 4 * MIB));
        assertThrows(IllegalArgumentException.class, () -> new NcclCollective(Group.parse("0,0"),
                BusBandwidth.Operation.ALL_REDUCE, DataType.FLOAT32, MIB));
    }

    /**
     * A fork group's kept communicators: the second NCCL collective on the same GPUs gets the first one's
     * communicators back (no new set), verifies like the first, and turning keeping off destroys them and
     * leaves device memory where it started.
     */
    @Test
    void keptNcclCommunicatorsAreReusedAndVerifyAndAreDestroyedWhenTurnedOff() {
        Group g = ncclGroup();
        assertEquals(0, io.p2pbench.cuda.Nccl.keptSets());
        long before = Gpu.free(0);
        io.p2pbench.cuda.Nccl.keepCommunicators(true);
        try {
            for (int i = 0; i < 3; i++) {
                try (NcclCollective op = new NcclCollective(g, BusBandwidth.Operation.ALL_REDUCE,
                        i == 1 ? DataType.BFLOAT16 : DataType.FLOAT32, (i + 1) * MIB)) {
                    exercise(op);
                    assertEquals(1, io.p2pbench.cuda.Nccl.keptSets(), "combination " + i);
                }
            }
        } finally {
            io.p2pbench.cuda.Nccl.keepCommunicators(false);
        }
        assertEquals(0, io.p2pbench.cuda.Nccl.keptSets());
        long after = Gpu.free(0);
        assertTrue(Math.abs(before - after) <= 64 * MIB, "free device memory went from " + before + " to " + after);
    }
}
