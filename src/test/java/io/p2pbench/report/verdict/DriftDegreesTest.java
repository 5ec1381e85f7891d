package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.stats.RoundTest;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/**
 * The degrees of freedom of a row's test: the rounds know the spread s, the independent runs a table was learned from
 * know the drift between runs. Before, the rounds' degrees (6 for four rounds a side) stood for both, so a drift
 * learned from 72 runs on sixteen hosts was tested as if six rounds had measured it (t 2.45 instead of 2.0).
 */
class DriftDegreesTest {
    private static final Measurement.Key ROW = new Measurement.Key("bandwidth", "peer", "HOST_STAGED", "one-way",
            "0-0", 64L << 20);

    private static Topology on(String uuid) {
        GpuInfo gpu = new GpuInfo(0, "NVIDIA H100 80GB HBM3", uuid, "0000:00:06.0", "9.0", 85_017_493_504L, 132, 3,
                5, 5, 16, 16, -1, "0-15", List.of(), "");
        return new Topology("0.1.0", "2026-12-06T00:00:00Z", null, List.of(gpu), List.of(), "h100", List.of());
    }

    private static ResultData run(String name, String uuid, double... rounds) {
        return run(ROW, name, uuid, rounds);
    }

    private static ResultData run(Measurement.Key key, String name, String uuid, double... rounds) {
        return run("h100", key, name, uuid, rounds);
    }

    private static ResultData run(String machine, Measurement.Key key, String name, String uuid, double... rounds) {
        Measurement m = Measurement.ofRounds(Arrays.stream(rounds).mapToObj(f -> new Measurement(key, machine, "X",
                true, "sweep", "id", new double[] {f}, "test")).toList());
        return new ResultData(Path.of(name), name, machine, "test", on(uuid), null, List.of(m), List.of(), Map.of(),
                null);
    }

    /** Three runs on one host and two on another: (3 - 1) + (2 - 1) = 3 independent differences from a host's mean. */
    private static final List<ResultData> FIVE_RUNS = List.of(
            run("a1", "GPU-1", 46.1, 46.3, 45.9, 46.2), run("a2", "GPU-1", 47.0, 47.4, 47.1, 47.2),
            run("a3", "GPU-1", 45.2, 45.0, 45.3, 45.1), run("b1", "GPU-2", 38.1, 38.3, 38.0, 38.2),
            run("b2", "GPU-2", 39.2, 39.0, 39.3, 39.1));

    @Test
    void aTablesDegreesAreItsRunsLessOnePerHostAndAreWrittenWithIt() throws Exception {
        RunDrift d = RunDrift.learn("five runs", FIVE_RUNS);
        assertTrue(d.tau(ROW) > 0.01, "the runs drift: " + d.tau(ROW));
        assertEquals(3, d.degrees(ROW), 1e-12, "3 runs on one host, 2 on another");
        assertTrue(d.toJson("test", List.of()).replaceAll("\\s", "").contains("\"degrees\":{"), d.toJson("t", List.of()));
        assertEquals(0, RunDrift.NONE.degrees(ROW), "nothing known: no degrees, the rounds' stand in");
    }

    @Test
    void theCommittedH100TableKnowsTheDegreesOfItsRuns() {
        RunDrift h100 = RunDrift.forMachine(RunDrift.PRIOR);
        // 72 runs on sixteen hosts (docs/compare.md): 72 - 16.
        assertEquals(56, h100.degrees(ROW), 1e-12);
    }

    /**
     * Four rounds a side that agree (spread at its least, 0.3%) and a drift of 2% between runs from a table of 56
     * degrees: the drift's term is nearly all of the variance, so the test has nearly the table's degrees, and the
     * interval is t(about 55) wide, not t(6). Without degrees (an old table) it stays as it was.
     */
    @Test
    void aDriftLearnedFromManyRunsIsTestedWithTheirDegreesNotTheRounds() {
        double[] b = {100.0, 100.1, 99.9, 100.0};
        double[] c = {100.2, 100.0, 100.1, 100.1};
        double drift = 2 * 0.02 * 0.02;
        RoundTest.Result old = RoundTest.of(b, c, 0.95, drift, 0, false);
        RoundTest.Result now = RoundTest.of(b, c, 0.95, drift, 56, false);
        assertEquals(6, old.degrees());
        assertEquals(6, now.roundDegrees());
        assertTrue(now.degrees() >= 50 && now.degrees() <= 62, "degrees " + now.degrees());
        double se = Math.sqrt(RoundTest.MIN_SPREAD * RoundTest.MIN_SPREAD * 0.5 + drift);
        assertEquals(new TDistribution(null, 6).inverseCumulativeProbability(0.975) * se, old.halfWidth(), 1e-9);
        double t = now.halfWidth() / se;
        assertTrue(t > 2.0 && t < 2.01, "t " + t + ", normal 1.96, t(6) 2.447");
        assertEquals(now.halfWidth(), RoundTest.halfWidth(now.spread(), 4, 4, drift, 56, 0.95), 1e-12,
                "the estimate for more baseline runs uses the same degrees");
    }

