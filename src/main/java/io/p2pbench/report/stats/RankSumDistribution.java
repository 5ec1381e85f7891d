package io.p2pbench.report.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The null distribution of the exact conditional Mann-Whitney test ({@link ExactTests#mannWhitneyP}):
 * the midrank sum of one side over every split of the pooled values, and that side's observed sum.
 * Midranks are counted doubled, so every sum is a whole number and no tail is lost to rounding.
 *
 * <p>Counted by dynamic programming over the values (a knapsack count of the k-subsets of the
 * tracked side's size by their doubled rank sum), which gives exactly what enumerating the
 * C(m + n, m) splits one by one gives, in at most N k (S + 1) steps (N values, k on the smaller
 * side, S the largest doubled sum, below 2 N k) instead of C(N, k). Beyond {@link #EXACT_STEPS}
 * steps (N above about 85 with equal sides, more runs or rounds than a comparison has) the normal
 * approximation with the tie-corrected variance and a continuity correction stands in (on 70 vs 70
 * values in ten tied groups it gives 0.5109 where the exact p is 0.5111).
 */
final class RankSumDistribution {
    /** Most dynamic-programming steps spent on an exact distribution. */
    static final long EXACT_STEPS = 20_000_000L;

    private final int sideSize;
    private final int total;
    private final long observed;
    private final long[] doubledRanks;
    private final long[] groupSizes;

    RankSumDistribution(double[] x, double[] y) {
        // Track the smaller side: the two sides' sums add up to a constant, so either gives the same p.
        double[] side = y.length <= x.length ? y : x;
        double[] other = side == y ? x : y;
        total = x.length + y.length;
        sideSize = side.length;
        double[] pooled = new double[total];
        System.arraycopy(side, 0, pooled, 0, side.length);
        System.arraycopy(other, 0, pooled, side.length, other.length);
        Integer[] order = new Integer[total];
        for (int i = 0; i < total; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(pooled[a], pooled[b]));
        doubledRanks = new long[total];
        List<Long> sizes = new ArrayList<>();
        for (int start = 0; start < total; ) {
            int end = start;
            while (end + 1 < total && Double.compare(pooled[order[end + 1]], pooled[order[start]]) == 0) {
                end++;
            }
            long doubled = (start + 1) + (end + 1L); // twice the midrank of positions start..end (1-based)
            for (int i = start; i <= end; i++) {
                doubledRanks[order[i]] = doubled;
            }
            sizes.add((long) (end - start + 1));
            start = end + 1;
        }
        groupSizes = sizes.stream().mapToLong(Long::longValue).toArray();
        long sum = 0;
        for (int i = 0; i < sideSize; i++) {
            sum += doubledRanks[i];
        }
        observed = sum;
    }

    /** Largest doubled sum the side can have. */
    private long maxSum() {
        long[] sorted = doubledRanks.clone();
        Arrays.sort(sorted);
        long s = 0;
        for (int i = 0; i < sideSize; i++) {
            s += sorted[total - 1 - i];
        }
        return s;
    }

    /** Smallest doubled sum the side can have. */
    private long minSum() {
        long[] sorted = doubledRanks.clone();
        Arrays.sort(sorted);
        long s = 0;
        for (int i = 0; i < sideSize; i++) {
            s += sorted[i];
        }
        return s;
    }

    private boolean exact() {
        return (long) total * (sideSize + 1) * (maxSum() + 1) <= EXACT_STEPS;
    }

    /** Splits with each doubled sum 0..maxSum of the tracked side (their sum: C(N, k)). */
    double[] counts() {
        int max = (int) maxSum();
        // f[k][s]: ways to take k of the values seen so far with doubled rank sum s (a knapsack count).
        double[][] f = new double[sideSize + 1][max + 1];
        f[0][0] = 1;
        for (int i = 0; i < total; i++) {
            int r = (int) doubledRanks[i];
            for (int k = Math.min(sideSize, i + 1); k >= 1; k--) {
                double[] from = f[k - 1];
                double[] to = f[k];
                for (int s = max; s >= r; s--) {
                    to[s] += from[s - r];
                }
            }
        }
        return f[sideSize];
    }

    double p() {
        if (!exact()) {
            return normalP(observed);
        }
        double[] counts = counts();
        double all = 0;
        double below = 0;
        double above = 0;
        for (int s = 0; s < counts.length; s++) {
            all += counts[s];
            if (s <= observed) {
                below += counts[s];
            }
            if (s >= observed) {
                above += counts[s];
            }
        }
        return Math.min(1, 2 * Math.min(below, above) / all);
    }

    double smallestP() {
        if (!exact()) {
            return normalP(maxSum());
        }
        double[] counts = counts();
        double all = Arrays.stream(counts).sum();
        return Math.min(1, 2 * Math.min(counts[(int) minSum()], counts[(int) maxSum()]) / all);
    }

    /** Normal approximation of the two-sided p of a doubled sum, ties in the variance, continuity corrected. */
    private double normalP(long doubledSum) {
        double n = total;
        double k = sideSize;
        double mean = k * (n + 1) / 2;
        double ties = 0;
        for (long t : groupSizes) {
            ties += (double) t * t * t - t;
        }
        double variance = k * (n - k) / 12 * ((n + 1) - ties / (n * (n - 1)));
        if (!(variance > 0)) {
            return 1;
        }
        double z = Math.max(0, Math.abs(doubledSum / 2.0 - mean) - 0.5) / Math.sqrt(variance);
        return Math.min(1, 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(-z));
    }

}
