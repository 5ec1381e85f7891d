package io.p2pbench.report.chart;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An axis of an SVG chart and how its ticks are chosen and labelled: linear axes tick at 1, 2 or 5 x 10^k,
 * log axes at 1, 2, 5 x 10^k per decade, times in ns/µs/ms/s as people read them.
 *
 * @param lo lowest value shown
 * @param hi highest value shown
 * @param log logarithmic
 * @param time values are microseconds, labelled as times
 * @param ticks tick values
 */
record Axis(double lo, double hi, boolean log, boolean time, List<Double> ticks) {
    double fraction(double v) {
        if (log) {
            return (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
        }
        return (v - lo) / (hi - lo);
    }

    String label(double t) {
        return time ? micros(t) : number(t);
    }

    /** A linear axis from 0 with ticks at a step of 1, 2 or 5 x 10^k, five to ten of them. */
    static Axis linear(double max) {
        if (!(max > 0)) {
            max = 1;
        }
        double step = niceStep(max / 6);
        double hi = Math.ceil(max * 1.04 / step) * step;
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; i * step <= hi + step / 1e6; i++) {
            ticks.add(i * step);
        }
        return new Axis(0, hi, false, false, ticks);
    }

    /** The smallest step of 1, 2 or 5 x 10^k at least {@code raw}. */
    static double niceStep(double raw) {
        double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * decade >= raw * (1 - 1e-9)) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    /**
     * A log axis covering [lo, hi] out to the next 1, 2, 5 x 10^k; ticks at 1, 2, 5 x 10^k, or only at
     * 1 x 10^k when that would give more than twelve.
     */
    static Axis log(double low, double high, boolean time) {
        final double lo = low > 0 ? low : high > 0 ? high / 10 : 1;
        final double hi = high > lo ? high : lo * 2;
        List<Double> candidates = new ArrayList<>();
        for (int k = (int) Math.floor(Math.log10(lo)) - 1; k <= (int) Math.ceil(Math.log10(hi)) + 1; k++) {
            for (double m : new double[] {1, 2, 5}) {
                candidates.add(m * Math.pow(10, k));
            }
        }
        double axisLo = candidates.stream().filter(v -> v <= lo * (1 + 1e-9)).reduce((a, b) -> b).orElse(lo);
        double axisHi = candidates.stream().filter(v -> v >= hi * (1 - 1e-9)).findFirst().orElse(hi);
        List<Double> ticks = candidates.stream().filter(v -> v >= axisLo * (1 - 1e-9) && v <= axisHi * (1 + 1e-9))
                .toList();
        if (ticks.size() > 12) {
            ticks = ticks.stream().filter(v -> Math.abs(v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9)) - 1) < 1e-6)
                    .toList();
        }
        return new Axis(axisLo, axisHi, true, time, ticks);
    }

    /** {@code 500 ns}, {@code 2 µs}, {@code 50 µs}, {@code 1 ms}, {@code 20 ms}, {@code 2 s}: microseconds as people read them. */
    static String micros(double us) {
        if (us >= 1e6) {
            return number(us / 1e6) + " s";
        }
        if (us >= 1000) {
            return number(us / 1000) + " ms";
        }
        if (us < 1) {
            return number(us * 1000) + " ns";
        }
        return number(us) + " µs";
    }

    static String number(double v) {
        if (Math.abs(v - Math.rint(v)) < 1e-9 * Math.max(1, Math.abs(v))) {
            return String.format(Locale.ROOT, "%d", Math.round(v));
        }
        return BigDecimal.valueOf(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** Octaves between labelled x ticks: 1, 2, 5 or 10, so that at most twelve labels show. */
    static int xStep(double octaves) {
        for (int s : new int[] {1, 2, 5, 10}) {
            if (octaves / s <= 12) {
                return s;
            }
        }
        return 10;
    }
}
