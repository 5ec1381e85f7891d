package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bad inputs of issue 14, each one line on stderr and exit code 2 (docs/hardening.md lists
 * them with what the user sees).
 */
class HardeningCliTest {
    private static final String ONE_GPU = "src/test/resources/topologies/h200x1-single-r580.json";
    private static final String L40S = "src/test/resources/topologies/l40sx8-pix+sys-r580.json";

    @TempDir
    Path work;

    // ------------------------------------------------------------------ output locations

    @Test
    void runOutThatCannotBeAFolderIsRefusedBeforeAnythingRuns() {
        assertOneLine(run("run", "--out", "/dev/null/x"), "--out /dev/null/x cannot be a folder: /dev/null is a file");
    }

    @Test
    void runOutOnAnExistingFileIsRefused() throws Exception {
        Path file = Files.writeString(work.resolve("file.txt"), "x");
        assertOneLine(run("run", "--out", file.toString()), "--out " + file + " is a file, not a folder");
    }

    @Test
    void runChartsThatCannotBeAFolderIsRefused() {
        assertOneLine(run("run", "--out", work.toString(), "--report", "--charts", "/dev/null/c"),
                "--charts /dev/null/c cannot be a folder");
    }

    @Test
    void reportAndCompareOutOnAFileOrAnUnwritablePlaceSayWhy() throws Exception {
        Path file = Files.writeString(work.resolve("file.txt"), "x");
        assertOneLine(run("report", Fixtures.X1.toString(), "--out", file.toString()),
                "--out " + file + " is a file, not a folder");
        assertOneLine(run("compare", Fixtures.X1.toString(), Fixtures.X1.toString(), "--out", file.toString()),
                "--out " + file + " is a file, not a folder");
        assertOneLine(run("report", Fixtures.X1.toString(), "--out", "/dev/null/r"), "/dev/null is a file, not a folder");
        // /proc refuses new folders even to root, so this holds where permissions would not.
        CliTest.Result proc = run("report", Fixtures.X1.toString(), "--out", "/proc/p2pbench-report");
        assertOneLine(proc, "--out /proc/p2pbench-report is not writable: ", "(/proc)");
        // Before: "NoSuchFileException (/proc/.p2pbench-write-check1507....tmp)".
        assertFalse(proc.err().contains("Exception") || proc.err().contains("write-check"), proc.err());
    }

    @Test
    void whatifOutOnAFileOrUnderAFileSaysWhy() throws Exception {
        Path file = Files.writeString(work.resolve("file.txt"), "x");
        assertOneLine(run("whatif", Fixtures.X8.toString(), "--out", file.toString()),
                "--out " + file + " is a file, not a folder");
        assertOneLine(run("whatif", Fixtures.X8.toString(), "--out", "/dev/null/w"), "/dev/null is a file, not a folder");
    }

    // ------------------------------------------------------------------ two runs at once

    @SuppressWarnings("try") // the lock is held for the block, not used in it
    @Test
    void aSecondRunIsRefusedAtTheStartWithOneLineAndWritesNothing() throws Exception {
        Path lockFile = work.resolve("p2pbench.lock");
        String lockBefore = System.getProperty(io.p2pbench.run.RunLock.FILE_PROPERTY);
        String jmhBefore = System.getProperty(io.p2pbench.run.RunLock.JMH_LOCK_PROPERTY);
        System.setProperty(io.p2pbench.run.RunLock.FILE_PROPERTY, lockFile.toString());
        System.setProperty(io.p2pbench.run.RunLock.JMH_LOCK_PROPERTY, work.resolve("jmh.lock").toString());
        Path results = work.resolve("results");
        try (io.p2pbench.run.RunLock first = io.p2pbench.run.RunLock.acquire(lockFile, "p2pbench run --preset full",
                false, 50, new java.io.PrintWriter(new java.io.StringWriter()))) {
            assertOneLine(run("run", "--out", results.toString()),
                    "another p2pbench run is measuring on this machine (pid " + ProcessHandle.current().pid(),
                    "p2pbench run --preset full", "run with --wait");
            try (var left = Files.list(results)) {
                assertEquals(0, left.count(), "no result folder is written");
            }
        } finally {
            restore(io.p2pbench.run.RunLock.FILE_PROPERTY, lockBefore);
            restore(io.p2pbench.run.RunLock.JMH_LOCK_PROPERTY, jmhBefore);
        }
    }

