package io.p2pbench.report.stats;

import io.p2pbench.results.PercentileReach;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.moment.Mean;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * The statistics step, with Apache Commons Math. Bandwidth: the median (the headline, as nvbandwidth
 * reports it), the mean with its 95% Student-t interval, and the coefficient of variation (sample
 * standard deviation / mean), over per-batch samples. Latency: p50, p90, p99 and p99.9 with the R-7
 * estimator (numpy's default) over every sample of JMH's SampleTime histogram.
 */
public final class Statistics {
    /** How latency percentiles are estimated; printed with every latency figure. */
    public static final String PERCENTILE_ESTIMATOR = "R-7 over JMH SampleTime samples";
    /** How the bandwidth interval is computed; printed with every interval. */
    public static final String BANDWIDTH_INTERVAL = "95% t-interval of the mean over per-batch samples";
    /** Confidence level of every interval. */
    public static final double CONFIDENCE = 0.95;
    /** Latency figures by sample array (arrays compare by identity; entries go with their arrays). */
    private static final Map<double[], Latency> LATENCY = Collections.synchronizedMap(new WeakHashMap<>());

    private Statistics() {}

    /**
     * Bandwidth figures of one measurement.
     *
     * @param n samples
     * @param median R-7 median (for an even count, the mean of the two middle samples)
     * @param mean arithmetic mean
     * @param sd sample standard deviation (n - 1), NaN for one sample
     * @param ciLow lower end of the 95% t-interval of the mean, NaN for one sample
     * @param ciHigh upper end, NaN for one sample
     * @param cv coefficient of variation sd / mean, NaN for one sample
     */
    public record Bandwidth(int n, double median, double mean, double sd, double ciLow, double ciHigh, double cv) {
        /** Whether there is an interval (two samples or more). */
        public boolean hasInterval() {
            return n >= 2;
        }

        /** Half the interval's width, for symmetric error bars; 0 without an interval. */
        public double halfWidth() {
            return hasInterval() ? (ciHigh - ciLow) / 2 : 0;
        }
    }

    /**
     * Latency percentiles of one measurement, microseconds.
     *
     * @param n samples
     * @param p50 median
     * @param p90 90th percentile
     * @param p99 99th percentile
     * @param p999 99.9th percentile
     * @param mean arithmetic mean
     */
    public record Latency(int n, double p50, double p90, double p99, double p999, double mean) {
        /** Whether these samples reach percentile {@code q} (0-100): {@link PercentileReach#reaches}. */
        public boolean reaches(double q) {
            return PercentileReach.reaches(n, q);
        }
    }

    /** The fewest samples a percentile {@code q} (0 < q < 100) is reported from: {@link PercentileReach#minSamples}. */
    public static int minSamples(double q) {
        return PercentileReach.minSamples(q);
    }

    /** Median, mean, 95% t-interval of the mean and coefficient of variation of bandwidth samples. */
    public static Bandwidth bandwidth(double[] samples) {
        requireSamples(samples);
        int n = samples.length;
        double median = percentile(samples, 50);
        double mean = new Mean().evaluate(samples);
        if (n < 2) {
            return new Bandwidth(n, median, mean, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double sd = new StandardDeviation(true).evaluate(samples, mean);
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        double half = t * sd / Math.sqrt(n);
        return new Bandwidth(n, median, mean, sd, mean - half, mean + half, sd / mean);
    }

    /**
     * p50, p90, p99 and p99.9 and the mean of latency samples. A latency histogram expands to tens
     * of thousands of samples that charts, tables and exports all ask about, so results are kept for as
     * long as the sample array lives.
     */
    public static Latency latency(double[] samples) {
        requireSamples(samples);
        return LATENCY.computeIfAbsent(samples, s -> {
            Percentile p = r7();
            p.setData(s);
            return new Latency(s.length, p.evaluate(50), p.evaluate(90), p.evaluate(99), p.evaluate(99.9),
                    new Mean().evaluate(s));
        });
    }


    /** The {@code p}-th percentile (0 < p <= 100) by R-7. */
    public static double percentile(double[] samples, double p) {
        requireSamples(samples);
        return r7().evaluate(samples, p);
    }

    /**
     * A distribution-free 95% interval of the median: the order statistics whose ranks bound it by
     * the binomial distribution (normal approximation). One sample gives that sample at both ends.
     */
    public static double[] medianInterval(double[] samples) {
        requireSamples(samples);
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        int lower = (int) Math.floor((n - z * Math.sqrt(n)) / 2);
        int upper = (int) Math.ceil(1 + (n + z * Math.sqrt(n)) / 2);
        return new double[] {sorted[Math.max(1, lower) - 1], sorted[Math.min(n, upper) - 1]};
    }

    private static Percentile r7() {
        return new Percentile().withEstimationType(Percentile.EstimationType.R_7);
    }

    private static void requireSamples(double[] samples) {
        if (samples == null || samples.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
    }

    /** The median of {@code v} (for an even count, the mean of the two middle values); {@code v} is not changed. */
    public static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
