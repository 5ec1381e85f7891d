package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code p2pbench report} and {@code compare} end to end, and every bad input as one line with exit code 2. */
class ReportCompareCliTest {
    @TempDir
    Path work;

    private String x1() {
        return Fixtures.X1.toString();
    }

    private String x8() {
        return Fixtures.X8.toString();
    }

    private String out(String name) {
        return work.resolve(name).toString();
    }

    @Test
    void reportWritesSummaryAndCharts() {
        CliTest.Result r = run("report", x8(), "--out", out("report"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("summary.md"), r.out());
        assertTrue(Files.exists(work.resolve("report/summary.md")));
        if (io.p2pbench.report.ReportTestAccess.chartsDrawable()) {
            assertTrue(Files.exists(work.resolve("report/heatmap-CE_P2P_READ-256MiB.svg")));
        } else {
            assertTrue(assertDoesNotThrowRead(work.resolve("report/summary.md")).contains("Charts were not drawn"));
        }
    }

    private static String assertDoesNotThrowRead(java.nio.file.Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void compareWithItselfIsSameForEveryRowAndExitsZero() {
        CliTest.Result r = run("compare", x8(), x8(), "--out", out("same"));
        assertEquals(0, r.code(), r.err());
        long rows = r.out().lines().filter(l -> l.startsWith("| bandwidth") || l.startsWith("| latency")).count();
        long same = r.out().lines().filter(l -> l.contains("| +0.0% | same |")).count();
        assertTrue(rows > 100, r.out());
        assertEquals(rows, same, "every row is the same");
        assertTrue(r.out().contains("same machine, by (path, direction, size, pair)"));
    }

    @Test
    void compareWithTenPercentLessBandwidthFlagsEveryBandwidthRowAndExitsOne() throws Exception {
        Path lower = Fixtures.copy(Fixtures.X8, work.resolve("lower"));
        Fixtures.scaleBandwidth(lower, 0.9);
        CliTest.Result r = run("compare", x8(), lower.toString(), "--out", out("lower-out"));
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().lines().filter(l -> l.startsWith("| bandwidth")).allMatch(l -> l.contains("| **worse** |")
                && l.contains("| -10.0% |")), r.out());
        assertTrue(r.out().lines().filter(l -> l.startsWith("| latency")).allMatch(l -> l.contains("| same |")));
        assertEquals(0, run("compare", x8(), lower.toString(), "--threshold", "12", "--out", out("t")).code(),
                "a 10% drop is within a 12% threshold");
    }

    @Test
    void compareAcceptsNvbandwidthAndNcclTestsBaselines() {
        CliTest.Result nvb = run("compare", Fixtures.NVBANDWIDTH.toString(), x8(), "--nvbandwidth-size", "256M", "--out",
                out("nvb"));
        assertEquals(0, nvb.code(), nvb.err());
        assertTrue(nvb.out().contains("nvbandwidth v0.8 (-b 256 MiB)"), nvb.out());
        CliTest.Result nccl = run("compare", Fixtures.NCCL_TESTS.toString(), x8(), "--out", out("nccl"));
        assertEquals(0, nccl.code(), nccl.err());
        assertTrue(nccl.out().contains("| ALL_REDUCE FLOAT32 | bus | 256 MiB |"), nccl.out());
    }

    @Test
    void missingFolder() {
        assertOneLine(run("report", "results/no-such-run", "--out", out("r")), "results/no-such-run does not exist");
        assertOneLine(run("compare", x8(), "results/no-such-run", "--out", out("c")), "results/no-such-run does not exist");
    }

    @Test
    void ncclTestsPrintedOutputNeedsItsCollectiveNamedOnce() {
        String text = "src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf.txt";
        assertOneLine(run("compare", text, x8(), "--out", out("c")),
                "does not name its program; say which with --nccl-tests-op ALL_GATHER|ALL_REDUCE|ALL_TO_ALL|REDUCE_SCATTER");
        CliTest.Result ok = run("compare", text, x8(), "--nccl-tests-op", "ALL_REDUCE", "--out", out("c"));
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("| bandwidth | nccl | 0,1,2,3,4,5,6,7 (group of 8) | ALL_REDUCE FLOAT32 | bus | 256 MiB"),
                ok.out());
    }

