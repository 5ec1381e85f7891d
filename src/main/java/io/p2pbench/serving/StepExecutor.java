package io.p2pbench.serving;

/**
 * Executes scheduler iterations for real on the GPUs of one plan and transport (a partition step
 * sized for {@link #limits()}), or, in tests, on a model of its time. The scheduler calls it from
 * one thread; each call returns when the step's device work is done.
 */
public interface StepExecutor extends AutoCloseable {
    /**
     * Runs one step of {@code shape} and waits for it.
     *
     * @return device nanoseconds the step took
     * @throws IllegalArgumentException when {@code shape} exceeds {@link #limits()}
     */
    long run(StepShape shape);

    /** The largest steps this executor was built for. */
    StepLimits limits();

    /** Frees the step's buffers, graphs and handles; idempotent. */
    @Override
    void close();

    /**
     * The largest step an executor can run.
     *
     * @param maxSequences sequences in one step (decode plus prefill)
     * @param maxContextTokens tokens one sequence may hold in its KV cache (prompt plus output)
     * @param maxStepTokens tokens in one step (the prefill chunk budget plus the decode tokens)
     */
    record StepLimits(int maxSequences, int maxContextTokens, int maxStepTokens) {
        /** Checks positivity. */
        public StepLimits {
            if (maxSequences < 1 || maxContextTokens < 1 || maxStepTokens < 1) {
                throw new IllegalArgumentException("step limits must be positive: " + maxSequences + ", "
                        + maxContextTokens + ", " + maxStepTokens);
            }
        }

        /** Whether {@code shape} fits these limits (context per sequence is checked by the scheduler). */
        public boolean admits(StepShape shape) {
            return shape.decodeSequences() + shape.prefillSequences() <= maxSequences
                    && shape.tokens() <= maxStepTokens;
        }
    }
}
