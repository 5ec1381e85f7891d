package io.p2pbench.collective;

import io.p2pbench.transfer.BatchMedians;

/**
 * The figures of one iteration's device-timed collective batches: per batch algbw and busbw exactly
 * as {@link BusBandwidth} (nccl-tests) defines them, and device time per operation; their medians
 * over the iteration. The collective benchmarks' JMH counters report these medians.
 */
public final class CollectiveFigures {
    private final BatchMedians batches = new BatchMedians(3);

    /**
     * One batch's figures.
     *
     * @param algGbps bytes over device time per operation, decimal GB/s
     * @param busGbps algbw times the bus factor, decimal GB/s
     * @param timeUs device time per operation, microseconds
     */
    public record Batch(double algGbps, double busGbps, double timeUs) {}

    /** Forgets every batch. */
    public void clear() {
        batches.clear();
    }

    /**
     * Adds one batch and returns its figures.
     *
     * @param nanosPerOp device time of one operation
     * @param bytes nccl-tests' size of one operation
     * @param busFactor algbw to busbw ({@link BusBandwidth.Operation#factor}; 1 for the exchanges)
     */
    public Batch add(double nanosPerOp, long bytes, double busFactor) {
        double alg = BusBandwidth.algGbps(bytes, nanosPerOp);
        Batch b = new Batch(alg, alg * busFactor, nanosPerOp / 1000.0);
        batches.add(b.algGbps(), b.busGbps(), b.timeUs());
        return b;
    }

    /** Median algbw, NaN without batches. */
    public double algGbps() {
        return batches.median(0);
    }

    /** Median busbw, NaN without batches. */
    public double busGbps() {
        return batches.median(1);
    }

    /** Median device time per operation, microseconds. */
    public double timeUs() {
        return batches.median(2);
    }

    /** Batches since the last {@link #clear()}. */
    public int count() {
        return batches.count();
    }
}