    /**
     * Welch-Satterthwaite: the rounds' degrees where the rounds' term is all; the drift's where the drift's is; never
     * fewer than the fewer of the two, never more than both together.
     */
    @Test
    void theDegreesLieBetweenTheTwoTermsAndFollowTheLargerTerm() {
        assertEquals(6, RoundTest.degrees(0.01, 4, 4, 0, 56), 1e-12, "no drift: the rounds' alone");
        assertEquals(6, RoundTest.degrees(0.01, 4, 4, 1e-4, 0), 1e-12, "drift of unknown degrees: the rounds'");
        double mostlyRounds = RoundTest.degrees(0.05, 4, 4, 1e-6, 56);
        assertTrue(mostlyRounds > 6 && mostlyRounds < 6.5, "a small drift barely adds: " + mostlyRounds);
        double mostlyDrift = RoundTest.degrees(0.003, 4, 4, 1e-3, 56);
        assertTrue(mostlyDrift > 54 && mostlyDrift < 58, "a large drift's own: " + mostlyDrift);
        for (double spread = 0.001; spread < 0.2; spread *= 1.5) {
            double d = RoundTest.degrees(spread, 4, 4, 4e-4, 56);
            assertTrue(d >= 6 - 1e-9 && d <= 62 + 1e-9, "spread " + spread + ": " + d);
        }
        // Equal terms of 6 and 56 degrees: (2a)^2 / (a^2/6 + a^2/56) = 4 / (1/6 + 1/56) = 21.7.
        double a = 0.02 * 0.02 * 0.5;
        assertEquals(4 / (1.0 / 6 + 1.0 / 56), RoundTest.degrees(0.02, 4, 4, a, 56), 1e-9);
    }

    /**
     * Where the baseline's own runs and a table both know the drift, the larger is used and so are the larger degrees:
     * the drift is never below the better known table's, so it is too small no more often than that table's.
     */
    @Test
    void theLargerOfTwoTablesHasTheLargerDegrees() {
        RunDrift own = RunDrift.learn("two runs", FIVE_RUNS.subList(0, 2));
        assertEquals(1, own.degrees(ROW), 1e-12);
        RunDrift both = RunDrift.ofTables(own, RunDrift.learn("five runs", FIVE_RUNS));
        assertEquals(3, both.degrees(ROW), 1e-12);
    }

    /** compare's why names both degrees: those of the test and where they came from. */
    @Test
    void theFloorNamesTheDegreesOfTheRoundsAndOfTheDrift() throws Exception {
        Comparison.Result r = Comparison.compare(List.of(run(RunDrift.PRIOR, ROW, "a", "GPU-1", 46.1, 46.3, 45.9, 46.2)),
                List.of(run(RunDrift.PRIOR, ROW, "b", "GPU-1", 46.0, 46.4, 46.1, 46.2)), 5, NoiseFloors.defaults());
        String why = r.groups().get(0).headline().floor().source();
        assertTrue(why.contains("(rounds 6, drift 56)"), why);
    }

    /**
     * Another machine's table taken as a prior (every user's first machine) widens the floors by its drift, but its
     * degrees measured that machine, not this one: the rounds' stand, as before.
     */
    @Test
    void aPriorFromAnotherMachineLendsItsDriftNotItsDegrees() throws Exception {
        assertEquals(0, RunDrift.of("h100", List.of(FIVE_RUNS.get(0))).degrees(ROW), 1e-12);
        Comparison.Result r = Comparison.compare(List.of(FIVE_RUNS.get(0)), List.of(FIVE_RUNS.get(1)), 5,
                NoiseFloors.defaults());
        assertTrue(r.noise().contains("as a prior"), r.noise());
        String why = r.groups().get(0).headline().floor().source();
        assertTrue(why.contains("t with 6 degrees of freedom") && !why.contains("drift 56"), why);
    }

    /**
     * Rows the host's CPU paces (here a pageable copy) keep the rounds' degrees: they move with the host's work, with
     * tails no spread learned from runs holds (leave-one-host-out on the H100 sets A-R: a pageable 64 MiB latency 90%
     * apart between two runs of one host was a false alarm with the runs' degrees on it).
     */
    @Test
    void rowsTheHostsCpuPacesKeepTheRoundsDegrees() throws Exception {
        Measurement.Key pageable = new Measurement.Key("bandwidth", "host", "PAGEABLE LOCAL", "H2D", "GPU0", 64L << 20);
        assertTrue(Comparison.hostCpuPaced(pageable));
        Comparison.Result r = Comparison.compare(
                List.of(run(RunDrift.PRIOR, pageable, "a", "GPU-1", 15.1, 15.3, 14.9, 15.2)),
                List.of(run(RunDrift.PRIOR, pageable, "b", "GPU-1", 15.0, 15.2, 15.1, 15.3)), 5, NoiseFloors.defaults());
        assertTrue(RunDrift.forMachine(RunDrift.PRIOR).degrees(pageable) > 50, "the table knows their degrees");
        String why = r.groups().get(0).headline().floor().source();
        assertTrue(why.contains("t with 6 degrees of freedom") && !why.contains("drift 56"), why);
    }
}
