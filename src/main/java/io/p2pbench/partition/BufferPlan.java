package io.p2pbench.partition;

import io.p2pbench.cuda.Cublas;

/**
 * The sizes of one rank's working buffers for a capacity: {@link RankBuffers} allocates them and
 * {@link PartitionSpec#workspaceBytes()} counts them, so the memory arithmetic and the GPU step
 * cannot drift apart. Element counts unless a name says bytes.
 *
 * <p>Step metadata (ints, one device buffer, uploaded before a step whose shape changed) at fixed
 * offsets: each token's position and cache slot, four ints per prefill sequence (first row, new
 * tokens, cached tokens, slot), the rows the LM head reads, and for mixtures of experts each routed
 * token's expert, the rows the expert gather reads and the rows the weighted combine reads.
 */
record BufferPlan(PartitionSpec spec, StepCapacity capacity) {
    /**
     * Blocks the decode-attention kernel aims at: the context is split until about this many run,
     * one wave of three 128-thread blocks per SM on a 132-SM GPU (the kernel's register budget).
     */
    static final int DECODE_TARGET_BLOCKS = 384;
    /** Most splits of one sequence's context. */
    static final int MAX_DECODE_SPLITS = 64;
    /** Context tokens a decode split takes at least. */
    static final int MIN_SPLIT_TOKENS = 128;

    static BufferPlan of(PartitionSpec spec, StepCapacity capacity) {
        return new BufferPlan(spec, capacity);
    }

    int tokens() {
        return capacity.maxTokens();
    }

    int sequences() {
        return capacity.maxSequences();
    }

    boolean moe() {
        return spec.model().experts() > 0;
    }

    int topK() {
        return moe() ? spec.model().topK() : 0;
    }

    /** Most rows one expert processes: the whole step's tokens, each routed to topK of the experts, evenly. */
    int expertTokens() {
        return moe() ? (int) PartitionSpec.ceilDiv((long) capacity.maxStepTokens() * topK(), spec.model().experts()) : 0;
    }

    /** Rows of the rank's batched expert GEMMs: its experts times {@link #expertTokens()}. */
    long expertRows() {
        return (long) spec.expertsPerRank() * expertTokens();
    }

    /** EP: rows of the dispatch send buffer and the combine receive buffer (the rank's routed tokens). */
    long sendRows() {
        return spec.plan() == Plan.EP ? (long) tokens() * topK() : 0;
    }

    /** Rows of the experts' input and output buffers: every routed token received (EP) and the expert GEMMs' rows. */
    long expertBufferRows() {
        return Math.max(Math.max(sendRows(), expertRows()), receivedRows(tokens()));
    }

    /** EP: the most routed tokens any rank receives in one dispatch when every rank holds {@code tokens} tokens. */
    long receivedRows(int tokens) {
        if (spec.plan() != Plan.EP) {
            return 0;
        }
        long[][] counts = spec.model().routedTokens(tokens, spec.ep(), 1.0 / spec.ep());
        long most = 0;
        for (int d = 0; d < counts.length; d++) {
            long in = 0;
            for (long[] from : counts) {
                in += from[d];
            }
            most = Math.max(most, in);
        }
        return most;
    }

    /** Rows (of 128 floats) of the decode-attention partial outputs. */
    long partialRows() {
        return (PartitionSpec.ceilDiv(DECODE_TARGET_BLOCKS, spec.kvHeadsPerRank()) + sequences()) * spec.qHeadsPerRank();
    }

    /** Splits of the context for a decode step of {@code sequences} sequences attending to at most {@code context} tokens. */
    int decodeSplits(int sequences, int context) {
        int want = (int) PartitionSpec.ceilDiv(DECODE_TARGET_BLOCKS, (long) sequences * spec.kvHeadsPerRank());
        int most = Math.max(1, Math.min(MAX_DECODE_SPLITS, context / MIN_SPLIT_TOKENS));
        return Math.max(1, Math.min(want, most));
    }

    int posAt() {
        return 0;
    }

    int slotAt() {
        return tokens();
    }

    int infoAt() {
        return 2 * tokens();
    }

    int lastAt() {
        return infoAt() + 4 * sequences();
    }

    int choiceAt() {
        return lastAt() + sequences();
    }

    int gatherAt() {
        return choiceAt() + tokens() * topK();
    }

    /** Rows the expert gather writes: the send buffer (EP) or the expert-sorted input. */
    int gatherRows() {
        return (int) (moe() ? (spec.plan() == Plan.EP ? sendRows() : expertRows()) : 0);
    }

    int rowOfAt() {
        return gatherAt() + gatherRows();
    }

    int metaInts() {
        return rowOfAt() + tokens() * topK();
    }

    /** KV-cache bytes of one layer: keys and values of the rank's KV heads for every sequence slot. */
    long kvBytesPerLayer() {
        return 2L * sequences() * spec.kvHeadsPerRank() * capacity.maxContext() * PartitionSpec.HEAD_SIZE
                * PartitionSpec.BF16;
    }

    /** Bytes of every working buffer {@link RankBuffers} allocates, the TP all-reduce's and cuBLAS's workspace included. */
    long workspaceBytes() {
        long h = spec.model().hidden();
        long t = tokens();
        long s = sequences();
        long f = spec.ffnPerRank();
        long bf16 = 3 * t * h + t * spec.qkvColumns() + t * (long) spec.qHeadsPerRank() * PartitionSpec.HEAD_SIZE;
        if (moe()) {
            bf16 += expertRows() * 3 * f + 2 * expertBufferRows() * h + 2 * sendRows() * h + t * spec.model().experts();
        } else {
            bf16 += t * 3 * f;
        }
        bf16 += s * h + s * spec.vocabPerRank();
        if (spec.plan() == Plan.TP) {
            bf16 += 2 * t * h; // the ring all-reduce's input and output
        }
        long fp32 = partialRows() * (PartitionSpec.HEAD_SIZE + 1) + t * topK() + PartitionSpec.HEAD_SIZE / 2;
        return bf16 * PartitionSpec.BF16 + fp32 * 4 + metaInts() * 4L + Cublas.WORKSPACE_BYTES;
    }
}
