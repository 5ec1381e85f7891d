package io.p2pbench.collective;

/**
 * Device time of a collective operation.
 *
 * @param nanosPerOp device nanoseconds per operation (longest rank, back-to-back operations)
 * @param ops operations timed
 * @param gated whether the streams were held while they were enqueued
 */
public record CollectiveTiming(double nanosPerOp, int ops, boolean gated) {}
