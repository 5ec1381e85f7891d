package io.p2pbench.report.stats;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Exact small-sample statistics for comparing a few runs with a few runs, where normal
 * approximations are wrong (3 vs 3 values: the approximate Mann-Whitney p is 0.0495, the exact one
 * 0.10). Everything here is computed from the exact null distribution of the Mann-Whitney count
 * U = #{(i, j) : y_j > x_i} over all C(m + n, m) equally likely orderings, which assumes no ties;
 * tied values count one half, and the p-value is then conservative.
 */
public final class ExactTests {
    private ExactTests() {}

    /**
     * An interval with its exact coverage.
     *
     * @param low lower end (NaN when there is no interval)
     * @param high upper end
     * @param coverage probability that the interval covers the true value under the model, from 0 to 1
     *     (NaN when there is no interval)
     */
    public record Interval(double low, double high, double coverage) {
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

    /** The smallest two-sided p-value an exact Mann-Whitney test of m vs n values can give: 2 / C(m + n, m). */
    public static double smallestP(int m, int n) {
        if (m < 1 || n < 1) {
            return 1;
        }
        double total = Arrays.stream(uCounts(m, n)).sum();
        return Math.min(1, 2 / total);
    }

    /** Two-sided exact Mann-Whitney p-value of x against y (ties count one half); 1 when either side is empty. */
    public static double mannWhitneyP(double[] x, double[] y) {
        if (x.length == 0 || y.length == 0) {
            return 1;
        }
        double u = 0;
        for (double xi : x) {
            for (double yj : y) {
                u += yj > xi ? 1 : yj == xi ? 0.5 : 0;
            }
        }
        double[] counts = uCounts(x.length, y.length);
        double total = Arrays.stream(counts).sum();
        double below = 0;
        double above = 0;
        for (int k = 0; k < counts.length; k++) {
            if (k <= u) {
                below += counts[k];
            }
            if (k >= u) {
                above += counts[k];
            }
        }
        return Math.min(1, 2 * Math.min(below, above) / total);
    }

    /**
     * Distribution-free interval of the shift y - x (Hodges-Lehmann / Moses): the k-th smallest and
     * k-th largest of the m*n differences y_j - x_i, with the largest k whose exact coverage
     * 1 - 2 P(U <= k - 1) reaches {@code level}; when no k reaches it, k = 1 (the extreme
     * differences) and the coverage it has, stated, never rounded up. No interval (NaN) with one
     * value on each side.
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
        return new Interval(d[best - 1], d[d.length - best], coverage);
    }

    /**
     * Distribution-free interval of one sample's median: the k-th smallest and k-th largest value
     * with the largest k whose binomial coverage 1 - 2 P(B <= k - 1), B ~ Bin(n, 1/2), reaches
     * {@code level}, else [min, max] with its own coverage 1 - 2^(1-n) (75% at n = 3), stated.
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
        return new Interval(s[best - 1], s[n - best], coverage);
    }

    /**
     * Distribution-free interval of one sample's {@code q}-quantile (0 < q < 1), as {@link #medianInterval}
     * for any quantile: with B ~ Bin(n, q) the number of values below the true quantile, the order
     * statistics x_(l) and x_(u) for the largest l with P(B < l) <= (1 - level) / 2 and the smallest u with
     * P(B >= u) <= (1 - level) / 2. Where that asks for a rank beyond the sample (a tail quantile of few
     * values) the extreme value stands in and the coverage P(l <= B <= u - 1) is stated as it is, never
     * rounded up: the p99 of 200 values has about 85% at best, since all 200 fall below the true p99 with
     * probability 0.99^200 = 13%. q = 0.5 gives {@link #medianInterval}'s ranks. No interval (NaN) below two values.
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
        return new Interval(s[lower - 1], s[upper - 1], coverage);
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
