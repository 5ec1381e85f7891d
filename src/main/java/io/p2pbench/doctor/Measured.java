package io.p2pbench.doctor;

/**
 * Measured peer bandwidth of one ordered pair from a result folder, beside the verdict: the median
 * of the per-batch figures at the largest size measured with peer access on and off.
 *
 * @param onGBps median GB/s with peer access on, null when not measured
 * @param onPath the copy path of {@code onGBps}, e.g. {@code CE_P2P_READ}
 * @param offGBps median GB/s with peer access off (driver- or host-staged), null when not measured
 * @param offPath the copy path of {@code offGBps}, e.g. {@code CE_NO_P2P}
 * @param sizeBytes the transfer size of the figures
 * @param run the result folder's label
 */
public record Measured(Double onGBps, String onPath, Double offGBps, String offPath, long sizeBytes, String run) {}
