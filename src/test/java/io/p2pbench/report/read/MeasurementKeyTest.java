package io.p2pbench.report.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.report.Compare;
import io.p2pbench.report.Fixtures;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The typed parts of a measurement's key, as each reader sets them, and their text. */
class MeasurementKeyTest {
    private static Set<Lane> lanes(ResultData d) {
        Set<Lane> out = EnumSet.noneOf(Lane.class);
        d.measurements().forEach(m -> out.add(m.key().lane()));
        return out;
    }

    private static List<ResultData> runs;

    /** Every committed run and fixture run, read (once). */
    private static synchronized List<ResultData> runs() throws Exception {
        if (runs != null) {
            return runs;
        }
        List<ResultData> out = new ArrayList<>(List.of(ResultReader.read(Fixtures.X1), ResultReader.read(Fixtures.X8)));
        try (Stream<Path> dirs = Files.list(Path.of("results/h200x1-single-r580"))) {
            for (Path d : dirs.sorted().filter(p -> Files.exists(p.resolve("manifest.json"))).toList()) {
                out.add(ResultReader.read(d));
            }
        }
        runs = List.copyOf(out);
        return runs;
    }

    @Test
    void runsSetEveryLaneOfCopiesAndCollectives() throws Exception {
        Set<Lane> seen = EnumSet.noneOf(Lane.class);
        runs().forEach(d -> seen.addAll(lanes(d)));
        assertEquals(EnumSet.allOf(Lane.class), seen, "lanes the runs hold");
    }

