package io.p2pbench.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.topology.GpuPair;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sizes, pairs, the pattern and batch arithmetic: no GPU needed. */
class TransferUnitsTest {

    @Test
    void sizesParseBinaryMultiplesAndFormatBack() {
        assertEquals(4096, Sizes.parse("4K"));
        assertEquals(4096, Sizes.parse("4KiB"));
        assertEquals(4096, Sizes.parse("4kb"));
        assertEquals(1L << 20, Sizes.parse("1M"));
        assertEquals(256L << 20, Sizes.parse("256MiB"));
        assertEquals(1L << 30, Sizes.parse(" 1G "));
        assertEquals(4, Sizes.parse("4"));
        assertEquals(List.of(4096L, 1L << 20), Sizes.parseList("4K,1M"));
        assertEquals("4 KiB", Sizes.format(4096));
        assertEquals("1 GiB", Sizes.format(1L << 30));
        assertEquals("4 B", Sizes.format(4));
        assertEquals("1.5 MiB", Sizes.format(3L << 19));
        assertEquals("256MiB", Sizes.compact(256L << 20));
        assertEquals(19, Sizes.powersOfTwo(4096, 1L << 30).size());
    }

    @Test
    void badSizesNameTheValueAndTheAcceptedForms() {
        for (String bad : List.of("0", "-4K", "4X", "", "1.5M", "10")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Sizes.parse("10")).getMessage()
                .contains("multiple of 4 bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Sizes.parse("4X")).getMessage()
                .contains("4K, 4KiB, 1M"));
    }

    @Test
    void pairsParseAndRejectMalformedText() {
        assertEquals(new GpuPair(0, 1), GpuPair.parse("0-1"));
        assertEquals(List.of(new GpuPair(0, 1), new GpuPair(1, 0)), GpuPair.parseList("0-1, 1-0"));
        assertTrue(GpuPair.parse("2-2").sameGpu());
        for (String bad : List.of("0", "0-", "a-b", "0:1", "-1-0")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GpuPair.parse(bad));
            assertTrue(e.getMessage().contains("'" + bad + "' is malformed"), e.getMessage());
        }
    }

    @Test
    void thePatternIsPositionDependentAndNeverThePoison() {
        assertNotEquals(Pattern.word(1, 0), Pattern.word(1, 1));
        assertNotEquals(Pattern.word(1, 5), Pattern.word(2, 5));
        assertNotEquals(Pattern.word(1, 5), Pattern.word(1, 5 + (1L << 32)), "high index bits count too");
        for (int seed = 0; seed < 64; seed++) {
            for (long i = 0; i < 4096; i++) {
                assertNotEquals(Pattern.POISON_WORD, Pattern.word(seed, i));
            }
        }
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        Pattern.fill(b, 7);
        assertEquals(-1, Pattern.firstMismatch(b, 7));
        b.putInt(40, Pattern.POISON_WORD);
        assertEquals(10, Pattern.firstMismatch(b, 7));
        assertEquals(0, Pattern.firstMismatch(b, 8), "another seed differs at once");
    }

    @Test
    void batchesAreDecimalGigabytesPerSecondOfDeviceTime() {
        // lane 0 runs 200 us, lane 1 400 us, and lane 0 starts 250 us after lane 1: the common window is 450 us
        BandwidthProbe.Batch b = new BandwidthProbe.Batch(1_000_000, 10, true, new double[] {200_000, 400_000},
                450_000);
        assertEquals(50.0, b.gbps(0), 1e-12); // 10 MB in 200 us
        assertEquals(25.0, b.gbps(1), 1e-12);
        assertEquals(20e6 / 450_000, b.totalGbps(), 1e-12, "all 20 MB over the common window, not 50 + 25");
        assertTrue(b.totalGbps() < b.gbps(0) + b.gbps(1));
    }

    @Test
    void batchesMoveAbout256MebibytesWithinBounds() {
        assertEquals(128, BandwidthProbe.copiesFor(4));
        assertEquals(128, BandwidthProbe.copiesFor(1 << 20));
        assertEquals(64, BandwidthProbe.copiesFor(4 << 20));
        assertEquals(4, BandwidthProbe.copiesFor(64L << 20));
        assertEquals(4, BandwidthProbe.copiesFor(1L << 30));
    }

    @Test
    void pathsKnowTheirIssuer() {
        assertEquals(1, CopyPath.CE_P2P_READ.issuingDevice(0, 1));
        assertEquals(0, CopyPath.CE_P2P_WRITE.issuingDevice(0, 1));
        assertEquals(0, CopyPath.SM_P2P_WRITE.issuingDevice(0, 1));
        assertTrue(CopyPath.SM_P2P_READ.needsPeerAccess());
        assertTrue(!CopyPath.HOST_STAGED.needsPeerAccess());
    }

    @Test
    void numaPlacementNeedsMoreThanOneNode() {
        assertTrue(Feasibility.numa(NumaPlacement.REMOTE, 1, -1).orElseThrow().contains("one NUMA node"));
        assertTrue(Feasibility.numa(NumaPlacement.LOCAL, 1, -1).isEmpty());
        assertTrue(Feasibility.numa(NumaPlacement.LOCAL, 2, -1).orElseThrow().contains("numa_node = -1"));
        assertTrue(Feasibility.numa(NumaPlacement.REMOTE, 2, 1).isEmpty());
    }
}
