package io.p2pbench.serving;

/**
 * What one serving point offers: requests with prompt and output lengths from {@code prompt} and
 * {@code output}, arriving as a Poisson process ({@link LoadGenerator}, seeded with {@code seed}).
 * The first {@link #warmup(double)} requests are warm-up (the batch fills from empty), the next
 * {@code measured} are the point's figures, and arrivals go on (cool-down) until every measured
 * request is done, so the last measured ones see the same load as the first. Warm-up and
 * cool-down requests are excluded from every figure.
 *
 * @param measured requests whose latencies make the point's figures (at least 1)
 * @param warmupMin fewest warm-up requests
 * @param warmupSeconds warm-up covers at least the arrivals of this many seconds
 */
public record Workload(LengthRange prompt, LengthRange output, long seed, int measured, int warmupMin,
                       double warmupSeconds) {
    /** Checks the counts. */
    public Workload {
        if (prompt == null || output == null) {
            throw new IllegalArgumentException("prompt and output lengths are required");
        }
        if (measured < 1 || warmupMin < 0 || !(warmupSeconds >= 0) || warmupSeconds > 3600) {
            throw new IllegalArgumentException("bad workload counts: " + measured + " measured, warm-up " + warmupMin
                    + " requests / " + warmupSeconds + " s");
        }
    }

    /** Warm-up requests at {@code ratePerSecond}: {@code max(warmupMin, ceil(rate x warmupSeconds))}. */
    public int warmup(double ratePerSecond) {
        return (int) Math.max(warmupMin, Math.ceil(ratePerSecond * warmupSeconds - 1e-9));
    }

    /** Tokens one sequence may hold at most: the longest prompt plus the longest output. */
    public int maxContextTokens() {
        return prompt.max() + output.max();
    }

    /** Mean tokens of a finished sequence. */
    public double meanContextTokens() {
        return prompt.mean() + output.mean();
    }
}
