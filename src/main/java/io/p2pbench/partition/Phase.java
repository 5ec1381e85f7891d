package io.p2pbench.partition;

/** Which half of inference a step is. */
public enum Phase {
    /** The prompt: {@code batch x prompt} tokens through every layer at once (compute-bound GEMMs). */
    PREFILL,
    /** One new token per sequence of the batch, attending to {@code context} cached tokens (memory-bound). */
    DECODE
}
