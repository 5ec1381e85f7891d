package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.Cuda;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.TopologyProbe;
import io.p2pbench.transfer.BandwidthProbe;
import io.p2pbench.transfer.BenchmarkSkipped;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.DataMismatchException;
import io.p2pbench.transfer.Feasibility;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.TransferFixture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every copy path moves verified bytes, on pair 0-0 and, where the machine has them, on every pair
 * of two GPUs. Figures are checked for sanity (positive, finite), never for speed.
 */
@RequiresGpu
class GpuTransferTest {
    private static final long MIB = 1 << 20;
    private static final long[] SIZES = {4, 4100, MIB, 64 * MIB};

    private static void exercise(TransferFixture f, int lanes) {
        assertEquals(lanes, f.laneLabels().size());
        for (int i = 0; i < 3; i++) {
            BandwidthProbe.Batch b = f.measureBatch();
            for (int l = 0; l < lanes; l++) {
                assertTrue(b.gbps(l) > 0 && Double.isFinite(b.gbps(l)), "lane " + l + ": " + b.gbps(l) + " GB/s");
            }
        }
        f.poison();
        f.transferOnce();
        f.verify();
        assertTrue(f.bytesVerified() > 0);
    }

    @TestFactory
    List<DynamicTest> everyFeasiblePeerPathMovesVerifiedBytes() {
        var topology = TopologyProbe.probe();
        List<GpuPair> pairs = new ArrayList<>(List.of(new GpuPair(0, 0)));
        if (topology.gpuCount() > 1) {
            pairs.add(new GpuPair(0, 1));
            pairs.add(new GpuPair(1, 0));
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (GpuPair pair : pairs) {
            for (CopyPath path : CopyPath.values()) {
                if (Feasibility.peerCopy(path, pair, topology).isPresent()) {
                    continue;
                }
                for (long size : SIZES) {
                    for (boolean bidir : new boolean[] {false, true}) {
                        tests.add(DynamicTest.dynamicTest(path + " " + pair + " " + size + (bidir ? " bidir" : ""), () -> {
                            try (TransferFixture f = TransferFixture.peer(path, pair, size, bidir, 4 * MIB)) {
                                exercise(f, bidir ? 2 : 1);
                            }
                        }));
                    }
                }
            }
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> hostDeviceCopiesMoveVerifiedBytes() {
        List<DynamicTest> tests = new ArrayList<>();
        for (HostMemory memory : HostMemory.values()) {
            for (long size : SIZES) {
                for (List<HostDirection> dirs : List.of(List.of(HostDirection.H2D), List.of(HostDirection.D2H),
                        List.of(HostDirection.H2D, HostDirection.D2H))) {
                    tests.add(DynamicTest.dynamicTest(memory + " " + dirs + " " + size, () -> {
                        try (TransferFixture f = TransferFixture.hostDevice(0, dirs, memory, size)) {
                            exercise(f, dirs.size());
                        }
                    }));
                }
            }
        }
        return tests;
    }

    @Test
    void gatingDependsOnWhatAHeldStreamMustQueue() {
        try (TransferFixture small = TransferFixture.peer(CopyPath.HOST_STAGED, new GpuPair(0, 0), MIB, false, 4 * MIB);
             TransferFixture large = TransferFixture.peer(CopyPath.HOST_STAGED, new GpuPair(0, 0), 1024 * MIB, false,
                     4 * MIB);
             TransferFixture pageable = TransferFixture.hostDevice(0, List.of(HostDirection.H2D), HostMemory.PAGEABLE,
                     MIB)) {
            assertTrue(small.measureBatch().gated());
            assertTrue(!large.measureBatch().gated(), "256 chunks x 3 operations exceed what a held stream may queue");
            assertTrue(!pageable.measureBatch().gated(), "pageable copies must never wait behind the gate");
        }
    }

    @TestFactory
    List<DynamicTest> aCorruptedDestinationFailsTheCheck() {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("device destination", () -> corrupted(
                () -> TransferFixture.peer(CopyPath.CE_P2P_READ, new GpuPair(0, 0), MIB, false, 4 * MIB))));
        tests.add(DynamicTest.dynamicTest("pinned host destination", () -> corrupted(
                () -> TransferFixture.hostDevice(0, List.of(HostDirection.D2H), HostMemory.PINNED, MIB))));
        tests.add(DynamicTest.dynamicTest("pageable host destination", () -> corrupted(
                () -> TransferFixture.hostDevice(0, List.of(HostDirection.D2H), HostMemory.PAGEABLE, MIB))));
        return tests;
    }

    private static void corrupted(java.util.function.Supplier<TransferFixture> make) {
        System.setProperty("p2pbench.test.corrupt", "true");
        try (TransferFixture f = make.get()) {
            DataMismatchException e = assertThrows(DataMismatchException.class, f::measureBatch);
            assertTrue(e.getMessage().contains("data check failed") && e.getMessage().contains("1 of 262144 words"),
                    e.getMessage());
        } finally {
            System.clearProperty("p2pbench.test.corrupt");
        }
    }

    @Test
    void tooLittleMemoryIsASkipWithItsReason() {
        long free = Cuda.memInfo(0)[0];
        long tooMuch = (free / 4 + 1) * 4;
        BenchmarkSkipped e = assertThrows(BenchmarkSkipped.class,
                () -> TransferFixture.peer(CopyPath.CE_P2P_READ, new GpuPair(0, 0), tooMuch, false, 4 * MIB));
        assertTrue(e.getMessage().contains("too little memory"), e.getMessage());
    }
}
