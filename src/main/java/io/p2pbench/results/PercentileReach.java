package io.p2pbench.results;

/**
 * Which latency percentiles a sample count supports. A percentile {@code q} is reported from 1 / (1 - q/100) samples
 * on (p90 from 10, p99 from 100, p99.9 from 1000): with fewer, less than one sample is expected above it, and R-7 reads
 * it off the top two or three order statistics (at 6 samples the p99 is the largest within 5% of the gap below it;
 * a 1 GiB pageable copy of the quick preset had 6-11 samples, a 64 MiB one 33-61). The run's progress lines and
 * headlines and the report's tables, charts and exports all go by it.
 */
public final class PercentileReach {
    private PercentileReach() {}

    /** The fewest samples percentile {@code q} (0 < q < 100) is reported from. */
    public static int minSamples(double q) {
        if (!(q > 0 && q < 100)) {
            throw new IllegalArgumentException("percentile " + q + "; expected above 0 and below 100");
        }
        return (int) Math.ceil(1 / (1 - q / 100) - 1e-9);
    }

    /** Whether {@code n} samples reach percentile {@code q}. */
    public static boolean reaches(long n, double q) {
        return n >= minSamples(q);
    }

    /** How a table says a percentile is not reached, and why, in one phrase. */
    public static final String WHY = "fewer than 1/(1-q) samples: less than one expected above it";
}
