package io.p2pbench.spec;

import java.util.List;

/**
 * Names of the JMH secondary metrics the benchmarks report (their {@code @AuxCounters} methods), as readers
 * find them in JMH's JSON. {@code SecondaryMetricTest} ties every name to a counter method of {@code src/jmh}
 * and back, so a renamed counter fails a test instead of a report.
 */
public final class SecondaryMetric {
    /** One direction's device-timed bandwidth: median over the iteration's batches, decimal GB/s. */
    public static final String DEVICE_GBPS = "deviceGBps";
    /** The slowest batch of the iteration, GB/s. */
    public static final String DEVICE_GBPS_MIN = "deviceGBpsMin";
    /** The fastest batch of the iteration, GB/s. */
    public static final String DEVICE_GBPS_MAX = "deviceGBpsMax";
    /** Batches timed in the iteration. */
    public static final String BATCHES = "batches";
    /** Both directions at once: the first direction alone, GB/s. */
    public static final String FORWARD_GBPS = "forwardGBps";
    /** Both directions at once: the other direction alone, GB/s. */
    public static final String REVERSE_GBPS = "reverseGBps";
    /** Both directions at once: their sum per batch, GB/s. */
    public static final String SUM_GBPS = "sumGBps";
    /** Collectives: algorithm bandwidth as nccl-tests defines it, GB/s. */
    public static final String ALG_GBPS = "algGBps";
    /** Collectives and partition steps: bus bandwidth as nccl-tests defines it, GB/s. */
    public static final String BUS_GBPS = "busGBps";
    /** Collectives: device time per operation, microseconds. */
    public static final String TIME_US = "timeUs";
    /** Partition steps: device time per step, microseconds. */
    public static final String STEP_US = "stepUs";
    /** Partition steps: tokens per second of the step. */
    public static final String TOKENS_PER_SECOND = "tokensPerSecond";
    /** Partition steps: compute time per step, microseconds. */
    public static final String COMPUTE_US = "computeUs";
    /** Partition steps: communication time per step, microseconds. */
    public static final String COMM_US = "commUs";
    /** Partition steps: time ranks wait for each other per step, microseconds. */
    public static final String WAIT_US = "waitUs";
    /** Partition steps: step time no phase accounts for, microseconds. */
    public static final String UNACCOUNTED_US = "unaccountedUs";

    /** Every name above. */
    public static final List<String> ALL = List.of(DEVICE_GBPS, DEVICE_GBPS_MIN, DEVICE_GBPS_MAX, BATCHES,
            FORWARD_GBPS, REVERSE_GBPS, SUM_GBPS, ALG_GBPS, BUS_GBPS, TIME_US, STEP_US, TOKENS_PER_SECOND, COMPUTE_US,
            COMM_US, WAIT_US, UNACCOUNTED_US);

    private SecondaryMetric() {}
}
