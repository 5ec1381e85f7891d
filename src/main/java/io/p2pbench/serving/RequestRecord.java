package io.p2pbench.serving;

/**
 * What became of one request: its arrival and the times its first and last output tokens were
 * ready (the end of the step that produced them), from the start of its serving point. A request
 * that did not get so far within the point's time cap has -1 there.
 *
 * @param firstTokenNanos end of the step that finished its prefill (and sampled its first token), or -1
 * @param lastTokenNanos end of the step that produced its last token, or -1
 */
public record RequestRecord(int index, long arrivalNanos, int promptTokens, int outputTokens, long firstTokenNanos,
                            long lastTokenNanos) {
    /** Checks the order of the times. */
    public RequestRecord {
        if (index < 0 || arrivalNanos < 0 || promptTokens < 1 || outputTokens < 1
                || (firstTokenNanos >= 0 && firstTokenNanos < arrivalNanos)
                || (lastTokenNanos >= 0 && (firstTokenNanos < 0 || lastTokenNanos < firstTokenNanos))
                || firstTokenNanos < -1 || lastTokenNanos < -1) {
            throw new IllegalArgumentException("inconsistent request record: index " + index + ", arrival " + arrivalNanos
                    + ", tokens " + promptTokens + "/" + outputTokens + ", first " + firstTokenNanos + ", last "
                    + lastTokenNanos);
        }
    }

    /** Whether every output token was produced. */
    public boolean finished() {
        return lastTokenNanos >= 0;
    }

    /** Time to first token, nanoseconds; +infinity when it never came. */
    public double ttftNanos() {
        return firstTokenNanos < 0 ? Double.POSITIVE_INFINITY : firstTokenNanos - arrivalNanos;
    }

    /**
     * Time per output token after the first: (last - first) / (outputTokens - 1), nanoseconds; NaN for a
     * one-token output (it has none), +infinity when it did not finish.
     */
    public double tpotNanos() {
        if (outputTokens < 2) {
            return Double.NaN;
        }
        return finished() ? (lastTokenNanos - firstTokenNanos) / (double) (outputTokens - 1) : Double.POSITIVE_INFINITY;
    }

    /** Arrival to last token, nanoseconds; +infinity when it did not finish. */
    public double e2eNanos() {
        return finished() ? lastTokenNanos - arrivalNanos : Double.POSITIVE_INFINITY;
    }
}
