package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    private String compareMd(String dir) {
        return assertDoesNotThrowRead(work.resolve(dir).resolve("compare.md"));
    }

    @Test
    void compareWithItselfIsSameForEveryRowAndExitsZero() {
        CliTest.Result r = run("compare", x8(), x8(), "--out", out("same"));
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("SAME: h200x8-nv18-r580/synthetic-h200x8 vs baseline "), lines.get(0));
        assertTrue(lines.get(1).startsWith("  not gated at ±5% (floor wider): "), lines.get(1));
        assertTrue(lines.get(2).startsWith("Full table: " + work.resolve("same").resolve("compare.md")), lines.get(2));
        String md = compareMd("same");
        long rows = md.lines().filter(l -> l.startsWith("| bandwidth") || l.startsWith("| latency")).count();
        long same = md.lines().filter(l -> l.contains("| +0.0% |")).count();
        assertTrue(rows > 100, md);
        assertEquals(rows, same, "every row is unchanged");
        assertTrue(md.contains("same machine, by (path, direction, size, pair)"));
    }

    @Test
    void compareWithHalfTheBandwidthExitsOneWithAShortLog() throws Exception {
        Path lower = Fixtures.copy(Fixtures.X8, work.resolve("lower"));
        Fixtures.scaleBandwidth(lower, 0.5);
        CliTest.Result r = run("compare", x8(), lower.toString(), "--out", out("lower-out"));
        assertEquals(1, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("WORSE: "), lines.get(0));
        assertTrue(lines.size() <= 24, r.out());
        assertTrue(lines.get(1).startsWith("  worse  ") && lines.get(1).contains("-50.0%"), lines.get(1));
        assertTrue(compareMd("lower-out").lines().filter(l -> l.startsWith("| latency")).allMatch(l -> l.contains("| same |")
                || l.contains("| cannot judge |")));
        assertEquals(0, run("compare", x8(), lower.toString(), "--threshold", "99", "--out", out("t")).code(),
                "a 50% drop is within a 99% threshold");
    }

    @Test
    void aRunComparedWithItselfWritesNoNaNOrInfinity() throws Exception {
        // Before: 25 cells "NaN (no interval: one run each side)" (one rank's NCCL bus bandwidth, 0 against 0).
        String run = "results/h200x1-single-r580/2026-12-02T17-50-12Z";
        CliTest.Result r = CliTest.run("compare", run, run, "--out", work.resolve("self").toString());
        assertEquals(0, r.code(), r.err());
        try (var files = Files.list(work.resolve("self"))) {
            for (Path f : files.toList()) {
                String text = Files.readString(f);
                assertFalse(text.contains("NaN") || text.contains("Infinity"), f + " holds NaN or Infinity");
            }
        }
    }

    @Test
    void severalRunsPerSideAreCommaLists() throws Exception {
        String again = Fixtures.copy(Fixtures.X8, work.resolve("again")).toString();
        CliTest.Result r = run("compare", x8() + "," + again, x8() + "," + again, "--out", out("runs"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("pooled with the baseline's own 2 runs"), r.out());
        assertOneLine(run("compare", x8() + ",", x8(), "--out", out("runs")), "has an empty element");
        assertOneLine(run("compare", x8() + "," + x1(), x8(), "--out", out("runs")),
                "the baseline runs come from different machines");
    }

    @Test
    void compareAcceptsNvbandwidthAndNcclTestsBaselines() {
        CliTest.Result nvb = run("compare", Fixtures.NVBANDWIDTH.toString(), x8(), "--nvbandwidth-size", "256M", "--out",
                out("nvb"));
        assertEquals(0, nvb.code(), nvb.err());
        assertTrue(compareMd("nvb").contains("nvbandwidth v0.8 (-b 256 MiB)"), nvb.out());
        assertOneLine(run("compare", Fixtures.NVBANDWIDTH.toString(), x8(), "--out", out("nvb512")),
                "512 MiB was assumed (pass nvbandwidth's -b as --nvbandwidth-size)");
        CliTest.Result nccl = run("compare", Fixtures.NCCL_TESTS.toString(), x8(), "--out", out("nccl"));
        assertEquals(0, nccl.code(), nccl.err());
        assertTrue(compareMd("nccl").contains("| ALL_REDUCE FLOAT32 | bus | 256 MiB |"), nccl.out());
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
        assertTrue(compareMd("c").contains("| bandwidth | nccl | 0,1,2,3,4,5,6,7 (group of 8) | ALL_REDUCE FLOAT32 | bus | 256 MiB"),
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
        assertOneLine(run("compare", Fixtures.NCCL_TESTS.toString(), Fixtures.NVBANDWIDTH.toString(), "--out", out("c")),
                "have no measurement in common when matched by (path, direction, size, pair)");
    }

    /** Eight GPUs against one: the same collective, size and direction on other GPUs is said as such. */
    @Test
    void twoResultsThatDifferOnlyInTheirGpusSaySo() {
        assertOneLine(run("compare", Fixtures.NCCL_TESTS.toString(), x1(), "--out", out("c")),
                "measured the same path, direction and size only on different GPUs (synthetic-h200x8-all_reduce_perf"
                        + ".json on 0,1,2,3,4,5,6,7 (group of 8); h200x1-single-r580/synthetic-h200x1 on 0 (group of 1), "
                        + "single GPU: not an interconnect measurement); a figure is compared only with one of the "
                        + "same GPUs");
    }

    /**
     * nccl-tests under {@code mpirun --tag-output}, two ranks on GPU 0 of the one-H200 machine: read (not taken
     * for JSON), labelled single GPU, and the run's one-rank NCCL rows are named as other GPUs.
     */
    @Test
    void ncclTestsTagOutputOfTwoRanksOnOneGpuIsReadAndLabelledSingleGpu() {
        String tagged = Fixtures.NCCL_TESTS_TWO_RANKS_ONE_GPU.toString();
        assertOneLine(run("compare", tagged, x1(), "--out", out("c")),
                "2ranks-1gpu-tag-output.txt on 0,0 (group of 2), single GPU: not an interconnect measurement; "
                        + "h200x1-single-r580/synthetic-h200x1 on 0 (group of 1)");
        CliTest.Result self = run("compare", tagged, tagged, "--out", out("self"));
        assertEquals(0, self.code(), self.err());
        assertTrue(self.out().startsWith("SAME: "), self.out());
        assertTrue(compareMd("self").contains("| bandwidth | nccl | 0,0 (group of 2), single GPU: not an "
                + "interconnect measurement | ALL_REDUCE FLOAT32 | bus | 64 MiB |"), compareMd("self"));
    }

    /** A plain nvbandwidth run holds testcases p2pbench has no counterpart for: listed, and the rest compared. */
    @Test
    void nvbandwidthTestcasesWithoutACounterpartAreListedNotFatal() {
        String nvb = Fixtures.NVBANDWIDTH_UNMAPPED.toString();
        CliTest.Result r = run("compare", nvb, x8(), "--nvbandwidth-size", "256M", "--out", out("nvb"));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Not compared: synthetic-h200x8-nvbandwidth-v0.8-unmapped-testcases.json "
                + "testcases with no p2pbench counterpart (not mapped): all_to_host_memcpy_ce, host_to_device_memcpy_sm, "
                + "device_to_host_memcpy_sm, host_device_latency_sm"), r.out());
        assertTrue(compareMd("nvb").contains("- device_to_host_memcpy_sm (not mapped): no p2pbench counterpart"),
                compareMd("nvb"));
        assertTrue(compareMd("nvb").contains("| bandwidth | peer | 1→0 (NV18) | CE_P2P_READ | one-way | 256 MiB |"),
                "the mapped testcases are compared: " + compareMd("nvb"));
        CliTest.Result asCandidate = run("compare", x8(), nvb, "--nvbandwidth-size", "256M", "--out", out("cand"));
        assertEquals(0, asCandidate.code(), asCandidate.err());
        assertTrue(asCandidate.out().contains("Not compared: synthetic-h200x8-nvbandwidth-v0.8-unmapped-testcases"
                + ".json testcases"), asCandidate.out());
        assertOneLine(run("compare", nvb, x8(), "--out", out("c512")), "512 MiB was assumed",
                "left out, and not why nothing matched: testcases with no p2pbench counterpart: all_to_host_memcpy_ce");
    }

    @Test
    void badArguments() {
        assertOneLine(run("compare", x8()), "CANDIDATE");
        assertOneLine(run("report"), "RESULT_DIR");
        assertOneLine(run("compare", x8(), x8(), "--threshold", "150"), "--threshold 150 is not a percentage");
        assertOneLine(run("compare", x8(), x8(), "--nvbandwidth-size", "1.5M"), "'1.5M' is not a size");
    }
}
