package io.p2pbench.report.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Statistics of the synthetic H200 x1 fixture against values worked out by hand (the numbers are in
 * generator/make_fixtures.py, HAND_SAMPLES).
 */
public class StatisticsTest {
    private static List<Measurement> x1;

    @BeforeAll
    static void read() throws Exception {
        x1 = ResultReader.read(Fixtures.X1).measurements();
    }

    public static Measurement find(List<Measurement> ms, String metric, String kind, String path, String direction,
                            String pair, long size) {
        Measurement.Key key = new Measurement.Key(metric, kind, path, direction, pair, size);
        return ms.stream().filter(m -> m.key().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + key));
    }

    private static Measurement peerBandwidth(long size) {
        return find(x1, "bandwidth", "peer", "CE_P2P_READ", "one-way", "0-0", size);
    }

    @Test
    void oddCountBandwidthMatchesHandComputation() {
        // samples 1.96, 1.98, 2.00, 2.02, 2.04: median 2, mean 2;
        // sd = sqrt((0.04^2 + 0.02^2 + 0 + 0.02^2 + 0.04^2) / 4) = sqrt(0.001) = 0.0316228; CV = sd / mean = 1.58114%;
        // t(0.975, df 4) = 2.776445, half width = 2.776445 * 0.0316228 / sqrt(5) = 0.0392648.
        Statistics.Bandwidth b = Statistics.bandwidth(peerBandwidth(4096).samples());
        assertEquals(5, b.n());
        assertEquals(2.0, b.median(), 1e-12);
        assertEquals(2.0, b.mean(), 1e-12);
        assertEquals(0.0316228, b.sd(), 1e-7);
        assertEquals(0.0158114, b.cv(), 1e-7);
        assertEquals(2 - 0.0392648, b.ciLow(), 1e-6);
        assertEquals(2 + 0.0392648, b.ciHigh(), 1e-6);
    }

    @Test
    void evenCountMedianIsTheMeanOfTheMiddleTwo() {
        // 392, 394, 396, 398, 400, 402: median (396 + 398) / 2 = 397, mean 397;
        // deviations -5, -3, -1, 1, 3, 5: sum of squares 70, sd = sqrt(70 / 5) = 3.741657;
        // t(0.975, df 5) = 2.570582, half width = 2.570582 * 3.741657 / sqrt(6) = 3.926629.
        Statistics.Bandwidth b = Statistics.bandwidth(peerBandwidth(1 << 20).samples());
        assertEquals(397, b.median(), 1e-12);
        assertEquals(3.741657, b.sd(), 1e-6);
        assertEquals(397 - 3.926629, b.ciLow(), 1e-5);
        assertEquals(397 + 3.926629, b.ciHigh(), 1e-5);
    }

    @Test
    void threeSamplesUseTheWideTInterval() {
        // 1590, 1600, 1610: sd 10, t(0.975, df 2) = 4.302653, half width = 4.302653 * 10 / sqrt(3) = 24.84138.
        Statistics.Bandwidth b = Statistics.bandwidth(peerBandwidth(256L << 20).samples());
        assertEquals(1600 - 24.84138, b.ciLow(), 1e-4);
        assertEquals(24.84138, b.halfWidth(), 1e-4);
    }

    @Test
    void oneSampleHasNoInterval() {
        Statistics.Bandwidth b = Statistics.bandwidth(new double[] {42});
        assertEquals(42, b.median());
        assertFalse(b.hasInterval());
        assertTrue(Double.isNaN(b.ciLow()) && Double.isNaN(b.cv()));
        assertEquals(0, b.halfWidth());
    }

    @Test
    void hostEfficiencyIsAgainstGen5x16() throws Exception {
        // 53, 53.5, 54, 54.5, 55: median 54; Gen5 x16 = 16 lanes x 3.938 GB/s = 63.008 GB/s per direction;
        // 54 / 63.008 = 0.857034.
        ResultData d = ResultReader.read(Fixtures.X1);
        Measurement m = find(d.measurements(), "bandwidth", "host", "PINNED LOCAL", "H2D", "GPU0", 64L << 20);
        LinkRates.Reference ref = LinkRates.of(m, d.topology());
        assertEquals(63.008, ref.gbps(), 1e-9);
        assertEquals("PCIe Gen5 x16: 16 lanes x 3.938 GB/s per direction", ref.assumption());
        assertEquals(0.857034, ref.efficiency(Statistics.bandwidth(m.samples()).median()), 1e-6);
    }

    @Test
    void latencyPercentilesAreR7OverTheExpandedHistogram() {
        // Histogram [[t, 3], [t + 1, 1], [t + 5, 1]] with t = 10 + 4096 / 1e6 = 10.004096 µs expands to
        // t, t, t, t+1, t+5. R-7: h = (n - 1) p; p90: h = 3.6 -> x[3] + 0.6 (x[4] - x[3]) = t + 1 + 2.4 = t + 3.4;
        // p99: h = 3.96 -> t + 1 + 3.84 = t + 4.84; p99.9: h = 3.996 -> t + 4.984; p50: h = 2 -> t; mean t + 1.2.
        double t = 10.004096;
        Measurement m = find(x1, "latency", "peer", "CE_P2P_READ", "one-way", "0-0", 4096);
        Statistics.Latency l = Statistics.latency(m.samples());
        assertEquals(5, l.n());
        assertEquals(t, l.p50(), 1e-9);
        assertEquals(t + 3.4, l.p90(), 1e-9);
        assertEquals(t + 4.84, l.p99(), 1e-9);
        assertEquals(t + 4.984, l.p999(), 1e-9);
        assertEquals(t + 1.2, l.mean(), 1e-9);
    }

    @Test
    void percentileIsNumpysDefault() {
        // numpy.percentile([1, 2, 3, 4], 25) = 1.75, (.., 90) = 3.7, (.., 50) = 2.5
        double[] x = {4, 1, 3, 2};
        assertEquals(1.75, Statistics.percentile(x, 25), 1e-12);
        assertEquals(3.7, Statistics.percentile(x, 90), 1e-12);
        assertEquals(2.5, Statistics.percentile(x, 50), 1e-12);
    }

    @Test
    void medianIntervalUsesOrderStatistics() {
        // n = 100: ranks floor((100 - 1.96 * 10) / 2) = 40 and ceil(1 + (100 + 19.6) / 2) = 61, the textbook pair.
        double[] x = new double[100];
        for (int i = 0; i < 100; i++) {
            x[i] = 100 - i;
        }
        assertArrayEquals(new double[] {40, 61}, Statistics.medianInterval(x), 1e-12);
        // n = 5: the ranks fall outside 1..5 and are clamped to the extremes.
        assertArrayEquals(new double[] {1, 5}, Statistics.medianInterval(new double[] {3, 1, 5, 2, 4}), 1e-12);
    }
}
