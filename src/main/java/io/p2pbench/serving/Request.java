package io.p2pbench.serving;

/**
 * One request of an open-loop load: when it arrives and how many tokens it brings and asks for.
 *
 * @param index its place in the arrival order, from 0
 * @param arrivalNanos arrival time from the start of the load
 * @param promptTokens prompt tokens to prefill
 * @param outputTokens tokens to generate (the first comes from the step that finishes the prefill)
 */
public record Request(int index, long arrivalNanos, int promptTokens, int outputTokens) {
    /** Checks the counts. */
    public Request {
        if (index < 0 || arrivalNanos < 0 || promptTokens < 1 || outputTokens < 1) {
            throw new IllegalArgumentException("bad request: " + index + ", " + arrivalNanos + " ns, " + promptTokens
                    + " prompt, " + outputTokens + " output tokens");
        }
    }

    /** KV-cache tokens it holds when done: prompt plus output. */
    public int contextTokens() {
        return promptTokens + outputTokens;
    }
}
