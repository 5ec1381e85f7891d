package io.p2pbench.report.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The distribution-free interval of a quantile from order statistics (binomial ranks). */
class QuantileIntervalTest {
    @Test
    void atTheMedianItIsTheMedianInterval() {
        SplittableRandom r = new SplittableRandom(1);
        for (int n : new int[] {2, 3, 5, 9, 20, 101}) {
            double[] x = r.doubles(n).toArray();
            ExactTests.Interval a = ExactTests.quantileInterval(x, 0.5, 0.95);
            ExactTests.Interval b = ExactTests.medianInterval(x, 0.95);
            assertEquals(b.low(), a.low(), "n " + n);
            assertEquals(b.high(), a.high(), "n " + n);
            assertEquals(b.coverage(), a.coverage(), 1e-12, "n " + n);
        }
    }

    @Test
    void theP99OfTwoHundredValuesReachesTheMaximumAndSaysItsCoverage() {
        double[] x = new double[200];
        for (int i = 0; i < 200; i++) {
            x[i] = i + 1; // the k-th smallest is k
        }
        ExactTests.Interval ci = ExactTests.quantileInterval(x, 0.99, 0.95);
        // B ~ Bin(200, 0.99): P(B <= 194) = 0.0160 <= 0.025 < P(B <= 195) = 0.0517, so l = 195; P(B >= 200) = 0.134
        // exceeds 0.025 at every rank, so the maximum stands in; coverage P(195 <= B <= 199) = 0.850
        assertEquals(195, ci.low());
        assertEquals(200, ci.high());
        assertEquals(0.850, ci.coverage(), 0.001);
        // with 2000 values the 95% interval closes inside the sample
        double[] many = new double[2000];
        for (int i = 0; i < many.length; i++) {
            many[i] = i + 1;
        }
        ExactTests.Interval wide = ExactTests.quantileInterval(many, 0.99, 0.95);
        assertTrue(wide.high() < 2000 && wide.low() > 1960, wide.toString());
        assertTrue(wide.coverage() >= 0.95, wide.toString());
        assertTrue(Double.isNaN(ExactTests.quantileInterval(new double[] {1}, 0.99, 0.95).coverage()));
    }

    @Test
    void infiniteValuesStayInTheirPlace() {
        double[] x = new double[200];
        for (int i = 0; i < 200; i++) {
            x[i] = i < 198 ? i : Double.POSITIVE_INFINITY;
        }
        ExactTests.Interval ci = ExactTests.quantileInterval(x, 0.99, 0.95);
        assertEquals(194, ci.low()); // the 195th smallest
        assertEquals(Double.POSITIVE_INFINITY, ci.high());
    }
}
