package io.p2pbench.report.verdict;

import io.p2pbench.report.read.ServingResults;
import io.p2pbench.serving.BatchPolicy;
import io.p2pbench.serving.LengthRange;
import io.p2pbench.serving.PointStats;
import io.p2pbench.serving.RequestRecord;
import io.p2pbench.serving.SearchPlan;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.Stability;
import io.p2pbench.serving.Target;
import io.p2pbench.serving.Workload;
import java.util.ArrayList;
import java.util.List;

/** Crafted serving points, runs and their sweep for the verdict's tests (no GPU). */
public final class ServingFixtures {
    private static final long MS = 1_000_000L;
    /** A workload of 512-token prompts and 11-token outputs, 200 measured requests, the default target. */
    public static final ServingSweep SWEEP = new ServingSweep(
            new Workload(LengthRange.fixed(512), LengthRange.fixed(11), 27, 200, 20, 2.0), BatchPolicy.DEFAULT,
            Target.DEFAULT, new SearchPlan(10, 2, 8, 2, 2, 60), 0);

    private ServingFixtures() {}

    /** A point at {@code rate}: 200 requests with TTFTs rising to {@code ttftMs} and this TPOT, 11 tokens each. */
    public static ServingResults.Point point(double rate, double ttftMs, double tpotMs) {
        return point(rate, ttftMs, tpotMs, Double.NaN);
    }

    /**
     * The same, its server producing {@code outputTokensPerSecond} over the measured window (NaN: the 2200 output
     * tokens of the measured requests).
     */
    public static ServingResults.Point point(double rate, double ttftMs, double tpotMs, double outputTokensPerSecond) {
        List<RequestRecord> rs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            long a = i * 10 * MS;
            long first = a + Math.round(ttftMs * MS * (0.5 + 0.5 * i / 199.0));
            long last = first + Math.round(tpotMs * MS) * 10;
            rs.add(new RequestRecord(20 + i, a, 512, 11, first, last));
        }
        long end = rs.get(199).lastTokenNanos();
        long tokens = Double.isNaN(outputTokensPerSecond) ? 2200 : Math.round(outputTokensPerSecond * end / 1e9);
        PointStats st = PointStats.of(rs, 0, end, tokens);
        boolean met = Target.DEFAULT.metBy(st);
        Stability stability = new Stability(2.0, 200, 2200, 2200, true);
        return new ServingResults.Point(rate, met, false, st, 8000, stability,
                met ? "met" : "broke: p99 TTFT over 2s", Target.DEFAULT.judge(st, stability, false, 200, 200).breaches());
    }

    /** A run labelled {@code label} of {@link #SWEEP} with these points and step breakdown (null: none). */
    public static ServingResults.Run run(String label, ServingSamples.Breakdown b, ServingResults.Point... points) {
        ServingSamples s = new ServingSamples(ServingSamples.FORMAT, SWEEP.encode(), "fixture", 256, 8192, 900_000, 131072,
                140L << 30, List.of(), Double.NaN, Double.NaN, "fixture", b, 1);
        return new ServingResults.Run(label, s, List.of(points));
    }
}
