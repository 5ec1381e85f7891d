package io.p2pbench.report.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
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
}
