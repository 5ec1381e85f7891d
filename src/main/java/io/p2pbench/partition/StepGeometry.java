package io.p2pbench.partition;

import java.util.Arrays;
import java.util.NavigableSet;

/**
 * One rank's view of a step: how many rows each kernel and GEMM covers, the decode attention's
 * splits, and the step metadata the kernels read ({@link BufferPlan} says where), laid out from a
 * {@link StepBatch}. Every rank runs the same geometry (under EP, the busiest rank's share).
 *
 * <p>Rows: the decode sequences first (row i is sequence i, cache slot i), padded to {@code
 * decodeRows} when a captured graph's batch is larger (padding sequences attend to one token),
 * then each prefill sequence's new tokens (slot {@code decodeRows + p}). Mixtures of experts: the
 * routed pair {@code i = token * topK + k} goes to expert {@code i % experts}; without EP the gather
 * sorts the pairs by expert into {@code expertTokens} rows per expert, under EP it lays them out in
 * pair order, the dispatch's regions one after another, and each rank's experts read the first
 * {@code expertTokens} rows of their share of what arrives.
 */
final class StepGeometry {
    final StepBatch batch;
    final int decodeRows;
    final int prefillSequences;
    final int tokens;
    final int longestPrefill;
    final int decodeSplits;
    final int expertTokens;
    final int headRows;
    final int[] meta;
    private final int metaUsed;

    /**
     * @param batch this rank's share of the step
     * @param stepTokens tokens of the whole step (sizes the experts' rows)
     * @param decodeRows decode rows, at least the batch's decode sequences (a graph's padded batch)
     */
    StepGeometry(BufferPlan plan, StepBatch batch, long stepTokens, int decodeRows) {
        this.batch = batch;
        StepCapacity cap = plan.capacity();
        if (decodeRows < batch.decodeSequences()) {
            throw new IllegalArgumentException("decode rows " + decodeRows + " below the batch's " + batch.decodeSequences()
                    + " decode sequences");
        }
        this.decodeRows = decodeRows;
        this.prefillSequences = batch.prefillSequences();
        this.tokens = decodeRows + batch.prefillTokens();
        if (decodeRows + prefillSequences > cap.maxSequences() || tokens > cap.maxTokens()
                || stepTokens > cap.maxStepTokens()) {
            throw new IllegalArgumentException("step of " + (decodeRows + prefillSequences) + " sequences and " + tokens
                    + " tokens (" + stepTokens + " in the whole step) exceeds the capacity " + cap);
        }
        meta = new int[plan.metaInts()];
        int longest = 0;
        for (int i = 0; i < decodeRows; i++) {
            int len = i < batch.decodeSequences()
                    ? (int) StepBatch.share(batch.decodeContextTokens(), batch.decodeSequences(), i) : 1;
            requireContext(len, cap);
            meta[plan.posAt() + i] = len - 1;
            meta[plan.slotAt() + i] = i;
            meta[plan.lastAt() + i] = i;
        }
        int row = decodeRows;
        for (int p = 0; p < prefillSequences; p++) {
            int len = (int) StepBatch.share(batch.prefillTokens(), prefillSequences, p);
            int cached = (int) StepBatch.share(batch.prefillContextTokens(), prefillSequences, p);
            requireContext(cached + len, cap);
            int slot = decodeRows + p;
            int at = plan.infoAt() + 4 * p;
            meta[at] = row;
            meta[at + 1] = len;
            meta[at + 2] = cached;
            meta[at + 3] = slot;
            for (int j = 0; j < len; j++) {
                meta[plan.posAt() + row + j] = cached + j;
                meta[plan.slotAt() + row + j] = slot;
            }
            row += len;
            meta[plan.lastAt() + decodeRows + p] = row - 1;
            longest = Math.max(longest, len);
        }
        this.longestPrefill = longest;
        this.headRows = decodeRows + prefillSequences;
        // from the capacity, not this step's contexts: a graph captured for these rows serves every context
        this.decodeSplits = decodeRows == 0 ? 0 : plan.decodeSplits(decodeRows, cap.maxContext());
        int used = plan.lastAt() + headRows;
        if (plan.moe()) {
            this.expertTokens = (int) PartitionSpec.ceilDiv(stepTokens * plan.topK(), plan.spec().model().experts());
            used = routeExperts(plan, tokens);
        } else {
            this.expertTokens = 0;
        }
        this.metaUsed = used;
    }

    /**
     * The geometry of {@code batch} (whole-step counts) on each rank of {@code plan}'s step: the
     * busiest rank's share under EP; a pure decode batch padded up to the next of {@code
     * decodeBuckets} (the graph sizes captured), if there is one.
     */
    static StepGeometry of(BufferPlan plan, NavigableSet<Integer> decodeBuckets, StepBatch batch) {
        int ep = plan.spec().ep();
        StepBatch share = batch.perRank(ep);
        long stepTokens = batch.tokens();
        int decodeRows = share.decodeSequences();
        if (batch.prefillSequences() == 0) {
            Integer bucket = decodeBuckets.ceiling(batch.decodeSequences());
            if (bucket != null) {
                stepTokens = bucket;
                decodeRows = (bucket + ep - 1) / ep;
            }
        }
        if (ep == 1) {
            stepTokens = Math.max(stepTokens, decodeRows + (long) share.prefillTokens());
        }
        return new StepGeometry(plan, share, stepTokens, decodeRows);
    }

    private static void requireContext(int len, StepCapacity cap) {
        if (len > cap.maxContext()) {
            throw new IllegalArgumentException("a sequence of " + len + " tokens exceeds the KV cache's " + cap.maxContext());
        }
    }

    /** Fills the expert choice, gather and combine rows; returns the metadata's used length. */
    private int routeExperts(BufferPlan plan, int rows) {
        int topK = plan.topK();
        int experts = plan.spec().model().experts();
        boolean ep = plan.spec().plan() == Plan.EP;
        int pairs = rows * topK;
        if (!ep && (long) experts * expertTokens < pairs) {
            throw new IllegalStateException(pairs + " routed pairs exceed " + experts + " experts x " + expertTokens + " rows");
        }
        for (int i = 0; i < pairs; i++) {
            meta[plan.choiceAt() + i] = i % experts;
            meta[plan.rowOfAt() + i] = ep ? i : (i % experts) * expertTokens + i / experts;
        }
        int gathered = ep ? pairs : experts * expertTokens;
        for (int r = 0; r < gathered; r++) {
            int pair = ep ? r : (r % expertTokens) * experts + r / expertTokens;
            meta[plan.gatherAt() + r] = pair < pairs ? pair / topK : 0; // padding rows repeat token 0
        }
        return plan.metaInts();
    }

    /** Rows the expert gather writes: the routed pairs (EP) or every expert's rows. */
    int gatheredRows(BufferPlan plan) {
        return plan.spec().plan() == Plan.EP ? tokens * plan.topK() : plan.spec().model().experts() * expertTokens;
    }

    /** Ints of {@link #meta} a step uploads (the rest is never read). */
    int metaUsed() {
        return metaUsed;
    }

    /** Whether this geometry is a pure decode step (what CUDA graphs are captured for). */
    boolean decodeOnly() {
        return prefillSequences == 0;
    }

    /** Equal metadata and shape: an upload can be skipped. */
    boolean sameAs(StepGeometry other) {
        return other != null && other.tokens == tokens && other.decodeRows == decodeRows
                && other.expertTokens == expertTokens && Arrays.equals(other.meta, meta);
    }
}
