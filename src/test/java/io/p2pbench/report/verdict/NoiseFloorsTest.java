package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The noise floors' degrees of freedom: independent runs, never run pairs. */
class NoiseFloorsTest {
    private static final Measurement.Key ROW_256M =
            new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way", "0-0", 256 * Sizes.MIB);
    private static final Measurement.Key ROW_1G =
            new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way", "0-0", Sizes.GIB);
    private static final String CLASS = "bandwidth | peer | > 16 MiB";

    /** A run whose rows have the given figures (every batch the same, so the run figure is that value). */
    private static ResultData run(int i, Map<Measurement.Key, Double> figures) {
        List<Measurement> ms = new ArrayList<>();
        figures.forEach((k, v) -> ms.add(new Measurement(k, "m", "local", true, "sweep", "id", new double[] {v, v, v},
                "test")));
        return new ResultData(Path.of("run" + i), "run" + i, "m", "test", null, null, ms, List.of(), Map.of(), null);
    }

    @Test
    void sevenRunsGiveSixDegreesOfFreedomNotTwentyOnePairs() {
        double[] logs = {0.010, -0.004, 0.007, -0.012, 0.000, 0.005, -0.006};
        List<ResultData> runs = new ArrayList<>();
        for (int i = 0; i < logs.length; i++) {
            runs.add(run(i, Map.of(ROW_256M, 100 * Math.exp(logs[i]), ROW_1G, 200 * Math.exp(-logs[i]))));
        }
        NoiseFloors.ClassNoise noise = NoiseFloors.learn("t", runs).classes().get(CLASS);
        double sum = 0;
        for (int a = 0; a < logs.length; a++) {
            for (int b = a + 1; b < logs.length; b++) {
                sum += 2 * (logs[a] - logs[b]) * (logs[a] - logs[b]);
            }
        }
        assertEquals(sum / 42, noise.meanSquare(), 1e-12, "s^2: mean square over 21 pairs x 2 rows");
        assertEquals(42, noise.ratios());
        assertEquals(6, noise.degreesOfFreedom(), "7 runs: 6 independent log differences");
        // s_up = s sqrt(6 / chi2_0.05(6)) = 1.915 s; the 21 pairs counted as independent gave 1.346 s.
        assertEquals(1.9154, NoiseFloors.widening(6), 1e-4);
        assertEquals(1.3460, NoiseFloors.widening(21), 1e-4);
        assertEquals(Math.exp(NoiseFloors.Z * Math.sqrt(sum / 42) * 1.91543) - 1, noise.floor(), 1e-5);
    }

    @Test
    void runsLinkedOnlyInGroupsCountEachGroupsRunsMinusOne() {
        // Runs 0 and 1 share the 256 MiB row, runs 2, 3 and 4 the 1 GiB row: 1 + 2 independent differences.
        List<ResultData> runs = List.of(run(0, Map.of(ROW_256M, 100.0)), run(1, Map.of(ROW_256M, 101.0)),
                run(2, Map.of(ROW_1G, 200.0)), run(3, Map.of(ROW_1G, 199.0)), run(4, Map.of(ROW_1G, 202.0)));
        assertEquals(3, NoiseFloors.learn("t", runs).classes().get(CLASS).degreesOfFreedom());
    }

    @Test
    void aBaselinesRunsAddTheirDegreesOfFreedomAndWeighTheMeanSquareByThem() {
        NoiseFloors table = new NoiseFloors("t", "m", Map.of(CLASS, new NoiseFloors.ClassNoise(1e-4, 660, 11, 0.02)));
        List<ResultData> baseline = List.of(run(0, Map.of(ROW_256M, 100.0)), run(1, Map.of(ROW_256M, 102.0)),
                run(2, Map.of(ROW_256M, 99.0)));
        NoiseFloors own = NoiseFloors.learn("baseline", baseline);
        NoiseFloors.ClassNoise mine = own.classes().get(CLASS);
        assertEquals(2, mine.degreesOfFreedom(), "3 baseline runs, 3 pairs: 2 degrees of freedom");
        NoiseFloors.ClassNoise pooled = table.pooledWith(own, "p").classes().get(CLASS);
        assertEquals(13, pooled.degreesOfFreedom());
        assertEquals((11 * 1e-4 + 2 * mine.meanSquare()) / 13, pooled.meanSquare(), 1e-15);
        assertEquals(663, pooled.ratios());
        assertEquals(Math.max(0.02, mine.maxLog()), pooled.maxLog(), 0);
        assertTrue(NoiseFloors.defaults().pooledWith(own, "p").floorOf(ROW_256M).source()
                .endsWith("(" + (NoiseFloors.defaults().classes().get(CLASS).degreesOfFreedom() + 2)
                        + " degrees of freedom)"));
    }

    @Test
    void theDefaultTableCountsTheTwelveRunsItWasLearnedFromNotTheirPairs() {
        NoiseFloors table = NoiseFloors.defaults();
        // 12 runs (tools/learn-noise-floors.sh): at most 11 degrees of freedom per class; the 66 pairs are not independent.
        assertTrue(table.classes().values().stream().allMatch(c -> c.degreesOfFreedom() >= 1 && c.degreesOfFreedom() <= 11),
                table.classes().toString());
        NoiseFloors.ClassNoise peer = table.classes().get(CLASS);
        assertEquals(Math.max(NoiseFloors.floor(peer.spread(), peer.degreesOfFreedom()), peer.maxSeen()), peer.floor(), 0);
    }
}