    @Test
    void importsSetTheLanesOfTheirTestcases() throws Exception {
        ResultData nvb = Compare.read(Fixtures.NVBANDWIDTH, 256 * Sizes.MIB);
        assertEquals(EnumSet.of(Lane.ONE_WAY, Lane.UNDER_REVERSE, Lane.BOTH_WAYS, Lane.H2D, Lane.D2H,
                Lane.H2D_UNDER_D2H), lanes(nvb));
        assertEquals(ResultData.Tool.NVBANDWIDTH, nvb.tool());
        assertEquals("8x NVIDIA H200", nvb.listedGpus());
        for (Path file : List.of(Fixtures.NCCL_TESTS, Fixtures.NCCL_TESTS_TEXT)) {
            ResultData nccl = Compare.read(file, 0, "all_reduce");
            assertEquals(EnumSet.of(Lane.BUS, Lane.ALG), lanes(nccl), file.toString());
            assertEquals(ResultData.Tool.NCCL_TESTS, nccl.tool());
            for (Measurement m : nccl.measurements()) {
                Endpoints.Ranks ranks = assertInstanceOf(Endpoints.Ranks.class, m.key().ends());
                assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), ranks.gpus());
                assertEquals(BusBandwidth.Operation.ALL_REDUCE, m.key().route().operation());
                assertFalse(m.key().route().hostStaged());
            }
        }
        assertEquals(ResultData.Tool.P2PBENCH, ResultReader.read(Fixtures.X1).tool());
    }

    /** The text a key shows is what its typed parts say: a key rebuilt from its text is the same key. */
    @Test
    void typedPartsAndTheirTextAgreeForEveryReader() throws Exception {
        List<ResultData> all = new ArrayList<>(runs());
        all.add(Compare.read(Fixtures.NVBANDWIDTH, 256 * Sizes.MIB));
        all.add(Compare.read(Fixtures.NCCL_TESTS, 0, "all_reduce"));
        all.add(Compare.read(Fixtures.NCCL_TESTS_TWO_RANKS_ONE_GPU, 0, "all_reduce"));
        int checked = 0;
        for (ResultData d : all) {
            for (Measurement m : d.measurements()) {
                Measurement.Key k = m.key();
                assertEquals(k, new Measurement.Key(k.metric(), k.kind(), k.path(), k.direction(), k.pair(),
                        k.sizeBytes()), k.toString());
                if (k.ends() instanceof Endpoints.Pair p) {
                    assertEquals(p.pair().src() + "-" + p.pair().dst(), k.pair());
                } else if (k.ends() instanceof Endpoints.Host h) {
                    assertEquals("GPU" + h.gpu(), k.pair());
                } else {
                    Endpoints.Ranks r = assertInstanceOf(Endpoints.Ranks.class, k.ends(), k.toString());
                    assertEquals(r.size(), k.pair().split(",").length);
                }
                if (k.is(io.p2pbench.spec.Kind.HOST)) {
                    assertEquals(HostMemory.valueOf(k.path().split(" ")[0]), k.route().memory(), k.toString());
                } else {
                    assertNull(k.route().memory(), k.toString());
                }
                checked++;
            }
        }
        assertTrue(checked > 1000, "keys checked: " + checked);
    }

    @Test
    void aBidirectionalCopyHasTwoLanesAndTheirSumOnTheOrderedPair() throws Exception {
        Set<Lane> selfLanes = EnumSet.noneOf(Lane.class);
        List<Measurement> bidir = ResultReader.read(Fixtures.X8).measurements().stream()
                .filter(m -> m.key().lane() == Lane.UNDER_REVERSE || m.key().lane() == Lane.BOTH_WAYS).toList();
        assertFalse(bidir.isEmpty());
        for (Measurement m : bidir) {
            GpuPair pair = assertInstanceOf(Endpoints.Pair.class, m.key().ends()).pair();
            if (m.key().lane() == Lane.BOTH_WAYS) {
                assertTrue(pair.src() <= pair.dst(), "the sum is of the ordered pair: " + m);
                assertTrue(m.key().lane().isSum() && m.key().lane().isBidirectional());
            } else {
                assertFalse(pair.sameGpu(), "within one GPU the lanes are concurrent copies, not " + m);
                assertFalse(m.key().lane().isSum());
            }
        }
        ResultReader.read(Fixtures.X8).measurements().stream().filter(m -> m.key().pair().equals("0-0"))
                .forEach(m -> selfLanes.add(m.key().lane()));
        assertTrue(selfLanes.containsAll(List.of(Lane.SELF_LANE_1, Lane.SELF_LANE_2, Lane.BOTH_WAYS)), selfLanes.toString());
    }

    @Test
    void lanesSayWhatTheyAre() {
        assertTrue(Lane.HOST_BOTH_WAYS.isSum());
        assertTrue(Lane.SELF_LANE_2.isBidirectional());
        assertFalse(Lane.ONE_WAY.isBidirectional());
        assertTrue(Lane.BUS.isBusOrAlg() && Lane.ALG.isBusOrAlg() && !Lane.PER_OPERATION.isBusOrAlg());
        assertTrue(Lane.H2D.isHostOneWay() && Lane.D2H.isHostOneWay() && !Lane.H2D_UNDER_D2H.isHostOneWay());
        assertEquals(Lane.D2H_UNDER_H2D, Lane.ofLabel("D2H, H2D running"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Lane.ofLabel("sideways"));
        assertEquals("direction 'sideways' is no lane this version reports", e.getMessage());
    }

    @Test
    void endpointsWrittenAsTextAreTyped() {
        assertEquals(new Endpoints.Pair(new GpuPair(3, 1)), Endpoints.parse("3-1"));
        assertEquals(new Endpoints.Pair(new GpuPair(1, 3)), new Endpoints.Pair(new GpuPair(3, 1)).unordered());
        assertEquals(new Endpoints.Host(7), Endpoints.parse("GPU7"));
        assertEquals(Endpoints.Ranks.ofGpus(List.of(0, 0, 1)), Endpoints.parse("0,0,1"));
        assertNull(((Endpoints.Ranks) Endpoints.parse("hostA:0,hostB:0")).gpus());
        assertEquals(new Endpoints.Pooled(8), Endpoints.parse("8 pairs"));
        assertEquals("8 pairs", new Endpoints.Pooled(8).text());
    }
}
