package io.p2pbench.report.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExactTestsTest {
    @Test
    void nullDistributionCountsEveryOrdering() {
        // m = 2, n = 2: C(4, 2) = 6 orderings with U = 0, 1, 2, 2, 3, 4.
        assertArrayEquals(new double[] {1, 1, 2, 1, 1}, ExactTests.uCounts(2, 2), 0);
        assertEquals(252, Arrays.stream(ExactTests.uCounts(5, 5)).sum(), 0);
    }

    @Test
    void exactPValuesOfSmallSamples() {
        // 3 vs 3 fully separated: exact two-sided p = 2 / 20 = 0.1 (the normal approximation says 0.0495).
        assertEquals(0.1, ExactTests.mannWhitneyP(new double[] {1, 2, 3}, new double[] {4, 5, 6}), 1e-12);
        assertEquals(0.1, ExactTests.smallestP(3, 3), 1e-12);
        assertEquals(2.0 / 70, ExactTests.smallestP(4, 4), 1e-12);
        assertEquals(1.0, ExactTests.smallestP(1, 1), 0);
        // 5 vs 5 with U = 2: P(U <= 2) = (1 + 1 + 2) / 252, two-sided 8 / 252.
        assertEquals(8.0 / 252, ExactTests.mannWhitneyP(new double[] {1, 2, 3, 4, 7}, new double[] {5, 6, 8, 9, 10}),
                1e-12);
        assertEquals(1.0, ExactTests.mannWhitneyP(new double[] {5, 5}, new double[] {5, 5}), 0);
    }

    @Test
    void intervalsCarryTheirCoverage() {
        ExactTests.Interval median3 = ExactTests.medianInterval(new double[] {3, 1, 2}, 0.95);
        assertEquals(0.75, median3.coverage(), 1e-12, "[min, max] of 3 covers the median 75% of the time");
        assertEquals(1, median3.low(), 0);
        assertEquals(3, median3.high(), 0);
        // n = 10: [x(2), x(9)] covers with 1 - 2 (1 + 10) / 1024 = 0.978515625.
        ExactTests.Interval median10 = ExactTests.medianInterval(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.95);
        assertEquals(1 - 22.0 / 1024, median10.coverage(), 1e-12);
        assertEquals(2, median10.low(), 0);
        assertEquals(9, median10.high(), 0);
        assertFalse(ExactTests.medianInterval(new double[] {1}, 0.95).exists());
        // Shift 2 vs 2: differences {1, 2, 2, 3}; [1, 3] covers 1 - 2/6.
        ExactTests.Interval shift = ExactTests.shiftInterval(new double[] {0, 1}, new double[] {2, 3}, 0.95);
        assertEquals(1 - 2.0 / 6, shift.coverage(), 1e-12);
        assertEquals(1, shift.low(), 0);
        assertEquals(3, shift.high(), 0);
    }

    @Test
    void benjaminiHochbergMatchesHandComputation() {
        // p sorted 0.01, 0.02, 0.04 of 3: q = min over ranks of p * 3 / rank = 0.03, 0.03, 0.04; NaN stays out.
        double[] q = ExactTests.benjaminiHochberg(new double[] {0.04, Double.NaN, 0.01, 0.02});
        assertEquals(0.04, q[0], 1e-12);
        assertEquals(Double.NaN, q[1]);
        assertEquals(0.03, q[2], 1e-12);
        assertEquals(0.03, q[3], 1e-12);
    }

    @Test
    void aTieBetweenTheSidesIsCountedInTheExactDistribution() {
        double[] x = {1, 2, 3, 4};
        double[] y = {4, 5, 6, 7};
        // Midranks 1, 2, 3, 4.5, 4.5, 6, 7, 8: y's sum 25.5 is the largest any split can have, and two of
        // the 70 splits have it (either 4 may go to y): two-sided 4/70, not the 2/70 of the no-ties table.
        assertEquals(4.0 / 70, ExactTests.mannWhitneyP(x, y), 1e-12);
        assertEquals(4.0 / 70, ExactTests.mannWhitneyP(y, x), 1e-12);
        assertEquals(4.0 / 70, ExactTests.smallestP(x, y), 1e-12, "with this tie 4 vs 4 cannot reach 0.05");
        assertEquals(2.0 / 70, ExactTests.smallestP(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}), 1e-12);
    }

    @Test
    void withoutTiesThePValuesAreTheTextbookOnes() {
        assertEquals(2.0 / 70, ExactTests.mannWhitneyP(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}), 1e-12);
        // 4 vs 4 with U = 1: P(U <= 1) = 2/70, two-sided 4/70.
        assertEquals(4.0 / 70, ExactTests.mannWhitneyP(new double[] {1, 2, 3, 5}, new double[] {4, 6, 7, 8}), 1e-12);
        double[] a = {0.3, 1.7, 2.2, 5.1, 0.9};
        double[] b = {2.5, 3.3, 4.0, 6.2, 7.7, 1.1};
        double u = 0;
        for (double ai : a) {
            for (double bj : b) {
                u += bj > ai ? 1 : 0;
            }
        }
        double[] counts = ExactTests.uCounts(a.length, b.length);
        double below = 0;
        double above = 0;
        for (int k = 0; k < counts.length; k++) {
            below += k <= u ? counts[k] : 0;
            above += k >= u ? counts[k] : 0;
        }
        double total = Arrays.stream(counts).sum();
        assertEquals(Math.min(1, 2 * Math.min(below, above) / total), ExactTests.mannWhitneyP(a, b), 1e-12);
    }

    @Test
    void allEqualValuesGiveOneAndCannotReachAnyLevel() {
        double[] same = {7, 7, 7, 7};
        assertEquals(1.0, ExactTests.mannWhitneyP(same, same.clone()), 0);
        assertEquals(1.0, ExactTests.smallestP(same, same.clone()), 0);
        assertEquals(1.0, ExactTests.mannWhitneyP(new double[] {3, 3, 3}, new double[] {3, 3, 3, 3, 3}), 0);
    }

    @Test
    void theExactDistributionEqualsEnumeratingEverySplit() {
        Random random = new Random(34);
        for (int trial = 0; trial < 40; trial++) {
            int m = 1 + random.nextInt(6);
            int n = 1 + random.nextInt(6);
            double[] pooled = new double[m + n];
            for (int i = 0; i < pooled.length; i++) {
                pooled[i] = random.nextInt(trial % 2 == 0 ? 4 : 1000); // heavy ties on even trials
            }
            double[] x = Arrays.copyOfRange(pooled, 0, m);
            double[] y = Arrays.copyOfRange(pooled, m, m + n);
            double[] enumerated = enumeratedPAndSmallest(x, y);
            assertEquals(enumerated[0], ExactTests.mannWhitneyP(x, y), 1e-12, Arrays.toString(x) + " " + Arrays.toString(y));
            assertEquals(enumerated[1], ExactTests.smallestP(x, y), 1e-12, Arrays.toString(x) + " " + Arrays.toString(y));
        }
    }

    /** {two-sided p, smallest attainable p} by listing every split of the pooled values, midranks summed directly. */
    private static double[] enumeratedPAndSmallest(double[] x, double[] y) {
        int m = x.length;
        int total = m + y.length;
        double[] pooled = new double[total];
        System.arraycopy(x, 0, pooled, 0, m);
        System.arraycopy(y, 0, pooled, m, y.length);
        double[] rank = new double[total];
        for (int i = 0; i < total; i++) {
            double below = 0;
            double equal = 0;
            for (double v : pooled) {
                below += v < pooled[i] ? 1 : 0;
                equal += v == pooled[i] ? 1 : 0;
            }
            rank[i] = below + (equal + 1) / 2;
        }
        double sumOfX = 0;
        for (int i = 0; i < m; i++) {
            sumOfX += rank[i];
        }
        double observed = sumOfX;
        java.util.List<Double> sums = new java.util.ArrayList<>();
        for (int mask = 0; mask < 1 << total; mask++) {
            if (Integer.bitCount(mask) == m) {
                double s = 0;
                for (int i = 0; i < total; i++) {
                    s += (mask >> i & 1) == 1 ? rank[i] : 0;
                }
                sums.add(s);
            }
        }
        double lo = sums.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double hi = sums.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double all = sums.size();
        double below = sums.stream().filter(s -> s <= observed + 1e-9).count();
        double above = sums.stream().filter(s -> s >= observed - 1e-9).count();
        double atLo = sums.stream().filter(s -> Math.abs(s - lo) < 1e-9).count();
        double atHi = sums.stream().filter(s -> Math.abs(s - hi) < 1e-9).count();
        return new double[] {Math.min(1, 2 * Math.min(below, above) / all), Math.min(1, 2 * Math.min(atLo, atHi) / all)};
    }

    @Test
    void largeSamplesFallBackToTheTieCorrectedNormal() {
        double[] x = new double[120];
        double[] y = new double[120];
        for (int i = 0; i < 120; i++) {
            x[i] = i % 10;
            y[i] = i % 10 + (i % 3 == 0 ? 1 : 0);
        }
        double p = ExactTests.mannWhitneyP(x, y);
        assertTrue(p > 0.01 && p < 0.5, "a small shift of 120 vs 120 tied values: " + p);
        assertEquals(1.0, ExactTests.mannWhitneyP(x, x.clone()), 1e-9);
    }

    @Test
    void theShiftIntervalsCoverageIsWhatEnumeratingTheOrderingsGives() {
        // Continuous figures, no shift: every split of 1..m+n is equally likely; the interval covers 0 in
        // the fraction the code states (2 vs 2: 66.7%, 3 vs 3: 90%, 4 vs 4: 97.1%).
        double[] stated = {1 - 2.0 / 6, 1 - 2.0 / 20, 1 - 2.0 / 70};
        for (int side = 2; side <= 4; side++) {
            double[] pooled = new double[2 * side];
            for (int i = 0; i < pooled.length; i++) {
                pooled[i] = i + 1;
            }
            double[] coverage = enumeratedCoverage(pooled, side);
            assertEquals(stated[side - 2], coverage[0], 1e-12, side + " vs " + side);
            assertEquals(stated[side - 2], coverage[1], 1e-12, side + " vs " + side + ": the stated coverage");
            assertFalse(ExactTests.shiftInterval(Arrays.copyOfRange(pooled, 0, side),
                    Arrays.copyOfRange(pooled, side, 2 * side), 0.95).atLeast(), "no ties: exact");
        }
        // Tied (binned) figures: the closed interval covers at least as often as stated, and says "at least".
        double[] binned = {1, 1, 2, 2, 2, 3, 3, 4};
        double[] tied = enumeratedCoverage(binned, 4);
        assertTrue(tied[0] >= tied[1] - 1e-12, "tied: covers " + tied[0] + ", stated " + tied[1]);
        assertTrue(ExactTests.shiftInterval(new double[] {1, 1, 2, 2}, new double[] {2, 3, 3, 4}, 0.95).atLeast());
    }

    /** {fraction of the splits of {@code pooled} into x (size m) and y whose shift interval covers 0, the coverage stated}. */
    private static double[] enumeratedCoverage(double[] pooled, int m) {
        int total = pooled.length;
        int splits = 0;
        int covered = 0;
        double stated = Double.NaN;
        for (int mask = 0; mask < 1 << total; mask++) {
            if (Integer.bitCount(mask) != m) {
                continue;
            }
            double[] x = new double[m];
            double[] y = new double[total - m];
            int xi = 0;
            int yi = 0;
            for (int i = 0; i < total; i++) {
                if ((mask >> i & 1) == 1) {
                    x[xi++] = pooled[i];
                } else {
                    y[yi++] = pooled[i];
                }
            }
            ExactTests.Interval in = ExactTests.shiftInterval(x, y, 0.95);
            stated = in.coverage();
            splits++;
            covered += in.low() <= 0 && 0 <= in.high() ? 1 : 0;
        }
        return new double[] {(double) covered / splits, stated};
    }

    @Test
    void orderStatisticIntervalsSayAtLeastWithTies() {
        assertTrue(ExactTests.medianInterval(new double[] {1, 2, 2}, 0.95).atLeast());
        assertFalse(ExactTests.medianInterval(new double[] {1, 2, 3}, 0.95).atLeast());
        assertTrue(ExactTests.quantileInterval(new double[] {5, 5, 6, 7}, 0.5, 0.9).atLeast());
    }
}
