package io.p2pbench.serving;

/**
 * How the scheduler batches ({@link ContinuousBatcher}): at most {@code maxSequences} sequences in
 * flight and {@code stepTokens} tokens per step. The defaults follow vLLM's: 256 sequences (its
 * {@code max_num_seqs}) and 8192 tokens per step (V1's {@code max_num_batched_tokens} for its API
 * server).
 *
 * @param maxSequences sequences admitted at once (decoding or prefilling)
 * @param stepTokens the per-step token budget: decode tokens plus prefill chunk tokens; at least
 *     {@code maxSequences}, so every running decode always fits a step
 */
public record BatchPolicy(int maxSequences, int stepTokens) {
    /** The policy in words, for plans and reports. */
    public static final String DESCRIPTION = "continuous batching with chunked prefill in the order of vLLM V1's "
            + "scheduler: every step decodes one token of each running sequence first, then spends what is left of "
            + "the step's token budget on prefill chunks, first of sequences already prefilling, then of waiting "
            + "requests in arrival order; a request is admitted between steps only when its prompt plus output fits "
            + "the free KV cache (reserved up front; no preemption, where vLLM allocates pages on demand and preempts)";
    /** vLLM's default. */
    public static final BatchPolicy DEFAULT = new BatchPolicy(256, 8192);

    /** Checks the bounds. */
    public BatchPolicy {
        if (maxSequences < 1 || stepTokens < maxSequences) {
            throw new IllegalArgumentException("batch policy needs 1 <= max sequences (" + maxSequences
                    + ") <= step tokens (" + stepTokens + ")");
        }
    }

    /** This policy within an executor's limits. */
    public BatchPolicy within(StepExecutor.StepLimits limits) {
        int tokens = Math.min(stepTokens, limits.maxStepTokens());
        int sequences = Math.min(Math.min(maxSequences, limits.maxSequences()), tokens);
        return new BatchPolicy(sequences, tokens);
    }
}
