package io.p2pbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.tools.ScaleResults;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code p2pbench compare} as the CI job runs it, on two of the committed A/A reruns (real GPU runs, results
 * format 2, read as committed): exit 0 with the short output, and exit 1 naming exactly the row of a scaled
 * copy ({@code tools/scale-results.sh}'s change). The figures are the committed ones, so this is a fixed
 * input, not a timed test.
 */
class CompareCommittedRunsTest {
    private static final Path RUNS = Path.of("results/h200x1-single-r580");
    private static final Path A = RUNS.resolve("2026-12-02T16-50-50Z");
    private static final Path B = RUNS.resolve("2026-12-02T16-52-40Z");

    @TempDir
    Path work;

    @Test
    void theCommittedRunsAreFormatTwo() throws Exception {
        for (Path run : List.of(A, B)) {
            assertEquals(RunManifest.FORMAT, ResultFolder.open(run).readManifest().format(), run.toString());
        }
    }

    @Test
    void twoRerunsOfOneBuildAreTheSame() {
        CliTest.Result r = CliTest.run("compare", A.toString(), B.toString(), "--out", work.resolve("aa").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("SAME: h200x1-single-r580/2026-12-02T16-52-40Z vs baseline "
                + "h200x1-single-r580/2026-12-02T16-50-50Z: 0 worse, 0 better, 7 same, 62 cannot be judged here (57: noise "
                + "floor wider than ±5%; 5: no ratio) of 69 measurements"),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("Full table: " + work.resolve("aa").resolve("compare.md")), lines.get(1));
    }

    @Test
    void oneBandwidthRowTenPercentLowerIsNamedAndNothingElse() throws Exception {
        Path scaled = work.resolve("bw");
        ScaleResults.scaledCopy(B, scaled, ScaleResults.entry("host-bw-H2D-PINNED-LOCAL-gpu0-64MiB"), 0.9);
        assertOnlyWorse(CliTest.run("compare", A.toString(), scaled.toString(), "--out",
                        work.resolve("bw-out").toString()),
                "  worse  host GPU0 PINNED LOCAL H2D 64 MiB: ", "GB/s (-10.");
    }

    @Test
    void oneLatencyRowTwentyFivePercentHigherIsNamedAndNothingElse() throws Exception {
        Path scaled = work.resolve("lat");
        ScaleResults.scaledCopy(B, scaled, ScaleResults.entry("host-lat-H2D-PINNED-LOCAL-gpu0-1MiB"), 1.25);
        assertOnlyWorse(CliTest.run("compare", A.toString(), scaled.toString(), "--out",
                        work.resolve("lat-out").toString()),
                "  worse  host GPU0 PINNED LOCAL H2D 1 MiB: ", " \u00b5s (+");
    }

    private static void assertOnlyWorse(CliTest.Result r, String rowStart, String fragment) {
        assertEquals(1, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("WORSE: ") && lines.get(0).contains(": 1 worse, 0 better, 7 same, 61 cannot be "
                + "judged here (56: noise floor wider than ±5%; 5: no ratio) of 69 measurements"), lines.get(0));
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(1).startsWith(rowStart) && lines.get(1).contains(fragment), lines.get(1));
        assertTrue(lines.get(2).startsWith("Full table: "), lines.get(2));
    }
}
