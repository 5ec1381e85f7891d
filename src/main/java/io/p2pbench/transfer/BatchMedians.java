package io.p2pbench.transfer;

import java.util.Arrays;

/**
 * Per-lane batch figures of one iteration and their medians (the middle value, or the mean of the
 * two middle values for an even count), minimum and maximum. The benchmarks' JMH counters hold one;
 * not thread-safe.
 */
public final class BatchMedians {
    private final double[][] values;
    private int n;

    /** @param series lanes per batch (1 for one direction, 3 for forward, reverse and sum) */
    public BatchMedians(int series) {
        if (series < 1) {
            throw new IllegalArgumentException("a batch needs at least one series, was " + series);
        }
        values = new double[series][64];
    }

    /** Forgets every batch. */
    public void clear() {
        n = 0;
    }

    /** Adds one batch: one value per series, in order. */
    public void add(double... perSeries) {
        if (perSeries.length != values.length) {
            throw new IllegalArgumentException("a batch has " + values.length + " values, got " + perSeries.length);
        }
        if (n == values[0].length) {
            for (int s = 0; s < values.length; s++) {
                values[s] = Arrays.copyOf(values[s], n * 2);
            }
        }
        for (int s = 0; s < values.length; s++) {
            values[s][n] = perSeries[s];
        }
        n++;
    }

    /** Batches added since the last {@link #clear()}. */
    public int count() {
        return n;
    }

    /** Median of {@code series}, NaN without batches. */
    public double median(int series) {
        if (n == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(values[series], n);
        Arrays.sort(sorted);
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Smallest value of {@code series}, NaN without batches. */
    public double min(int series) {
        return n == 0 ? Double.NaN : Arrays.stream(values[series], 0, n).min().getAsDouble();
    }

    /** Largest value of {@code series}, NaN without batches. */
    public double max(int series) {
        return n == 0 ? Double.NaN : Arrays.stream(values[series], 0, n).max().getAsDouble();
    }
}
