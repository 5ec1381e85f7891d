package io.p2pbench.report.stats;

import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.spec.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * The latency-bandwidth (alpha-beta, Hockney) model t(n) = alpha + n / beta, fitted per machine,
 * path, direction and pair: startup latency alpha, asymptotic bandwidth beta, and the half-bandwidth
 * size n1/2 = alpha * beta at which half of beta is reached.
 *
 * <p>The times are p50 host-observed latencies where at least three sizes have them, else the
 * device-timed time per transfer n / (median bandwidth). The fit minimises relative residuals
 * (least squares weighted by 1/t^2), so small sizes, which carry alpha, count as much as large
 * ones; the parameters' standard errors come from the regression, and n1/2's by the delta method.
 */
public final class HockneyFit {
    /** Fewest sizes a fit needs (two parameters, and one degree of freedom for the errors). */
    public static final int MIN_SIZES = 3;

    private HockneyFit() {}

    /**
     * One fit.
     *
     * @param series the measurement the sizes belong to (its key's size is the smallest fitted)
     * @param fittedOn what the times are: p50 latency or time per transfer from bandwidth
     * @param sizes number of sizes fitted
     * @param maxSizeBytes largest size fitted
     * @param alphaMicros startup latency, µs
     * @param alphaError its standard error, µs
     * @param betaGBps asymptotic bandwidth, decimal GB/s
     * @param betaError its standard error, GB/s
     * @param halfBytes n1/2, bytes
     * @param halfError its standard error, bytes
     * @param rmsRelative root-mean-square of (t - fit) / t
     */
    public record Fit(Measurement series, String fittedOn, int sizes, long maxSizeBytes, double alphaMicros,
                      double alphaError, double betaGBps, double betaError, double halfBytes, double halfError,
                      double rmsRelative) {
        /** Whether the parameters make physical sense (alpha >= 0 and beta > 0). */
        public boolean physical() {
            return alphaMicros >= 0 && betaGBps > 0;
        }
    }

    /** Fits one series of sizes (bytes) and times (µs). */
    public static Fit fit(Measurement series, String fittedOn, long[] sizes, double[] micros) {
        if (sizes.length < MIN_SIZES) {
            throw new IllegalArgumentException("a fit needs " + MIN_SIZES + " sizes, got " + sizes.length);
        }
        OLSMultipleLinearRegression r = regression(sizes, micros);
        double[] p = r.estimateRegressionParameters();
        double alpha = p[0];
        double gamma = p[1];
        double sigma2 = r.estimateErrorVariance();
        double[][] cov = r.estimateRegressionParametersVariance();
        double varAlpha = sigma2 * cov[0][0];
        double varGamma = sigma2 * cov[1][1];
        double covAlphaGamma = sigma2 * cov[0][1];
        // beta = 1 / gamma bytes per µs; 1 byte/µs = 1e-3 GB/s.
        double beta = 1e-3 / gamma;
        double betaError = 1e-3 * Math.sqrt(varGamma) / (gamma * gamma);
        double half = alpha / gamma;
        double halfVar = varAlpha / (gamma * gamma) + alpha * alpha * varGamma / Math.pow(gamma, 4)
                - 2 * alpha * covAlphaGamma / Math.pow(gamma, 3);
        double rss = 0;
        long max = 0;
        for (int i = 0; i < sizes.length; i++) {
            double rel = (micros[i] - alpha - gamma * sizes[i]) / micros[i];
            rss += rel * rel;
            max = Math.max(max, sizes[i]);
        }
        return new Fit(series, fittedOn, sizes.length, max, alpha, Math.sqrt(varAlpha), beta, betaError, half,
                Math.sqrt(Math.max(0, halfVar)), Math.sqrt(rss / sizes.length));
    }

    /**
     * Fits every one-way peer and host series of {@code measurements} with at least {@link #MIN_SIZES}
     * sizes: on p50 latency where there is enough of it, else on bandwidth.
     */
    public static List<Fit> fitAll(List<Measurement> measurements) {
        Map<String, TreeMap<Long, Measurement>> latency = new LinkedHashMap<>();
        Map<String, TreeMap<Long, Measurement>> bandwidth = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            Measurement.Key k = m.key();
            boolean oneWay = k.lane() == Lane.ONE_WAY || k.lane().isHostOneWay();
            if (!oneWay || !(k.is(Kind.PEER) || k.is(Kind.HOST))) {
                continue;
            }
            String series = m.machine() + "|" + k.kind() + "|" + k.path() + "|" + k.direction() + "|" + k.pair();
            (k.biggerIsBetter() ? bandwidth : latency).computeIfAbsent(series, s -> new TreeMap<>())
                    .put(k.sizeBytes(), m);
        }
        Set<String> series = new LinkedHashSet<>(bandwidth.keySet());
        series.addAll(latency.keySet());
        List<Fit> fits = new ArrayList<>();
        for (String s : series) {
            boolean onLatency = latency.containsKey(s) && latency.get(s).size() >= MIN_SIZES;
            TreeMap<Long, Measurement> points = onLatency ? latency.get(s) : bandwidth.get(s);
            if (points == null || points.size() < MIN_SIZES) {
                continue;
            }
            long[] sizes = new long[points.size()];
            double[] micros = new double[points.size()];
            int i = 0;
            for (Measurement m : points.values()) {
                sizes[i] = m.key().sizeBytes();
                // 1 GB/s = 1e3 bytes per µs.
                micros[i] = onLatency ? Statistics.latency(m.samples()).p50()
                        : sizes[i] / (Statistics.bandwidth(m.samples()).median() * 1e3);
                i++;
            }
            fits.add(fit(points.firstEntry().getValue(), onLatency ? "p50 latency (host-observed)"
                    : "median bandwidth (device-timed)", sizes, micros));
        }
        return fits;
    }

    private static OLSMultipleLinearRegression regression(long[] sizes, double[] micros) {
        // Dividing t_i = alpha + gamma * n_i by t_i weights each point by 1 / t_i^2:
        // 1 = alpha * (1 / t_i) + gamma * (n_i / t_i), a regression through the origin.
        double[] y = new double[sizes.length];
        double[][] x = new double[sizes.length][2];
        for (int i = 0; i < sizes.length; i++) {
            y[i] = 1;
            x[i][0] = 1 / micros[i];
            x[i][1] = sizes[i] / micros[i];
        }
        OLSMultipleLinearRegression r = new OLSMultipleLinearRegression();
        r.setNoIntercept(true);
        r.newSampleData(y, x);
        return r;
    }
}
