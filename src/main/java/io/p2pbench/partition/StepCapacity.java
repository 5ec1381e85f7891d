package io.p2pbench.partition;

/**
 * The largest step one rank's buffers are sized for: its KV cache holds {@code maxSequences}
 * sequences of {@code maxContext} tokens, its activations {@code maxTokens} rows; {@code
 * maxStepTokens} bounds the tokens of the whole step (all ranks together), which sizes the experts'
 * rows of a mixture of experts under EP.
 *
 * @param maxSequences sequences one rank holds KV for (decode plus prefill)
 * @param maxTokens tokens one rank's attention handles in one step
 * @param maxContext tokens one sequence's KV cache holds
 * @param maxStepTokens tokens of the whole step
 */
public record StepCapacity(int maxSequences, int maxTokens, int maxContext, int maxStepTokens) {
    /** Checks positivity. */
    public StepCapacity {
        if (maxSequences < 1 || maxTokens < 1 || maxContext < 1 || maxStepTokens < 1) {
            throw new IllegalArgumentException("step capacity must be positive: " + maxSequences + " sequences, "
                    + maxTokens + " tokens, context " + maxContext + ", " + maxStepTokens + " step tokens");
        }
    }

    /** A rank's capacity for exactly the step {@code spec} describes. */
    public static StepCapacity of(PartitionSpec spec) {
        return new StepCapacity(spec.rankSequences(), spec.rankTokens(), spec.attendedTokens(),
                (int) Math.min(Integer.MAX_VALUE, spec.tokensPerStep()));
    }

    /**
     * A rank's capacity for any step within whole-step limits under {@code spec}'s plan: under EP
     * (data-parallel attention, whole sequences per rank) a rank holds its share of the sequences,
     * but one long prompt may land on one rank, so it keeps room for every token; a share of
     * decode and of prefill sequences, each rounded up, may hold one sequence more than the share of
     * all of them.
     */
    public static StepCapacity forLimits(PartitionSpec spec, int maxSequences, int maxStepTokens, int maxContext) {
        int ep = spec.ep();
        int share = ep == 1 ? maxSequences : Math.min(maxSequences, (maxSequences + ep - 1) / ep + 1);
        return new StepCapacity(share, maxStepTokens, maxContext, maxStepTokens);
    }
}
