package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.spec.Combination;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The progress line's figure, from each benchmark kind's secondary scores (the counters its JMH class reports). */
class HeadlineTest {
    private static Combination combination(boolean singleGpu) {
        return new Combination("x", "io.p2pbench.bench.X.bandwidth", "peer", "bandwidth", Map.of(), "sweep", "X",
                1 << 20, singleGpu, null, 1.0);
    }

    @Test
    void everyKindOfCountersGivesItsHeadlineAndAPartitionStepNoLongerStopsTheRun() {
        // The partition counters have busGBps but no algGBps: on the GPU node (17:50Z) the old headline
        // threw a NullPointerException there and ended the run after its first benchmark.
        assertEquals("303476.1 us/step, 53988 tokens/s (compute 304813.7, exposed comm 0.0, wait 0.0 us; device, median)"
                + " [single GPU]", Headlines.bandwidth(combination(true), Map.of("busGBps", 0.0, "commUs", 0.0,
                "computeUs", 304813.69, "stepUs", 303476.07, "tokensPerSecond", 53987.78, "unaccountedUs", 19.6,
                "waitUs", 0.0)));
        assertEquals("algbw 1.00 GB/s, busbw 1.50 GB/s, 7.0 us/op (device, median)", Headlines.bandwidth(
                combination(false), Map.of("algGBps", 1.0, "busGBps", 1.5, "timeUs", 7.0)));
        assertEquals("3.00 GB/s both ways over the common window (lanes over their own windows: 1.00, 2.00; device, median)", Headlines.bandwidth(combination(false),
                Map.of("forwardGBps", 1.0, "reverseGBps", 2.0, "sumGBps", 3.0)));
        assertEquals("5.00 GB/s (device, median)", Headlines.bandwidth(combination(false),
                Map.of("deviceGBps", 5.0)));
        assertEquals("", Headlines.bandwidth(combination(false), Map.of("busGBps", 2.0)));
    }

    /**
     * A latency row's line gives its p99 only where the samples reach it (100 or more), with their count; a partition
     * request (one a round at quick timing) is a request time, its p50, never a p99 (until 2026-12-07 the line said
     * "p50 542113.79 us, p99 542113.79 us" of one request).
     */
    @Test
    void aLatencyLineGivesAP99OnlyFromAHundredSamplesAndARequestItsTime() {
        Combination copy = new Combination("x", "io.p2pbench.bench.X.latency", "host", "latency", Map.of(), "sweep",
                "X", 1L << 30, false, null, 1.0);
        assertEquals("p50 3.00 us (host-observed, 1 GiB; 99 samples)", Headlines.latency(copy, 99, 3, 9));
        assertEquals("p50 3.00 us, p99 9.00 us (host-observed, 1 GiB; 100 samples)", Headlines.latency(copy, 100, 3, 9));
        Combination request = new Combination("part-request-x", "io.p2pbench.bench.PartitionBenchmark.request",
                "partition", "latency", Map.of(), "partition", "group", 65536, true, null, 1.0);
        assertEquals("request 542.1 ms (p50 of 1, host-observed) [single GPU]",
                Headlines.latency(request, 1, 542113.79, 542113.79));
    }
}
