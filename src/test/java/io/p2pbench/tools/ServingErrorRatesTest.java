package io.p2pbench.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.partition.Plan;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.verdict.ServingFixtures;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.report.verdict.ServingVerdict;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The serving verdict's A/A error-rate tool, over a committed run and over crafted sweeps. No GPU. */
class ServingErrorRatesTest {
    /** A committed run with four serving sweeps of DENSE_8B over group 0,0 (SINGLE, TP x3 transports). */
    private static final Path RUN = Path.of("results/h200x1-single-r580/2026-12-04T16-54-29Z");
    /** The A/A reruns of {@link #RUN} that docs/serving-error-rates.md was written from (with RUN, in this order). */
    private static final List<Path> RERUNS = List.of(Path.of("results/h200x1-single-r580/2026-12-04T18-16-33Z"),
            Path.of("results/h200x1-single-r580/2026-12-04T18-23-49Z"),
            Path.of("results/h200x1-single-r580/2026-12-04T18-37-02Z"));

    @TempDir
    Path work;

    private static List<ServingResults.Sweep> read(Path run) throws Exception {
        return ServingResults.read(List.of(ResultReader.read(run)));
    }

    @Test
    void aRunAgainstItselfShowsNoChangeNoFalseKeepAndNoSpread() throws Exception {
        List<ServingResults.Sweep> sweeps = read(RUN);
        List<ServingErrorRates.Measured> measured = ServingErrorRates.matched(List.of("a", "b"), List.of(sweeps, sweeps));
        assertEquals(4, measured.size());
        List<ServingErrorRates.Pair> pairs = ServingErrorRates.pairs(measured);
        assertEquals(8, pairs.size(), "two ordered pairs per sweep");
        for (ServingErrorRates.Pair p : pairs) {
            ServingVerdict.Figures f = p.figures();
            assertEquals(List.of(0.0, 0.0, 0.0), f.latency().p99Changes(), p.toString());
            assertEquals(f.capacity().knee(), f.capacity().singleKnee(), p.toString());
            assertFalse(f.keep() || f.worse(), p.toString());
        }
        String md = ServingErrorRates.report(List.of("a", "b"), List.of(sweeps, sweeps));
        assertTrue(md.contains("- overall: false keeps 0 of 8 A/A pairs; differences beyond the floor 0 of 8\n"), md);
        assertTrue(md.contains("| DENSE_8B TP HOST_STAGED 0,0 | 22.1, 22.1 | 0.0% |"), md);
        assertFalse(md.contains("**"), "no spread beyond a floor: " + md);
    }

    @Test
    void aSweepInOneRunOnlyIsNotCompared() throws Exception {
        List<ServingResults.Sweep> sweeps = read(RUN);
        List<ServingErrorRates.Measured> measured = ServingErrorRates.matched(List.of("a", "b"),
                List.of(sweeps, sweeps.subList(0, 1)));
        assertEquals(1, measured.size());
        assertEquals(Plan.SINGLE, measured.get(0).sweeps().get(0).plan());
    }

    @Test
    void aSweepWithP99sThirtyPercentLowerIsAFalseKeepOneWayAndWorseTheOther() {
        ServingResults.Sweep base = sweep(run(point(10, 500, 50), point(20, 900, 60), point(40, 3000, 90)));
        ServingResults.Sweep faster = sweep(run(point(10, 350, 35), point(20, 630, 42), point(40, 2100, 63)));
        String md = ServingErrorRates.report(List.of("base", "faster"), List.of(List.of(base), List.of(faster)));
        assertTrue(md.contains("| DENSE_8B TP P2P 0,0 | faster | base | 20 | -30.0% |"), md);
        assertTrue(md.contains("| DENSE_8B TP P2P 0,0 | base | faster | 20 | +42.9% |"), md);
        assertTrue(md.contains("- DENSE_8B TP P2P 0,0: false keeps 1 of 2 A/A pairs; differences beyond the floor 1 "
                + "of 2; largest p99 spread at rates every run met the target (10, 20 req/s): TTFT 42.9%"), md);
        // TPOT 42.9% apart is beyond its 20% floor; TTFT's floor is 50%
        assertTrue(md.contains("| DENSE_8B TP P2P 0,0 | 20 | 2 of 2 | 42.9% | **42.9%** |"), md);
    }

    @Test
    void theCommittedTableIsWhatTheToolWritesFromItsRuns() throws Exception {
        List<Path> runs = new ArrayList<>(List.of(RUN));
        runs.addAll(RERUNS);
        Path out = work.resolve("rates.md");
        ServingErrorRates.write(out, runs);
        assertEquals(Files.readString(Path.of("docs/serving-error-rates.md")), Files.readString(out),
                "docs/serving-error-rates.md is stale: tools/serving-error-rates.sh " + runs.stream().map(Path::toString)
                        .reduce((a, b) -> a + " " + b).orElseThrow());
    }

    private static ServingResults.Point point(double rate, double ttftMs, double tpotMs) {
        return ServingFixtures.point(rate, ttftMs, tpotMs);
    }

    private static ServingResults.Run run(ServingResults.Point... points) {
        return ServingFixtures.run("h200x1/run", null, points);
    }

    private static ServingResults.Sweep sweep(ServingResults.Run run) {
        return new ServingResults.Sweep("h200x1", "DENSE_8B", Plan.TP, "P2P", "0,0", true, ServingFixtures.SWEEP, List.of(run), null);
    }
}