    static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    // ------------------------------------------------------------------ topology and manifest JSON

    private String topology(String name, String json) throws Exception {
        return Files.writeString(work.resolve(name + ".json"), json).toString();
    }

    private static String gpu(int index) {
        return "{\"index\":" + index + ",\"name\":\"G\",\"pciBusId\":\"0000:0" + index + ":00.0\",\"memoryBytes\":"
                + (80L << 30) + ",\"nvlinks\":[]}";
    }

    private static String pair(int src, int dst, String link) {
        return "{\"src\":" + src + ",\"dst\":" + dst + ",\"canAccessPeer\":true,\"link\":" + link + "}";
    }

    private static final String HOST = "\"host\":{\"cpuModel\":\"x\",\"sockets\":1,\"numaNodes\":1}";

    @Test
    void malformedTopologiesAreOneLineNotANullPointer() throws Exception {
        assertOneLine(run("run", "--dry-run", "--topology", topology("null", "null")), "holds JSON null");
        assertOneLine(run("run", "--dry-run", "--topology", topology("empty",
                "{" + HOST + ",\"gpus\":[],\"pairs\":[]}")), "\"gpus\" is empty");
        assertOneLine(run("run", "--dry-run", "--topology", topology("nullgpu",
                "{" + HOST + ",\"gpus\":[null],\"pairs\":[]}")), "gpus[0] is null");
        assertOneLine(run("run", "--dry-run", "--topology", topology("nulllink",
                "{" + HOST + ",\"gpus\":[" + gpu(0) + "],\"pairs\":[" + pair(0, 0, "null") + "]}")),
                "pair 0-0 has no link class");
        StringBuilder pairs = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            pairs.append(i == 0 ? "" : ",").append(pair(i / 8 % 2, i % 2, "\"SYS\""));
        }
        assertOneLine(run("run", "--dry-run", "--topology", topology("toomany",
                "{" + HOST + ",\"gpus\":[" + gpu(0) + "," + gpu(1) + "],\"pairs\":[" + pairs + "]}")),
                "64 pairs for 2 GPU(s); expected every ordered pair once, 4 pairs");
        assertOneLine(run("run", "--dry-run", "--topology", topology("index",
                "{" + HOST + ",\"gpus\":[" + gpu(0) + "," + gpu(0) + "],\"pairs\":[]}")), "gpus[1] has index 0");
        // Before: absent or null was read as false, and the plan dropped the pair's P2P rows without a word.
        for (String access : new String[] {"null", "\"yes\""}) {
            assertOneLine(run("run", "--dry-run", "--topology", topology("access" + access.length(),
                    "{" + HOST + ",\"gpus\":[" + gpu(0) + "],\"pairs\":[" + pair(0, 0, "\"X\"")
                            .replace("\"canAccessPeer\":true", "\"canAccessPeer\":" + access) + "]}")),
                    "pairs[0] has canAccessPeer " + access + "; expected true or false");
        }
        assertOneLine(run("run", "--dry-run", "--topology", topology("noaccess",
                "{" + HOST + ",\"gpus\":[" + gpu(0) + "],\"pairs\":[" + pair(0, 0, "\"X\"")
                        .replace("\"canAccessPeer\":true,", "") + "]}")), "pairs[0] has canAccessPeer null");
    }

    @Test
    void aNullManifestIsOneLine() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("nullmanifest"));
        Files.writeString(dir.resolve("manifest.json"), "null\n");
        assertOneLine(run("report", dir.toString(), "--out", work.resolve("r").toString()),
                "manifest.json is not a p2pbench manifest (it holds JSON null");
    }

    @Test
    void aTruncatedJmhResultsFileIsRefusedNotExported() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("truncated"));
        assertTrue(Files.isRegularFile(dir.resolve("jmh-results.json")), "the fixture has a jmh-results.json");
        Fixtures.truncate(dir.resolve("jmh-results.json"));
        Path out = work.resolve("r");
        assertOneLine(run("report", dir.toString(), "--out", out.toString()), "jmh-results.json is not readable JMH JSON");
    }

    @Test
    void aTruncatedPerBenchmarkJmhFileOfFormat2IsRefusedNotExported() throws Exception {
        // Format 2 has no jmh-results.json: the export merges jmh/*.json.gz, so a cut one is the same fault.
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("truncated2"));
        io.p2pbench.results.ResultMigration.migrate(dir);
        assertFalse(Files.exists(dir.resolve("jmh-results.json")), "format 2 keeps no merged file");
        Path jmh = Fixtures.find(dir.resolve("jmh"), "001-peer-bw-");
        assertTrue(jmh.getFileName().toString().endsWith(".json.gz"), jmh.toString());
        Fixtures.truncate(jmh);
        assertOneLine(run("report", dir.toString(), "--out", work.resolve("r").toString()),
                jmh.getFileName() + " is not readable JMH JSON");
    }

    @Test
    void aTruncatedJmhFileOfAKindThisVersionDoesNotReadIsRefusedInFormat2() throws Exception {
        // Kinds this version does not read are still exported as JMH JSON, so their files are checked too.
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("future"));
        io.p2pbench.results.ResultMigration.migrate(dir);
        Path jmh = Fixtures.find(dir.resolve("jmh"), "future-kind");
        Fixtures.truncate(jmh);
        assertOneLine(run("report", dir.toString(), "--out", work.resolve("r").toString()),
                jmh.getFileName() + " is not readable JMH JSON");
    }

    // ------------------------------------------------------------------ option values

    @Test
    void aHugeStagingChunkIsRefused() {
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--staging-chunk", "2T"),
                "--staging-chunk 2 TiB is too large", "use at most 1 GiB");
        assertEquals(0, run("run", "--dry-run", "--topology", ONE_GPU, "--staging-chunk", "1G").code());
    }

    @Test
    void aZeroThresholdIsRefusedAsTheMessageSays() {
        assertOneLine(run("compare", Fixtures.X8.toString(), Fixtures.X8.toString(), "--threshold", "0"),
                "--threshold 0 is not a percentage above 0 and below 100");
    }

    // ------------------------------------------------------------------ plan and report text

    @Test
    void planSkipLinesNameWhereTheyApplyWithoutPlaceholders() {
        CliTest.Result r = run("run", "--dry-run", "--topology", L40S, "--preset", "quick");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("?"), r.out());
        assertTrue(r.out().contains("P2P: no peer access between GPU0 and GPU4 (cudaDeviceCanAccessPeer is 0) [group "),
                r.out());
    }

    @Test
    void aCombinationSkippedInTwoRunsIsListedOnce() throws Exception {
        Path again = Fixtures.copy(Fixtures.X8, work.resolve("again"));
        Path out = work.resolve("r");
        CliTest.Result r = run("report", Fixtures.X8.toString(), again.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String summary = Files.readString(out.resolve("summary.md"));
        String row = summary.lines().filter(l -> l.contains("peer-bw-CE_P2P_READ-3-5-256MiB")).findFirst().orElseThrow();
        Matcher m = Pattern.compile("`peer-bw-CE_P2P_READ-3-5-256MiB`").matcher(row);
        int n = 0;
        while (m.find()) {
            n++;
        }
        assertEquals(1, n, row);
        assertTrue(row.contains("| 2 (4 times in these runs) |"), row);
    }
}
