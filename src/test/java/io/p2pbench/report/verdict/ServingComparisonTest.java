package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.partition.Plan;
import io.p2pbench.report.read.ServingResults;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The serving figures compare gates, on fixture sweeps (ServingFixtures): knees, served rates, p99s. */
class ServingComparisonTest {
    private static ServingResults.Point met(double rate, double ttftMs, double servedTokens) {
        return ServingFixtures.point(rate, ttftMs, 50, servedTokens);
    }

    private static ServingResults.Point broke(double rate, double servedTokens) {
        return ServingFixtures.point(rate, 3000, 50, servedTokens);
    }

    /** A run of these points in rate order, as the reader keeps them. */
    private static ServingResults.Run run(ServingResults.Point... points) {
        return ServingFixtures.run("h200x1/run", null, java.util.Arrays.stream(points)
                .sorted(java.util.Comparator.comparingDouble(ServingResults.Point::ratePerSecond))
                .toArray(ServingResults.Point[]::new));
    }

    private static ServingResults.Sweep sweep(String machine, ServingResults.Run... runs) {
        return new ServingResults.Sweep(machine, "DENSE_8B", Plan.TP, "P2P", "0,1", false, ServingFixtures.SWEEP,
                List.of(runs), null);
    }

    /** Knee 40 req/s, broken at 80 and 56.6; 8000 output tokens/s at saturation. */
    private static final ServingResults.Run BASE = run(met(10, 400, 1100), met(20, 500, 2200), met(40, 900, 4400),
            broke(80, 8000), broke(56.6, 7900));

    private static Map<String, GatedFigures.Group> compare(ServingResults.Sweep base, ServingResults.Sweep cand,
                                                           double thresholdPct, String otherMachines) {
        List<GatedFigures.Group> groups = ServingComparison.compare(List.of(base), List.of(cand), thresholdPct,
                otherMachines, new int[2]);
        return groups.stream().collect(Collectors.toMap(g -> g.what() + ": " + g.headline().figure(), Function.identity()));
    }

    private static Verdict verdict(Map<String, GatedFigures.Group> groups, String key) {
        GatedFigures.Group g = groups.get(key);
        assertTrue(g != null, key + " not in " + groups.keySet());
        return g.verdict();
    }

    @Test
    void aSweepAgainstItselfIsNeverWorseAndWithinFloorsWiderThanTheThresholdCannotBeJudged() {
        ServingResults.Sweep s = sweep("h200x1", BASE);
        Map<String, GatedFigures.Group> at5 = compare(s, s, 5, null);
        // knee, served at saturation, tokens at the knee; p99 TTFT and TPOT at the three rates every run met
        assertEquals(3 + 2 * 3, at5.size(), at5.keySet().toString());
        assertTrue(at5.values().stream().allMatch(g -> g.verdict() == Verdict.UNJUDGED), at5.toString());
        assertTrue(at5.get("DENSE_8B TP P2P over 0,1: knee (req/s)").headline().why()
                .startsWith("cannot judge at ±5%: within the noise floor 20.0%"));
        Map<String, GatedFigures.Group> at60 = compare(s, s, 60, null);
        assertTrue(at60.values().stream().allMatch(g -> g.verdict() == Verdict.SAME), at60.toString());
    }

    @Test
    void aHalvedKneeAndItsServedRateAreWorse() {
        // the same requests on a server of half the capacity: it breaks from 40 req/s on and serves half the tokens
        ServingResults.Sweep cand = sweep("h200x1", run(met(10, 400, 1100), met(20, 800, 2200), broke(40, 4000),
                broke(28.3, 3900), met(23.8, 900, 2600)));
        Map<String, GatedFigures.Group> g = compare(sweep("h200x1", BASE), cand, 5, null);
        GatedFigures.Group knee = g.get("DENSE_8B TP P2P over 0,1: knee (req/s)");
        assertEquals(Verdict.WORSE, knee.verdict(), knee.headline().why());
        assertEquals(0.595, knee.headline().ratio(), 1e-3, "23.8 / 40");
        GatedFigures.Group served = g.get("DENSE_8B TP P2P over 0,1: served at saturation (output tokens/s)");
        assertEquals(Verdict.WORSE, served.verdict(), served.headline().why());
        assertEquals(3900.0 / 7900, served.headline().ratio(), 0.01, "at the lowest rate that broke the target: 28.3 "
                + "against 56.6");
        assertEquals(Verdict.WORSE, verdict(g, "DENSE_8B TP P2P over 0,1: output tokens/s at the knee"));
        // a p99 at a rate both met, up 60%: beyond its 50% floor
        assertEquals(Verdict.WORSE, verdict(g, "DENSE_8B TP P2P over 0,1 at 20 req/s: p99 TTFT (ms)"));
        assertEquals(Verdict.UNJUDGED, verdict(g, "DENSE_8B TP P2P over 0,1 at 10 req/s: p99 TTFT (ms)"));
        assertEquals(List.of(10.0, 20.0), ServingComparison.metByBoth(sweep("h200x1", BASE), cand),
                "40 req/s: the candidate broke it");
    }

