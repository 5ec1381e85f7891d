package io.p2pbench.partition;

/**
 * What one step computes, in whole-step terms: one decode token for each of {@code
 * decodeSequences} sequences whose KV caches hold {@code decodeContextTokens} tokens in all (the new
 * ones included), plus {@code prefillTokens} new prompt tokens of {@code prefillSequences}
 * sequences that had {@code prefillContextTokens} tokens cached before this step. Sums are spread
 * evenly over the sequences (the first ones taking the remainders).
 */
public record StepBatch(int decodeSequences, long decodeContextTokens, int prefillSequences, int prefillTokens,
                        long prefillContextTokens) {
    /** Checks that counts are not negative, that the step does something, and that every decode sequence attends to a token. */
    public StepBatch {
        if (decodeSequences < 0 || decodeContextTokens < 0 || prefillSequences < 0 || prefillTokens < 0
                || prefillContextTokens < 0) {
            throw new IllegalArgumentException("step counts must not be negative: " + decodeSequences + ", "
                    + decodeContextTokens + ", " + prefillSequences + ", " + prefillTokens + ", " + prefillContextTokens);
        }
        if (decodeSequences + prefillSequences == 0 || (prefillSequences == 0) != (prefillTokens == 0)) {
            throw new IllegalArgumentException("a step decodes or prefills something, prefill tokens with prefill "
                    + "sequences: " + decodeSequences + " decode, " + prefillSequences + " prefill sequences of "
                    + prefillTokens + " tokens");
        }
        if (decodeContextTokens < decodeSequences || prefillTokens < prefillSequences) {
            throw new IllegalArgumentException("every sequence needs a token: " + decodeSequences + " decode sequences "
                    + "over " + decodeContextTokens + " context tokens, " + prefillSequences + " prefill sequences over "
                    + prefillTokens + " tokens");
        }
    }

    /** The step {@code spec} describes: its batch decoding at its context, or prefilling its prompt. */
    public static StepBatch of(PartitionSpec spec) {
        return spec.phase() == Phase.DECODE
                ? new StepBatch(spec.batch(), (long) spec.batch() * spec.context(), 0, 0, 0)
                : new StepBatch(0, 0, spec.batch(), spec.batch() * spec.prompt(), 0);
    }

    /** Tokens of the step. */
    public long tokens() {
        return decodeSequences + (long) prefillTokens;
    }

    /**
     * The busiest rank's share under data-parallel attention over {@code ranks} (whole sequences
     * per rank): ceil of each sequence count over the ranks, with the tokens of that many average
     * sequences.
     */
    public StepBatch perRank(int ranks) {
        if (ranks == 1) {
            return this;
        }
        int d = (decodeSequences + ranks - 1) / ranks;
        int p = (prefillSequences + ranks - 1) / ranks;
        long dCtx = d == 0 ? 0 : Math.max(d, ceilShare(decodeContextTokens, d, decodeSequences));
        int pTok = p == 0 ? 0 : (int) Math.max(p, ceilShare(prefillTokens, p, prefillSequences));
        long pCtx = p == 0 ? 0 : ceilShare(prefillContextTokens, p, prefillSequences);
        return new StepBatch(d, dCtx, p, pTok, pCtx);
    }

    private static long ceilShare(long total, long part, long whole) {
        return (total * part + whole - 1) / whole;
    }

    /** Element {@code i} of {@code total} spread over {@code n}: the first {@code total % n} get one more. */
    static long share(long total, int n, int i) {
        return total / n + (i < total % n ? 1 : 0);
    }
}
