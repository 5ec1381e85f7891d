package io.p2pbench.serving;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.junit.jupiter.api.Test;

/** Targets, sweeps and samples as they cross from the planner to the benchmark and into the report; percentiles. */
class ServingValuesTest {
    @Test
    void durationsParseWithTheirUnitAndBadOnesSayWhatIsAccepted() {
        assertEquals(2_000_000_000L, Target.parseDuration("--ttft-p99", "2s"));
        assertEquals(500_000_000L, Target.parseDuration("--ttft-p99", "0.5s"));
        assertEquals(100_000_000L, Target.parseDuration("--tpot-p99", "100ms"));
        assertEquals(1_500_000L, Target.parseDuration("--tpot-p99", "1.5MS"));
        for (String bad : new String[] {"2", "0s", "-1s", "abc", "", "2 h", "1e3ms", "601s", "0.5ms", "NaNs", "s"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Target.parseDuration("--ttft-p99", bad));
            assertTrue(e.getMessage().startsWith("--ttft-p99 '" + bad + "' is not a latency target")
                    && e.getMessage().contains("1ms to 600s"), e.getMessage());
        }
        assertEquals("2s", Target.formatDuration(2_000_000_000L));
        assertEquals("100ms", Target.formatDuration(100_000_000L));
        assertEquals("1.5ms", Target.formatDuration(1_500_000L));
    }

