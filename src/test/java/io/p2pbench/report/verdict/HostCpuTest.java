package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.render.ComparisonReport;
import io.p2pbench.results.RunManifest;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The floors of rows the host's CPU paces (pageable copies, latencies of copies up to 1 MiB, the ring's latency) widen
 * by what the host can move them when the two sides' hosts worked more than 10% apart, and those rows are corrected as
 * a family of their own: on set U's H100 host (2026-12-06 19:31-19:36Z) the fourth of four A/A runs took 16-25% longer
 * for its JVM starts and exits than the others, and its pageable H2D copy of 64 MiB moved 49-81%; with injected
 * changes compare named such unchanged rows worse or better (0.5-6.1% of the unchanged rows).
 */
class HostCpuTest {
    private static final String MACHINE = "h100-80gb-hbm3x1-single-r580";
    private static final Measurement.Key PAGEABLE = new Measurement.Key("bandwidth", "host", "PAGEABLE LOCAL", "H2D",
            "GPU0", 1L << 20);
    private static final Measurement.Key SMALL_LATENCY = new Measurement.Key("latency", "host", "PINNED LOCAL", "H2D",
            "GPU0", 4096);
    private static final Measurement.Key DEVICE = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way",
            "0-0", 64L << 20);

    private static Topology host() {
        GpuInfo gpu = new GpuInfo(0, "NVIDIA H100 80GB HBM3", "GPU-44bd06f6", "0000:00:06.0", "9.0", 85_017_493_504L, 132,
                3, 5, 5, 16, 16, -1, "0-15", List.of(), "");
        return new Topology("0.1.0", "2026-12-06T00:00:00Z", null, List.of(gpu), List.of(), "h100", List.of());
    }

    private static RunManifest manifest(int rounds) {
        return new RunManifest(RunManifest.FORMAT, "0.1.0", "e217ad2", "p2pbench run --preset quick", "quick", MACHINE,
                "2026-12-06T19:31:59Z", "2026-12-06T19:33:06Z", "complete", Map.of("rounds", rounds), List.of());
    }

    /** A run of the three rows, each row's rounds {@code rounds} times its factor, whose host worked {@code seconds}. */
    private static ResultData run(String name, double seconds, int plannedRounds, double pageable, double latency,
                                  double device) {
        double[] spread = {1.0, 0.97, 1.03, 0.99};
        List<Measurement> ms = List.of(rounds(PAGEABLE, spread, 16.0 * pageable), rounds(SMALL_LATENCY, spread,
                7.5 * latency), rounds(DEVICE, new double[] {1.0, 1.001, 0.999, 1.0}, 1406 * device));
        return new ResultData(Path.of(name), name, MACHINE, "test", host(), manifest(plannedRounds), List.of(), ms,
                List.of(), Map.of(), null, ResultData.Tool.P2PBENCH, null, seconds);
    }

    private static Measurement rounds(Measurement.Key key, double[] spread, double level) {
        return Measurement.ofRounds(Arrays.stream(spread).mapToObj(f -> new Measurement(key, MACHINE, "X", true,
                "sweep", "id", new double[] {f * level}, "test")).toList());
    }

    private static Comparison.Row row(Comparison.Result r, Measurement.Key key) {
        return r.rows().stream().filter(x -> x.candidate().key().equals(key)).findFirst().orElseThrow();
    }

    @Test
    void theRowsTheHostsCpuPacesArePageableCopiesSmallLatenciesAndTheRingsLatency() {
        assertTrue(Comparison.hostCpuPaced(PAGEABLE));
        assertTrue(Comparison.hostCpuPaced(new Measurement.Key("bandwidth", "host", "PAGEABLE LOCAL", "H2D+D2H (sum)",
                "GPU0", 64L << 20)));
        assertTrue(Comparison.hostCpuPaced(new Measurement.Key("latency", "host", "PAGEABLE LOCAL", "D2H", "GPU0",
                64L << 20)));
        assertTrue(Comparison.hostCpuPaced(SMALL_LATENCY));
        assertTrue(Comparison.hostCpuPaced(new Measurement.Key("latency", "peer", "CE_P2P_READ", "one-way", "0-0",
                1L << 20)));
        assertTrue(Comparison.hostCpuPaced(new Measurement.Key("latency", "allreduce-ring",
                "ALL_REDUCE FLOAT32 ring over P2P", "per operation", "0,0,0,0", 64L << 20)));
        assertFalse(Comparison.hostCpuPaced(new Measurement.Key("bandwidth", "allreduce-ring",
                "ALL_REDUCE FLOAT32 ring over P2P", "bus", "0,0,0,0", 64L << 20)), "timed on the device as a graph");
        assertFalse(Comparison.hostCpuPaced(DEVICE));
        assertFalse(Comparison.hostCpuPaced(new Measurement.Key("bandwidth", "host", "PINNED LOCAL", "H2D", "GPU0", 4096)),
                "a pinned copy is timed on the device");
        assertFalse(Comparison.hostCpuPaced(new Measurement.Key("latency", "host", "PINNED LOCAL", "H2D", "GPU0",
                64L << 20)), "a 1.2 ms copy: the host's few microseconds are a fraction of a percent");
    }

    @Test
    void hostsThatWorkedMoreThanTenPercentApartWidenTheFloorsOfTheRowsTheyPace() throws Exception {
        // set U: run 4's JVM starts and exits 12.4 s against 10.0 s; its pageable copy 20% slower, 4 KiB latency +12%
        Comparison.Result r = Comparison.compare(List.of(run("u2", 10.0, 4, 1, 1, 1)),
                List.of(run("u4", 12.4, 4, 0.8, 1.12, 1)), 5, NoiseFloors.defaults());
        assertEquals(0.24, Comparison.hostApart(r.baselines(), r.candidates()), 1e-9);
        for (Measurement.Key key : List.of(PAGEABLE, SMALL_LATENCY)) {
            Comparison.Row row = row(r, key);
            assertEquals(Comparison.Unjudged.HOST_CPU, row.cause(), row.why());
            assertTrue(row.why().endsWith("; the floor is widened by the host (rerun)"), row.why());
            assertTrue(row.floor().source().contains("; widened by the host: the candidate's host worked 24% longer "
                    + "than the baseline's (JVM starts and exits, phases.json) and this row moves up to "
                    + (key == PAGEABLE ? "2.7" : "0.5") + " times as much with it"), row.floor().source());
        }
        assertEquals(Verdict.SAME, row(r, DEVICE).verdict(), "a device-timed row is judged as before");
        assertEquals(row(r, DEVICE).p(), row(r, DEVICE).q(), 1e-12, "corrected apart from the rows the host paces");
        assertEquals(0, r.count(Verdict.WORSE));
        assertTrue(ComparisonReport.summary(r, 20).get(0).contains("2 cannot be judged here (within a floor widened by "
                + "the host's CPU, whose work differed by more than 10% (rerun))"), ComparisonReport.summary(r, 20).get(0));
        assertTrue(ComparisonReport.summary(r, 20).stream().anyMatch(l -> l.startsWith("  not gated at ±5% (floor "
                + "wider): ") && l.contains("bandwidth host PAGEABLE LOCAL x1")), String.join("\n", ComparisonReport
                .summary(r, 20)));
    }

    @Test
    void aLatencyFarBeyondWhatTheHostCanMoveIsStillWorse() throws Exception {
        // hosts 24% apart move a 4 KiB latency up to 0.5 x 21.5% (log) = 11%: a latency 40% longer is the build
        Comparison.Result r = Comparison.compare(List.of(run("u2", 10.0, 4, 1, 1, 1)),
                List.of(run("u4", 12.4, 4, 1, 1.4, 1)), 5, NoiseFloors.defaults());
        Comparison.Row row = row(r, SMALL_LATENCY);
        assertEquals(Verdict.WORSE, row.verdict(), row.why() + " / " + row.floor().source());
        assertTrue(row.floor().source().contains("widened by the host"), row.floor().source());
    }

    @Test
    void aBuildThatSlowsTheDeviceIsStillWorseWhenTheHostsWorkedApart() throws Exception {
        Comparison.Result r = Comparison.compare(List.of(run("u2", 10.0, 4, 1, 1, 1)),
                List.of(run("u4", 12.4, 4, 0.8, 1.12, 0.9)), 5, NoiseFloors.defaults());
        assertEquals(Verdict.WORSE, row(r, DEVICE).verdict(), row(r, DEVICE).why());
    }

    @Test
    void hostsThatWorkedAlikeOrRunsOfAnotherPlanJudgeEveryRowAsBefore() throws Exception {
        // the same figures with hosts 5% apart: the pageable and latency rows are judged by their floors
        Comparison.Result alike = Comparison.compare(List.of(run("u2", 10.0, 4, 1, 1, 1)),
                List.of(run("u4", 10.5, 4, 0.8, 1.12, 1)), 5, NoiseFloors.defaults());
        assertNotEquals(Comparison.Unjudged.HOST_CPU, row(alike, PAGEABLE).cause(), row(alike, PAGEABLE).why());
        assertNotEquals(Comparison.Unjudged.HOST_CPU, row(alike, SMALL_LATENCY).cause());
        // another plan (other rounds: other JVMs to start) says nothing about the host: unknown, judged as before
        Comparison.Result otherPlan = Comparison.compare(List.of(run("u2", 10.0, 4, 1, 1, 1)),
                List.of(run("u4", 12.4, 8, 0.8, 1.12, 1)), 5, NoiseFloors.defaults());
        assertTrue(Double.isNaN(Comparison.hostApart(otherPlan.baselines(), otherPlan.candidates())));
        assertNotEquals(Comparison.Unjudged.HOST_CPU, row(otherPlan, PAGEABLE).cause());
        // a run that does not say (NaN: no phases.json) leaves it unknown too
        Comparison.Result unknown = Comparison.compare(List.of(run("u2", Double.NaN, 4, 1, 1, 1)),
                List.of(run("u4", 12.4, 4, 0.8, 1.12, 1)), 5, NoiseFloors.defaults());
        assertNotEquals(Comparison.Unjudged.HOST_CPU, row(unknown, PAGEABLE).cause());
    }
}