    @Test
    void notAResult() {
        assertOneLine(run("report", "src/test/resources/topologies", "--out", out("r")),
                "is not a p2pbench result folder (no manifest.json)");
        assertOneLine(run("report", "src/test/resources/fixtures/results", "--out", out("r")),
                "it holds result folders, e.g.");
        assertOneLine(run("compare", "src/test/resources/topologies/h200x1-single-r580.json", x8(), "--out", out("c")),
                "is neither a p2pbench result folder nor nvbandwidth -j JSON nor nccl-tests -J JSON");
        assertOneLine(run("report", "src/test/resources/topologies/h200x1-single-r580.json", "--out", out("r")),
                "is a file, not a p2pbench result folder");
    }

    @Test
    void truncatedJson() throws Exception {
        Path manifest = Fixtures.copy(Fixtures.X1, work.resolve("manifest"));
        Fixtures.truncate(manifest.resolve("manifest.json"));
        assertOneLine(run("report", manifest.toString(), "--out", out("r")), "manifest.json is not a readable p2pbench manifest");

        Path jmh = Fixtures.copy(Fixtures.X1, work.resolve("jmh"));
        Path jmhFile = Fixtures.find(jmh.resolve("jmh"), "peer-lat-CE_P2P_READ-0-0-4KiB");
        Fixtures.truncate(jmhFile);
        assertOneLine(run("report", jmh.toString(), "--out", out("r")), jmhFile.getFileName() + " is not readable JMH JSON");

        Path samples = Fixtures.copy(Fixtures.X1, work.resolve("samples"));
        Fixtures.truncate(samples.resolve("samples/peer-bw-CE_P2P_READ-0-0-4KiB.json"));
        assertOneLine(run("compare", x1(), samples.toString(), "--out", out("c")),
                "peer-bw-CE_P2P_READ-0-0-4KiB.json is not readable samples JSON");

        Path nvb = work.resolve("nvbandwidth.json");
        Files.copy(Fixtures.NVBANDWIDTH, nvb);
        Fixtures.truncate(nvb);
        assertOneLine(run("compare", nvb.toString(), x8(), "--out", out("c")), "nvbandwidth.json is not readable JSON");
    }

    @Test
    void incompatibleSuiteVersion() throws Exception {
        Path newer = Fixtures.copy(Fixtures.X1, work.resolve("newer"));
        Fixtures.setManifestField(newer, "suiteVersion", "1.0.0");
        assertOneLine(run("report", newer.toString(), "--out", out("r")),
                "holds results of p2pbench 1.0.0; this p2pbench 0.1.0 reads results of suite version 0.x");
        Path format = Fixtures.copy(Fixtures.X1, work.resolve("format"));
        Fixtures.setManifestField(format, "format", "p2pbench-results/3");
        assertOneLine(run("compare", x1(), format.toString(), "--out", out("c")),
                "has result format 'p2pbench-results/3'; this p2pbench reads 'p2pbench-results/1' and 'p2pbench-results/2'");
    }

    @Test
    void twoResultsWithNothingInCommon() {
        assertOneLine(run("compare", Fixtures.NCCL_TESTS.toString(), x1(), "--out", out("c")),
                "have no measurement in common when matched by (path, direction, size, pair)");
    }

    @Test
    void badArguments() {
        assertOneLine(run("compare", x8()), "CANDIDATE");
        assertOneLine(run("report"), "RESULT_DIR");
        assertOneLine(run("compare", x8(), x8(), "--threshold", "150"), "--threshold 150.0 is not a percentage");
        assertOneLine(run("compare", x8(), x8(), "--nvbandwidth-size", "1.5M"), "'1.5M' is not a size");
    }
}