    @Test
    void aSweepReadsBackAsWrittenAndABadOneIsOneLine() {
        ServingSweep s = new ServingSweep(new Workload(new LengthRange(256, 768), LengthRange.fixed(128), 27, 200, 20, 2.0),
                BatchPolicy.DEFAULT, new Target(1_500_000_000L, 50_000_000L), new SearchPlan(15.5, 2, 8, 2, 2, 48), 1L << 37);
        assertEquals(s, ServingSweep.parse(s.encode()));
        assertEquals(s.comparableKey(), ServingSweep.parse(s.encode().replace("budget=48.0s", "budget=99.0s")
                .replace("points=8", "points=3")).comparableKey());
        for (String bad : new String[] {s.encode().replace("seed=27;", ""), s.encode() + ";extra=1",
            s.encode().replace("ttft=1500ms", "ttft=fast"), s.encode().replace("start=15.5", "start=NaN"),
            s.encode().replace("batch=256", "batch=99999"), "", null}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServingSweep.parse(bad));
            assertTrue(e.getMessage().startsWith("serving sweep '") && !e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void r7PercentilesMatchCommonsMathAndACensoredTailIsInfinite() {
        SplittableRandom r = new SplittableRandom(3);
        for (int n : new int[] {1, 2, 7, 200, 1001}) {
            double[] v = r.doubles(n, 0, 1000).toArray();
            double[] sorted = Percentiles.sortedWithoutNaN(v);
            for (double p : new double[] {1, 50, 90, 99, 100}) {
                double expected = new Percentile().withEstimationType(Percentile.EstimationType.R_7).evaluate(v, p);
                assertEquals(expected, Percentiles.r7(sorted, p), 1e-9, n + " values, p" + p);
            }
        }
        // 200 values, 3 of them infinite: R-7's p99 falls at rank 198.01, between a finite value and an infinite one
        double[] v = new double[200];
        for (int i = 0; i < 200; i++) {
            v[i] = i < 197 ? i : Double.POSITIVE_INFINITY;
        }
        assertEquals(Double.POSITIVE_INFINITY, Percentiles.r7(v, 99));
        assertEquals(99.5, Percentiles.r7(v, 50), 1e-12);
        v[197] = 197;
        v[198] = 198;
        assertEquals(197.01, Percentiles.r7(v, 99), 1e-9); // one infinite value is beyond the p99
    }

    @Test
    void pointFiguresOnAHandComputedFixture() {
        long ms = 1_000_000L;
        // five requests 100 ms apart; TTFT 10..50 ms, 5 tokens each at 10 ms
        List<RequestRecord> rs = List.of(
                new RequestRecord(0, 0, 10, 5, 10 * ms, 50 * ms),
                new RequestRecord(1, 100 * ms, 10, 5, 120 * ms, 160 * ms),
                new RequestRecord(2, 200 * ms, 10, 5, 230 * ms, 270 * ms),
                new RequestRecord(3, 300 * ms, 10, 5, 340 * ms, 380 * ms),
                new RequestRecord(4, 400 * ms, 10, 1, 450 * ms, 450 * ms));
        PointStats s = PointStats.of(rs, 0, 500 * ms, 21);
        assertEquals(5, s.ttft().n());
        assertEquals(30 * ms, s.ttft().p50(), 1e-6);
        assertEquals(46 * ms, s.ttft().p90(), 1e-6); // h = 4 x 0.9 + 1 = 4.6: 40 + 0.6 x 10
        assertEquals(4, s.tpot().n(), "a one-token output has no TPOT");
        assertEquals(10 * ms, s.tpot().p99(), 1e-6);
        assertEquals(4 / 0.4, s.offeredPerSecond(), 1e-9);
        assertEquals(4 / 0.4, s.achievedPerSecond(), 1e-9); // completions from 50 to 450 ms
        assertEquals(21 / 0.5, s.outputTokensPerSecond(), 1e-9);
        assertEquals(0, s.unfinished());
    }

    @Test
    void samplesReadBackAndBadOnesAreOneLine() throws Exception {
        VirtualClock clock = new VirtualClock();
        Workload w = new Workload(LengthRange.fixed(64), new LengthRange(2, 8), 5, 30, 5, 0);
        ServingSweep sweep = new ServingSweep(w, new BatchPolicy(8, 256), Target.DEFAULT,
                new SearchPlan(50, 2, 3, 1, 1, 10_000), 0);
        StepExecutor.StepLimits limits = new StepExecutor.StepLimits(8, 100, 256);
        CapacitySearch.Outcome o = new ServingSession(sweep, new ModelStepExecutor(x -> 5_000_000L, clock, limits), clock,
                1000).search();
        KvCapacity kv = new KvCapacity(1000, 4096, 1L << 30, null);
        ServingSamples s = ServingSamples.of(sweep, "model", new BatchPolicy(8, 256), kv, 1L << 40, o,
                new ServingSamples.Breakdown(new StepShape(4, 300, 0, 0, 0), 100, 60, 30, 10), 4096);
        ServingSamples back = ServingSamples.read(s.json());
        assertEquals(s.points().size(), back.points().size());
        for (int i = 0; i < s.points().size(); i++) {
            assertEquals(s.points().get(i).records(), back.points().get(i).records());
            assertArrayEquals(s.points().get(i).requests().get(0), back.points().get(i).requests().get(0));
        }
        assertEquals(0.3, back.breakdown().commShare(), 1e-12);
        assertEquals(o.kneePerSecond(), back.kneePerSecond());
        assertTrue(back.headline().contains("points"), back.headline());
        String json = new String(s.json(), StandardCharsets.UTF_8);
        for (String bad : new String[] {json.replace("\"ratePerSecond\":50.0", "\"ratePerSecond\":-50.0"),
            json.replace("p2pbench-serving/1", "p2pbench-serving/9"), json.substring(0, json.length() / 2),
            json.replace("\"bytesVerified\":4096", "\"bytesVerified\":0"), json.replace("\"UP\"", "null"),
            json.replace(":30.0", ":-1"), json.replaceFirst("\\[\\{.*}]", "[]"), json.replace(":169,", ":null,"),
            json.replace(":169,", ":169.5,"), json.replace("100.0,\"s", "50.0,\"s"), json.replace("\"shape", "\"x")}) {
            java.io.IOException e = assertThrows(java.io.IOException.class,
                    () -> ServingSamples.read(bad.getBytes(StandardCharsets.UTF_8)));
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
        for (String[] bad : new String[][] {{":169,", ":null,", "at points[0].", "expected a whole number"},
            {"\"capped\":false", "\"capped\":-1", "at points[0].capped: expected a boolean"},
            {"\"ratePerSecond\":50.0", "\"ratePerSecond\":1e308", "at most 1000000 req/s"},
            {"\"windowTokens\":\\d+", "\"windowTokens\":9000000000000000000", "above 1000000000000000"}}) {
            String text = json.replaceFirst(bad[0], bad[1]);
            assertTrue(!text.equals(json), bad[0]);
            String m = assertThrows(java.io.IOException.class,
                    () -> ServingSamples.read(text.getBytes(StandardCharsets.UTF_8))).getMessage();
            for (int i = 2; i < bad.length; i++) {
                assertTrue(m.contains(bad[i]), m);
            }
        }
    }
}
