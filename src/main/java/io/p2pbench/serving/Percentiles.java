package io.p2pbench.serving;

import java.util.Arrays;

/**
 * Percentiles by R-7 (numpy's default; Commons Math's {@code EstimationType.R_7}, as the rest of the
 * suite): for sorted x_1..x_n, h = (n - 1) p + 1 and the value x_floor(h) + (h - floor(h))
 * (x_floor(h)+1 - x_floor(h)). Written out because a request that never finished counts as +infinity
 * (censored at the point's cap): a percentile that falls on it is +infinity, one below it stays finite.
 */
public final class Percentiles {
    private Percentiles() {}

    /** The {@code p}-th percentile (0 < p <= 100) of {@code sorted} (ascending, no NaN). */
    public static double r7(double[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile " + p + " is not in (0, 100]");
        }
        double h = (sorted.length - 1) * p / 100 + 1;
        int lo = (int) Math.floor(h);
        double frac = h - lo;
        double below = sorted[lo - 1];
        if (frac == 0 || lo >= sorted.length) {
            return below;
        }
        double above = sorted[lo];
        return above == below ? below : below + frac * (above - below);
    }

    /** {@code values} without NaN, sorted ascending. */
    public static double[] sortedWithoutNaN(double[] values) {
        double[] out = Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
        Arrays.sort(out);
        return out;
    }
}
