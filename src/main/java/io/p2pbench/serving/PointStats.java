package io.p2pbench.serving;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The figures of one serving point from its measured requests ({@link ContinuousBatcher.Served}):
 * p50, p90 and p99 (R-7, {@link Percentiles}) of time to first token, time per output token and
 * end-to-end latency, each with its n, the rate offered and achieved, and output tokens per second.
 * Requests that did not finish within the cap count as +infinity (censored), so a point where more
 * than about 1% of the requests did not finish has an infinite p99 and breaks any target.
 *
 * @param ttft time to first token, nanoseconds
 * @param tpot time per output token after the first, nanoseconds (requests with one output token have none)
 * @param e2e arrival to last token, nanoseconds
 * @param offeredPerSecond measured arrivals over their span: (n - 1) / (last arrival - first arrival)
 * @param achievedPerSecond measured requests finished per second: (n - 1) / (last completion - first completion)
 *     of the finished ones (the window's end for the unfinished: they count as not done by then)
 * @param outputTokensPerSecond output tokens of every request produced in the window, per second
 * @param unfinished measured requests that did not finish
 */
public record PointStats(Latency ttft, Latency tpot, Latency e2e, double offeredPerSecond, double achievedPerSecond,
                         double outputTokensPerSecond, int unfinished) {

    /**
     * p50, p90, p99 of one latency, nanoseconds (+infinity where the percentile falls on a censored request).
     *
     * @param n requests it is taken over
     * @param sorted the values, ascending (for intervals)
     */
    public record Latency(int n, double p50, double p90, double p99, double[] sorted) {
        /** From the values; NaN values (no such latency) are left out. */
        public static Latency of(double[] values) {
            double[] s = Percentiles.sortedWithoutNaN(values);
            if (s.length == 0) {
                return new Latency(0, Double.NaN, Double.NaN, Double.NaN, s);
            }
            return new Latency(s.length, Percentiles.r7(s, 50), Percentiles.r7(s, 90), Percentiles.r7(s, 99), s);
        }
    }

    /** The figures of {@code served}. */
    public static PointStats of(ContinuousBatcher.Served served) {
        return of(served.measured(), served.windowStartNanos(), served.windowEndNanos(), served.windowTokens());
    }

    /** The figures of measured requests and the window's output tokens. */
    public static PointStats of(List<RequestRecord> measured, long windowStartNanos, long windowEndNanos,
                                long windowTokens) {
        if (measured.isEmpty()) {
            throw new IllegalArgumentException("a point without measured requests has no figures");
        }
        long first = measured.stream().mapToLong(RequestRecord::arrivalNanos).min().orElseThrow();
        long last = measured.stream().mapToLong(RequestRecord::arrivalNanos).max().orElseThrow();
        int n = measured.size();
        double offered = n > 1 && last > first ? (n - 1) / ((last - first) / 1e9) : Double.NaN;
        long finished = measured.stream().filter(RequestRecord::finished).count();
        long firstDone = measured.stream().filter(RequestRecord::finished).mapToLong(RequestRecord::lastTokenNanos).min()
                .orElse(windowEndNanos);
        long lastDone = finished < n ? windowEndNanos : measured.stream().mapToLong(RequestRecord::lastTokenNanos).max()
                .orElseThrow();
        double achieved = finished > 1 && lastDone > firstDone ? (finished - 1) / ((lastDone - firstDone) / 1e9)
                : Double.NaN;
        double window = (windowEndNanos - windowStartNanos) / 1e9;
        double tokens = window > 0 ? windowTokens / window : Double.NaN;
        return new PointStats(latency(measured, RequestRecord::ttftNanos), latency(measured, RequestRecord::tpotNanos),
                latency(measured, RequestRecord::e2eNanos), offered, achieved, tokens, (int) (n - finished));
    }

    private static Latency latency(List<RequestRecord> rs, ToDoubleFunction<RequestRecord> f) {
        return Latency.of(rs.stream().mapToDouble(f).toArray());
    }
}
