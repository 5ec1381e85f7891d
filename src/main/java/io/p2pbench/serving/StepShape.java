package io.p2pbench.serving;

/**
 * What one iteration of a continuous-batching scheduler asks the GPUs to do: one decode token for
 * each of {@code decodeSequences} running sequences, whose KV caches hold {@code decodeContextTokens}
 * tokens in all, plus {@code prefillTokens} new prompt tokens of {@code prefillSequences} sequences
 * (whole prompts or chunks of them) attending causally to themselves and to the
 * {@code prefillContextTokens} tokens their sequences already cached.
 *
 * @param decodeSequences sequences generating one token in this step (0 for a prefill-only step)
 * @param decodeContextTokens KV tokens the decode sequences read, summed over them
 * @param prefillSequences sequences whose prompt (or a chunk of it) is prefilled in this step
 * @param prefillTokens new prompt tokens in this step, summed over the prefill sequences
 * @param prefillContextTokens tokens the prefill sequences had cached before this step, summed
 */
public record StepShape(int decodeSequences, long decodeContextTokens, int prefillSequences, int prefillTokens,
                        long prefillContextTokens) {
    /** Checks that counts are not negative and that a step does some work. */
    public StepShape {
        if (decodeSequences < 0 || decodeContextTokens < 0 || prefillSequences < 0 || prefillTokens < 0
                || prefillContextTokens < 0) {
            throw new IllegalArgumentException("step counts must not be negative: " + this);
        }
        if (decodeSequences == 0 && prefillTokens == 0) {
            throw new IllegalArgumentException("a step must decode or prefill something: " + this);
        }
        if ((prefillSequences == 0) != (prefillTokens == 0)) {
            throw new IllegalArgumentException("prefill tokens need prefill sequences and the other way round: " + this);
        }
    }

    /** Tokens this step processes: one per decode sequence plus the prefill tokens. */
    public long tokens() {
        return decodeSequences + (long) prefillTokens;
    }
}
