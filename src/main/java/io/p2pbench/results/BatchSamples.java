package io.p2pbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The per-batch device-timed bandwidth of one bandwidth benchmark (the {@code samples/} files of a
 * result folder). JMH keeps one figure per iteration; these are the batches behind it, for
 * confidence intervals and distributions.
 *
 * @param id the combination id (file name without .json)
 * @param lanes lane labels, e.g. {@code [GPU0->GPU1, GPU1->GPU0]}
 * @param bytesPerTransfer bytes of one transfer
 * @param copiesPerBatch transfers per lane per batch
 * @param batches measurement batches in order
 * @param bytesVerified bytes checked against the pattern during the trial (warm-up included)
 */
public record BatchSamples(String id, List<String> lanes, long bytesPerTransfer, int copiesPerBatch,
                           List<Batch> batches, long bytesVerified) {

    /**
     * One batch.
     *
     * @param gated whether the streams were held while it was enqueued
     * @param laneGBps decimal GB/s per lane, each over its own window (its start to its stop event)
     * @param windowGBps several lanes: every lane's bytes over the common window, from the first lane's
     *     start to the last lane's stop (null for one lane, and in results written before it was recorded)
     */
    public record Batch(boolean gated, List<Double> laneGBps,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Double windowGBps) {
        /** A batch without a common-window figure (one lane, or an older result). */
        public Batch(boolean gated, List<Double> laneGBps) {
            this(gated, laneGBps, null);
        }
    }
}
