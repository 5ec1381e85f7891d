package io.p2pbench.report.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HockneyFitTest {
    private static Measurement series(String metric, long size, double... samples) {
        return new Measurement(new Measurement.Key(metric, "peer", "CE_P2P_READ", "one-way", "0-1", size), "m", "NV18",
                false, "sweep", "id", samples, "test");
    }

    @Test
    void recoversAlphaAndBetaFromTheFixture() throws Exception {
        // The x1 fixture's CE_P2P_READ 0-0 p50 latencies are exactly t = 10 µs + n / (1000 GB/s):
        // alpha 10 µs, beta 1000 GB/s, n1/2 = alpha * beta = 10e-6 s * 1e12 B/s = 1e7 bytes.
        HockneyFit.Fit f = HockneyFit.fitAll(ResultReader.read(Fixtures.X1).measurements()).stream()
                .filter(x -> x.series().key().path().equals("CE_P2P_READ") && x.series().key().kind().equals("peer"))
                .findFirst().orElseThrow();
        assertEquals("p50 latency (host-observed)", f.fittedOn());
        assertEquals(3, f.sizes());
        assertEquals(10.0, f.alphaMicros(), 1e-9);
        assertEquals(1000.0, f.betaGBps(), 1e-6);
        assertEquals(1e7, f.halfBytes(), 1e-2);
        assertEquals(0.0, f.rmsRelative(), 1e-12);
        assertTrue(f.physical());
    }

    @Test
    void matchesTheWeightedNormalEquationsByHand() {
        long[] n = {4096, 1 << 20, 16 << 20, 64 << 20};
        double[] t = {12.0, 14.5, 55.0, 185.0};
        HockneyFit.Fit f = HockneyFit.fit(series("latency", 4096, 1), "test", n, t);
        // Weighted least squares, w = 1 / t^2:
        // [sum w, sum w n; sum w n, sum w n^2] [alpha; gamma] = [sum w t; sum w n t], solved by Cramer's rule.
        double sw = 0, swn = 0, swnn = 0, swt = 0, swnt = 0;
        for (int i = 0; i < n.length; i++) {
            double w = 1 / (t[i] * t[i]);
            sw += w;
            swn += w * n[i];
            swnn += w * n[i] * (double) n[i];
            swt += w * t[i];
            swnt += w * n[i] * t[i];
        }
        double det = sw * swnn - swn * swn;
        double alpha = (swt * swnn - swn * swnt) / det;
        double gamma = (sw * swnt - swn * swt) / det;
        double rss = 0;
        for (int i = 0; i < n.length; i++) {
            double r = (t[i] - alpha - gamma * n[i]) / t[i];
            rss += r * r;
        }
        double sigma2 = rss / (n.length - 2);
        assertEquals(alpha, f.alphaMicros(), 1e-9 * Math.abs(alpha));
        assertEquals(1e-3 / gamma, f.betaGBps(), 1e-9 * f.betaGBps());
        assertEquals(alpha / gamma, f.halfBytes(), 1e-6 * f.halfBytes());
        // Var(alpha) = sigma^2 * swnn / det; Var(gamma) = sigma^2 * sw / det.
        assertEquals(Math.sqrt(sigma2 * swnn / det), f.alphaError(), 1e-9 * f.alphaError());
        assertEquals(1e-3 * Math.sqrt(sigma2 * sw / det) / (gamma * gamma), f.betaError(), 1e-9 * f.betaError());
        assertEquals(Math.sqrt(rss / n.length), f.rmsRelative(), 1e-12);
        assertTrue(f.alphaError() > 0 && f.betaError() > 0 && f.halfError() > 0);
    }

    @Test
    void fitsOnBandwidthWhenLatencyIsMissing() {
        // Bandwidth from t = 5 µs + n / (100 GB/s): GB/s = n / (t * 1e3).
        List<Measurement> ms = new ArrayList<>();
        for (long n : new long[] {1 << 16, 1 << 20, 1 << 24}) {
            ms.add(series("bandwidth", n, n / ((5 + n / 1e5) * 1e3)));
        }
        ms.add(series("latency", 1 << 16, 9.0));
        List<HockneyFit.Fit> fits = HockneyFit.fitAll(ms);
        assertEquals(1, fits.size());
        assertEquals("median bandwidth (device-timed)", fits.get(0).fittedOn());
        assertEquals(5.0, fits.get(0).alphaMicros(), 1e-9);
        assertEquals(100.0, fits.get(0).betaGBps(), 1e-9);
    }

    @Test
    void needsThreeSizes() {
        assertThrows(IllegalArgumentException.class,
                () -> HockneyFit.fit(series("latency", 1, 1), "x", new long[] {1, 2}, new double[] {1, 2}));
        assertTrue(HockneyFit.fitAll(List.of(series("latency", 1, 5), series("latency", 2, 6))).isEmpty());
    }

    @Test
    void flagsAFitWithNegativeStartup() {
        // Times that fall faster than linear make alpha negative: no physical n1/2.
        HockneyFit.Fit f = HockneyFit.fit(series("latency", 1, 1), "x", new long[] {1000, 2000, 4000},
                new double[] {1.0, 3.0, 7.2});
        assertFalse(f.physical());
    }
}
