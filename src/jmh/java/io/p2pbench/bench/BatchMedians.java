package io.p2pbench.bench;

import java.util.Arrays;

/** Per-lane batch figures of one iteration, and their medians. Not a JMH state: counters hold one. */
final class BatchMedians {
    private final double[][] values;
    private int n;

    BatchMedians(int series) {
        values = new double[series][64];
    }

    void clear() {
        n = 0;
    }

    void add(double... perSeries) {
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

    int count() {
        return n;
    }

    double median(int series) {
        if (n == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(values[series], n);
        Arrays.sort(sorted);
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    double min(int series) {
        return n == 0 ? Double.NaN : Arrays.stream(values[series], 0, n).min().getAsDouble();
    }

    double max(int series) {
        return n == 0 ? Double.NaN : Arrays.stream(values[series], 0, n).max().getAsDouble();
    }
}
