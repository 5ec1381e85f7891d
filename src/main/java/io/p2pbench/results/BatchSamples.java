package io.p2pbench.results;

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
     * @param laneGBps decimal GB/s per lane
     */
    public record Batch(boolean gated, List<Double> laneGBps) {}
}
