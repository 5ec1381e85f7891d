package io.p2pbench.partition;

/** The kinds of work in a rank's forward step, as the per-kernel breakdown ({@link PartitionStep#kernelMicros}) reports them. */
public enum StepKernel {
    /** Embedding lookup of the step's tokens (first stage). */
    EMBED,
    /** RMSNorm fused with the residual add (two per layer, the final norm, the PP stage hand-off). */
    NORM,
    /** The QKV projection GEMM. */
    QKV_GEMM,
    /** Rotary embedding on q and k, and the KV-cache write. */
    ROTARY_CACHE,
    /** Attention: flash-decoding and its split merge (decode), causal flash attention (prefill). */
    ATTENTION,
    /** The attention output projection GEMM. */
    OUT_GEMM,
    /** The router GEMM and its top-k gate weights (mixtures of experts). */
    ROUTER,
    /** The tokens gathered into expert order (or the EP send buffer). */
    EXPERT_GATHER,
    /** The gate-and-up GEMM (batched over the local experts for mixtures of experts). */
    GATE_UP_GEMM,
    /** SiLU(gate) * up. */
    SILU_MUL,
    /** The down GEMM (batched over the local experts). */
    DOWN_GEMM,
    /** The weighted sum of each token's expert outputs. */
    EXPERT_COMBINE,
    /** The last tokens gathered and the LM head GEMM (last stage). */
    LM_HEAD
}