    @Test
    void aLowerKneeWithinTheBaselinesBracketCannotBeJudged() {
        // the candidate's search ran out of time at 20 req/s, met: its knee is a lower bound, inside the baseline's
        // bracket, not a loss of capacity; it never broke the target, so it has no served rate at saturation
        ServingResults.Sweep cand = sweep("h200x1", run(met(10, 400, 1100), met(20, 500, 2200)));
        Map<String, GatedFigures.Group> g = compare(sweep("h200x1", BASE), cand, 5, null);
        GatedFigures.Group knee = g.get("DENSE_8B TP P2P over 0,1: knee (req/s)");
        assertEquals(Verdict.UNJUDGED, knee.verdict());
        assertTrue(knee.headline().why().startsWith("50.0% lower, beyond the floor 20%, but within the bracket"),
                knee.headline().why());
        GatedFigures.Group served = g.get("DENSE_8B TP P2P over 0,1: served at saturation (output tokens/s)");
        assertEquals(Verdict.UNJUDGED, served.verdict());
        assertTrue(served.headline().why().contains("a run never broke the target"), served.headline().why());
    }

    @Test
    void severalRunsRaiseAFloorToTheirSpread() {
        ServingResults.Run other = run(met(10, 400, 1100), met(20, 500, 2200), met(40, 900, 4400), broke(80, 10_000),
                broke(56.6, 10_000));
        ServingResults.Sweep base = sweep("h200x1", BASE, other);
        ServingResults.Sweep cand = sweep("h200x1", run(met(10, 400, 1100), met(20, 500, 2200), met(40, 900, 4400),
                broke(80, 7200), broke(56.6, 7200)));
        GatedFigures.Group served = compare(base, cand, 5, null).get(
                "DENSE_8B TP P2P over 0,1: served at saturation (output tokens/s)");
        // 7200 against the median 8950 is -19.6%: beyond the measured 15%, inside the baseline's own 26.6% spread
        assertEquals(Verdict.UNJUDGED, served.verdict(), served.headline().why());
        assertEquals(10_000.0 / 7900 - 1, served.headline().floor(), 1e-3);
        assertTrue(served.headline().floorSource().startsWith("the spread between runs"), served.headline().floorSource());
    }

    @Test
    void twoMachinesAreShownSideBySideNotJudged() {
        ServingResults.Sweep cand = sweep("h100x1", run(met(10, 400, 1100), broke(20, 1500)));
        Map<String, GatedFigures.Group> g = compare(sweep("h200x1", BASE), cand, 5, "h200x1 vs h100x1");
        assertTrue(g.values().stream().allMatch(x -> x.verdict() == Verdict.UNJUDGED), g.toString());
        assertTrue(g.get("DENSE_8B TP P2P over 0,1: knee (req/s)").headline().why().startsWith("different machines"));
    }

    /** Knee 40 req/s bisected to 5% (broken at 42), {@code served} output tokens/s at saturation. */
    private static ServingResults.Run bisectedRun(double ttftAt20, double served) {
        return run(met(10, 400, 1100), met(20, ttftAt20, 2200), met(40, 900, 4400), broke(80, 8000), broke(56.6, 7900),
                broke(42, served));
    }

