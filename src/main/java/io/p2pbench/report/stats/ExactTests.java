package io.p2pbench.report.stats;

import io.p2pbench.serving.PointStats;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Exact small-sample statistics for comparing a few runs with a few runs, where normal
 * approximations are wrong (3 vs 3 values: the approximate Mann-Whitney p is 0.0495, the exact one
 * 0.10).
 *
 * <p>The Mann-Whitney test is the exact conditional (permutation) test of the rank sum: the pooled
 * values are ranked, tied values sharing their midrank, and the null distribution of one side's rank
 * sum is counted over all C(m + n, m) equally likely splits of those very pooled values into the two
 * sides. Without ties that is the textbook distribution of U; with ties it is the distribution the
 * data actually have (latency figures come from JMH's binned histogram, so runs often tie), and the
 * smallest attainable p is taken from it too. Counting a tie as one half of U against the no-ties
 * distribution instead is anti-conservative: x = {1, 2, 3, 4} against y = {4, 5, 6, 7} would give
 * 2/70 = 0.0286, while the exact p with the tie is 4/70 = 0.0571. Exact up to about 85 values in
 * all ({@link RankSumDistribution}; beyond, a tie-corrected normal approximation).
 *
 * <p>The shift interval uses the no-ties distribution of U: its coverage is exact for continuous
 * figures and at least that with ties ({@link Interval#atLeast}).
 */
public final class ExactTests {
    private ExactTests() {}

    /**
     * An interval with its coverage.
     *
     * @param low lower end (NaN when there is no interval)
     * @param high upper end
     * @param coverage probability that the interval covers the true value under the model, from 0 to 1
     *     (NaN when there is no interval)
     * @param atLeast whether {@code coverage} is a lower bound rather than exact: the values hold ties, so they
     *     come from a discrete distribution, where a closed order-statistic interval covers at least as often
     *     as with continuous values (breaking every tie at random gives the continuous case, and can only
     *     move an end of the interval outwards)
     */
    public record Interval(double low, double high, double coverage, boolean atLeast) {
        /** An interval whose coverage is exact. */
        public Interval(double low, double high, double coverage) {
            this(low, high, coverage, false);
        }

        /** Whether there is an interval at all. */
        public boolean exists() {
            return !Double.isNaN(coverage);
        }
    }

    /**
     * Number of orderings of m x-values and n y-values with each count U = u, u = 0..m*n
     * (the exact null distribution, as counts; their sum is C(m + n, m)).
     */
    static double[] uCounts(int m, int n) {
        // f[i][j][u]: orderings of i x's and j y's with count u; built row by row on the last element.
        double[][] prev = new double[n + 1][];
        for (int j = 0; j <= n; j++) {
            prev[j] = new double[1];
            prev[j][0] = 1; // zero x's: one ordering, U = 0
        }
        for (int i = 1; i <= m; i++) {
            double[][] cur = new double[n + 1][];
            for (int j = 0; j <= n; j++) {
                cur[j] = new double[i * j + 1];
                // Last element is an x (it is below all j y's: adds 0) or a y (above all i x's: adds i).
                double[] lastX = prev[j];
                for (int u = 0; u < lastX.length; u++) {
                    cur[j][u] += lastX[u];
                }
                if (j > 0) {
                    double[] lastY = cur[j - 1];
                    for (int u = 0; u < lastY.length; u++) {
                        cur[j][u + i] += lastY[u];
                    }
                }
            }
            prev = cur;
        }
        return prev[n];
    }

    /**
     * The smallest two-sided p-value an exact Mann-Whitney test of m vs n values without ties can give:
     * 2 / C(m + n, m). Ties can only raise it ({@link #smallestP(double[], double[])}).
     */
    public static double smallestP(int m, int n) {
        if (m < 1 || n < 1) {
            return 1;
        }
        double total = Arrays.stream(uCounts(m, n)).sum();
        return Math.min(1, 2 / total);
    }

    /**
     * The smallest two-sided p-value the exact conditional Mann-Whitney test can give for these pooled
     * values, whichever way they were split: 2 min(P(W = W_min), P(W = W_max)) under the split
     * distribution of the rank sum W. Ties raise it: {1, 2, 3, 4, 4, 5, 6, 7} split 4 vs 4 cannot go
     * below 4/70 = 0.0571, so it cannot reach 0.05, while 8 distinct values reach 2/70.
     */
    public static double smallestP(double[] x, double[] y) {
        if (x.length == 0 || y.length == 0) {
            return 1;
        }
        return new RankSumDistribution(x, y).smallestP();
    }

    /**
     * Two-sided exact conditional Mann-Whitney p-value of x against y, ties included: twice the smaller
     * tail of the midrank sum over every split of the pooled values, at most 1 ({@link ExactTests} says
     * why); 1 when either side is empty or every value is equal.
     */
    public static double mannWhitneyP(double[] x, double[] y) {
        if (x.length == 0 || y.length == 0) {
            return 1;
        }
        return new RankSumDistribution(x, y).p();
    }

    /**
     * Distribution-free interval of the shift y - x (Hodges-Lehmann / Moses): the k-th smallest and
     * k-th largest of the m*n differences y_j - x_i, with the largest k whose exact coverage
     * 1 - 2 P(U <= k - 1) reaches {@code level}; when no k reaches it, k = 1 (the extreme
     * differences) and the coverage it has, stated, never rounded up. The coverage is exact for
     * continuous figures; where values tie (discrete figures, such as the p50 of a binned latency
     * histogram) it is a lower bound, and the interval says so
     * ({@link Interval#atLeast}). No interval (NaN) with one value on each side.
     */
    public static Interval shiftInterval(double[] x, double[] y, double level) {
        int m = x.length;
        int n = y.length;
        if (m * n < 2) {
            return new Interval(Double.NaN, Double.NaN, Double.NaN);
        }
        double[] d = new double[m * n];
        int at = 0;
        for (double xi : x) {
            for (double yj : y) {
                d[at++] = yj - xi;
            }
        }
        Arrays.sort(d);
        double[] counts = uCounts(m, n);
        double total = Arrays.stream(counts).sum();
        int best = 1;
        double cumulative = 0; // P(U <= k - 1) * total
        double coverage = 1 - 2 * counts[0] / total;
        for (int k = 1; k <= d.length / 2; k++) {
            cumulative += counts[k - 1];
            double c = 1 - 2 * cumulative / total;
            if (c >= level) {
                best = k;
                coverage = c;
            } else {
                break;
            }
        }
        double[] pooled = new double[m + n];
        System.arraycopy(x, 0, pooled, 0, m);
        System.arraycopy(y, 0, pooled, m, n);
        return new Interval(d[best - 1], d[d.length - best], coverage, hasTies(pooled));
    }

    /**
     * Distribution-free interval of one sample's median: the k-th smallest and k-th largest value
     * with the largest k whose binomial coverage 1 - 2 P(B <= k - 1), B ~ Bin(n, 1/2), reaches
     * {@code level}, else [min, max] with its own coverage 1 - 2^(1-n) (75% at n = 3), stated; with
     * ties that coverage is a lower bound ({@link Interval#atLeast}).
     */
    public static Interval medianInterval(double[] x, double level) {
        int n = x.length;
        if (n < 2) {
            return new Interval(Double.NaN, Double.NaN, Double.NaN);
        }
        double[] s = x.clone();
        Arrays.sort(s);
        double[] binom = new double[n + 1];
        binom[0] = Math.pow(0.5, n);
        for (int k = 1; k <= n; k++) {
            binom[k] = binom[k - 1] * (n - k + 1) / k;
        }
        int best = 1;
        double coverage = 1 - 2 * binom[0];
        double cumulative = 0;
        for (int k = 1; k <= n / 2; k++) {
            cumulative += binom[k - 1];
            double c = 1 - 2 * cumulative;
            if (c >= level) {
                best = k;
                coverage = c;
            } else {
                break;
            }
        }
        return new Interval(s[best - 1], s[n - best], coverage, hasTies(s));
    }

    /**
     * The distribution-free interval of the p99 of one serving point's latencies at
     * {@link Statistics#CONFIDENCE}: what the serving tables and charts give around a p99.
     */
    public static Interval p99Interval(PointStats.Latency l) {
        return quantileInterval(l.sorted(), 0.99, Statistics.CONFIDENCE);
    }

    /**
     * Distribution-free interval of one sample's {@code q}-quantile (0 < q < 1), as {@link #medianInterval}
     * for any quantile: with B ~ Bin(n, q) the number of values below the true quantile, the order
     * statistics x_(l) and x_(u) for the largest l with P(B < l) <= (1 - level) / 2 and the smallest u with
     * P(B >= u) <= (1 - level) / 2. Where that asks for a rank beyond the sample (a tail quantile of few
     * values) the extreme value stands in and the coverage P(l <= B <= u - 1) is stated as it is, never
     * rounded up: the p99 of 200 values has about 85% at best, since all 200 fall below the true p99 with
     * probability 0.99^200 = 13%. q = 0.5 gives {@link #medianInterval}'s ranks. With ties the coverage is a lower
     * bound ({@link Interval#atLeast}). No interval (NaN) below two values.
     */
    public static Interval quantileInterval(double[] x, double q, double level) {
        int n = x.length;
        if (!(q > 0 && q < 1) || !(level > 0 && level < 1)) {
            throw new IllegalArgumentException("quantile " + q + " or level " + level + " is not between 0 and 1");
        }
        if (n < 2) {
            return new Interval(Double.NaN, Double.NaN, Double.NaN);
        }
        double[] s = x.clone();
        Arrays.sort(s);
        BinomialDistribution b =
                new BinomialDistribution(null, n, q);
        double tail = (1 - level) / 2;
        int lower = 1;
        for (int l = 1; l <= n; l++) {
            if (b.cumulativeProbability(l - 1) <= tail + 1e-12) {
                lower = l;
            } else {
                break;
            }
        }
        int upper = n;
        for (int u = n; u >= 1; u--) {
            if (1 - b.cumulativeProbability(u - 1) <= tail + 1e-12) {
                upper = u;
            } else {
                break;
            }
        }
        if (upper <= lower) {
            upper = Math.min(n, lower + 1);
            lower = upper - 1;
        }
        double coverage = b.cumulativeProbability(upper - 1) - b.cumulativeProbability(lower - 1);
        return new Interval(s[lower - 1], s[upper - 1], coverage, hasTies(s));
    }

    /** Whether two of the values are equal. */
    static boolean hasTies(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        for (int i = 1; i < s.length; i++) {
            if (Double.compare(s[i], s[i - 1]) == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Benjamini-Hochberg adjusted p-values (q-values) of {@code p}, in the same order; NaN entries
     * (rows without a test) are left out of the family and stay NaN.
     */
    public static double[] benjaminiHochberg(double[] p) {
        Integer[] order = IntStream.range(0, p.length).filter(i -> !Double.isNaN(p[i]))
                .boxed().sorted((a, b) -> Double.compare(p[a], p[b])).toArray(Integer[]::new);
        double[] q = new double[p.length];
        Arrays.fill(q, Double.NaN);
        int family = order.length;
        double running = 1;
        for (int r = family - 1; r >= 0; r--) {
            running = Math.min(running, p[order[r]] * family / (r + 1));
            q[order[r]] = running;
        }
        return q;
    }
}
