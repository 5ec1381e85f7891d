package io.p2pbench.report.chart;

import static io.p2pbench.report.verdict.ServingFixtures.point;
import static io.p2pbench.report.verdict.ServingFixtures.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.partition.Plan;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.verdict.ServingFixtures;
import io.p2pbench.serving.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The serving charts tell a reader which points broke the target and why, and define the knee as the rate the
 * server keeps up with and meets the latency target at, not by latency alone.
 */
class ServingChartsTest {
    @TempDir
    Path tmp;

    /** {@code p} judged broken only because its queue grows (its latencies within the target). */
    private static ServingResults.Point queueGrows(ServingResults.Point p) {
        return new ServingResults.Point(p.ratePerSecond(), false, p.capped(), p.stats(), p.meanStepUs(), p.stability(), "broke: the queue grows: offered 62 req/s, served 49 req/s",
                Set.of(Target.Breach.QUEUE_GROWS));
    }

    @Test
    void aPointWithinTheLatencyTargetThatBrokeBecauseTheQueueGrowsIsRingedAndExplained() throws Exception {
        // SINGLE at 62.4 req/s: p99 TTFT about 163 ms and TPOT about 42 ms, far inside 2 s / 100 ms, yet broken
        ServingResults.Sweep single = new ServingResults.Sweep("h200x1", "DENSE_8B", Plan.SINGLE, "P2P", "0", true,
                ServingFixtures.SWEEP, List.of(run(null, null, point(31.2, 60, 20), point(44.1, 90, 30),
                        queueGrows(point(62.4, 163, 42)))), null);
        List<Charts.ChartFile> files = ServingCharts.write(List.of(single), Map.of(), tmp);
        String ttft = Files.readString(files.get(0).svg());
        assertEquals(1, ttft.split("<title>broke the target</title>", -1).length - 1, "one ringed point: " + ttft);
        assertTrue(ttft.contains("knee 44.1; broke at 62.4 req/s: the queue grows (server fell behind); p99 TTFT "), ttft);
        assertTrue(ttft.contains(" ms within target"), ttft);
        assertTrue(ttft.contains("knee: the highest offered rate at which the server keeps up (its queue does not grow) "
                + "AND meets the latency target"), ttft);
        String capacity = Files.readString(files.get(2).svg());
        assertTrue(capacity.contains("keeps up (its queue does not grow) AND meets the latency target"), capacity);
        assertTrue(capacity.contains("served &gt;= 90% of the output tokens that arrived"), capacity);
        assertTrue(!capacity.contains("knee: the highest offered rate whose p99 TTFT"), "not latency alone: " + capacity);
    }

    @Test
    void aSeriesThatNeverBrokeHasNoRingAndNoNote() throws Exception {
        ServingResults.Sweep single = new ServingResults.Sweep("h200x1", "DENSE_8B", Plan.SINGLE, "P2P", "0", false,
                ServingFixtures.SWEEP, List.of(run(null, null, point(10, 60, 20), point(20, 90, 30))), null);
        String ttft = Files.readString(ServingCharts.write(List.of(single), Map.of(), tmp).get(0).svg());
        assertTrue(!ttft.contains("<title>broke the target</title>"), ttft);
        assertTrue(!ttft.contains("broke at"), ttft);
    }
}