    @Test
    void kneesBisectedToFivePercentOnBothSidesTakeTheNarrowerFloorsMeasuredOnSuchRuns() {
        ServingResults.Sweep base = sweep("h100x1", bisectedRun(500, 7000));
        assertTrue(ServingComparison.bisected(base));
        assertTrue(!ServingComparison.bisected(sweep("h200x1", BASE)), "broken at 56.6 over 40: a coarse bracket");
        // the same server producing 10% fewer tokens at saturation: beyond the 8% floor of bisected searches
        Map<String, GatedFigures.Group> g = compare(base, sweep("h100x1", bisectedRun(500, 6300)), 5, null);
        GatedFigures.Group served = g.get("DENSE_8B TP P2P over 0,1: served at saturation (output tokens/s)");
        assertEquals(Verdict.WORSE, served.verdict(), served.headline().why());
        assertEquals(ServingComparison.SERVED_FLOOR_BISECTED, served.headline().floor(), 1e-12);
        assertEquals(ServingComparison.KNEE_FLOOR_BISECTED,
                g.get("DENSE_8B TP P2P over 0,1: knee (req/s)").headline().floor(), 1e-12);
        // a candidate whose search ended on a coarse bracket keeps the wider floor: 10% is within 15%
        ServingResults.Sweep coarse = sweep("h100x1", run(met(10, 400, 1100), met(20, 500, 2200), met(40, 900, 4400),
                broke(56.6, 6300)));
        GatedFigures.Group wide = compare(base, coarse, 5, null).get(
                "DENSE_8B TP P2P over 0,1: served at saturation (output tokens/s)");
        assertEquals(Verdict.UNJUDGED, wide.verdict(), wide.headline().why());
        assertEquals(ServingComparison.SERVED_FLOOR, wide.headline().floor(), 1e-12);
    }

    @Test
    void aP99TtftAsFarApartAsTwoRerunsOfOneH100HostIsNotWorse() {
        // TP with P2P off, A/A on GPU-adeb0106 (17:20Z and 17:25Z): p99 TTFT 97.9 and 135.7 ms at 42.1 req/s, which
        // both runs met; with a 30% floor compare called that worse (exit 1)
        Map<String, GatedFigures.Group> g = compare(sweep("h100x1", bisectedRun(97.87, 7000)),
                sweep("h100x1", bisectedRun(135.7, 7000)), 5, null);
        GatedFigures.Group ttft = g.get("DENSE_8B TP P2P over 0,1 at 20 req/s: p99 TTFT (ms)");
        assertEquals(Verdict.UNJUDGED, ttft.verdict(), ttft.headline().why());
        assertTrue(g.values().stream().noneMatch(x -> x.verdict() == Verdict.WORSE), g.toString());
    }

    @Test
    void bisectedKneesOnOtherGpusOfOneKindKeepTheWiderFloors() {
        // DENSE_8B SINGLE, knees bisected, served at saturation: 5720 output tokens/s on set V's H100 host (GPU-d830a94e,
        // 2026-12-06 20:42Z), 5290 on GPU-adeb0106 (17:11Z). Judged with the one-host 8% floor that was worse, exit 1.
        ServingResults.Sweep v = sweep("h100x1", bisectedRun(500, 5720));
        ServingResults.Sweep t = sweep("h100x1", bisectedRun(500, 5290));
        GatedFigures.Group oneHost = ServingComparison.compare(List.of(v), List.of(t), 5, null, true, new int[2])
                .stream().filter(x -> x.headline().figure().startsWith("served")).findFirst().orElseThrow();
        assertEquals(Verdict.WORSE, oneHost.verdict(), oneHost.headline().why());
        GatedFigures.Group hosts = ServingComparison.compare(List.of(v), List.of(t), 5, null, false, new int[2])
                .stream().filter(x -> x.headline().figure().startsWith("served")).findFirst().orElseThrow();
        assertEquals(Verdict.UNJUDGED, hosts.verdict(), hosts.headline().why());
        assertEquals(ServingComparison.SERVED_FLOOR, hosts.headline().floor(), 1e-12);
        assertTrue(hosts.headline().floorSource().contains("other GPUs of this kind"), hosts.headline().floorSource());
        // a served rate halved is still worse across hosts
        GatedFigures.Group halved = ServingComparison.compare(List.of(v), List.of(sweep("h100x1", bisectedRun(500,
                2860))), 5, null, false, new int[2]).stream().filter(x -> x.headline().figure().startsWith("served"))
                .findFirst().orElseThrow();
        assertEquals(Verdict.WORSE, halved.verdict(), halved.headline().why());
    }
}
