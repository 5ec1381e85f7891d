package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.FolderFigures;
import io.p2pbench.report.Fixtures;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.RunManifest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The rest of issue 25's sweep of bad input: each case one line naming the value and what is accepted
 * (or the file and what is wrong with it), exit code 2, nothing lost (docs/hardening.md lists them).
 */
class BadInputSweepCliTest {
    private static final String ONE_GPU = "src/test/resources/topologies/h200x1-single-r580.json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path work;

    // ------------------------------------------------------------------ sizes

    @Test
    void sizesWhoseArithmeticWouldOverflowAreRefused() {
        // 4194304T is 2^62 bytes and 9223372036854775776 is 2^63 - 32: both parse, and twice each wrapped to "fits".
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "4194304T"),
                "size 4194304 TiB does not fit", "use sizes up to 70.2 GiB");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "9223372036854775776"),
                "does not fit", "use sizes up to 70.2 GiB");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "9223372036854775808"),
                "size '9223372036854775808' is too large: it does not fit in 64 bits", "up to 8388607T");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "8388608T"), "size '8388608T' is too large");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "71G"), "size 71 GiB does not fit");
        assertEquals(0, run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "70G").code());
    }

    // ------------------------------------------------------------------ the run lock

    @Test
    void aRunLockPathThatCannotBeALockFileIsOneLineNotAnInternalError() throws Exception {
        String lockBefore = System.getProperty(io.p2pbench.run.RunLock.FILE_PROPERTY);
        Path folder = Files.createDirectories(work.resolve("lock-is-a-folder"));
        System.setProperty(io.p2pbench.run.RunLock.FILE_PROPERTY, folder.toString());
        try {
            assertOneLine(run("run", "--out", work.resolve("results").toString()),
                    "the lock file " + folder + " is a folder, not a file");
        } finally {
            HardeningCliTest.restore(io.p2pbench.run.RunLock.FILE_PROPERTY, lockBefore);
        }
    }

    // ------------------------------------------------------------------ topologies

    private String topologyWithMemory(String memoryField) throws Exception {
        String json = Files.readString(Path.of(ONE_GPU)).replaceFirst("\"memoryBytes\" : \\d+,", memoryField);
        return Files.writeString(work.resolve("t" + Math.abs(memoryField.hashCode()) + ".json"), json).toString();
    }

    @Test
    void aGpuMemoryThatIsMissingZeroNegativeOrFractionalIsRefused() throws Exception {
        assertOneLine(run("run", "--dry-run", "--topology", topologyWithMemory("")), "gpus[0] has no memoryBytes");
        assertOneLine(run("run", "--dry-run", "--topology", topologyWithMemory("\"memoryBytes\" : null,")),
                "gpus[0] has no memoryBytes");
        for (String bad : new String[] {"0", "-1", "1.5", "\"80G\""}) {
            assertOneLine(run("run", "--dry-run", "--topology", topologyWithMemory("\"memoryBytes\" : " + bad + ",")),
                    "gpus[0].memoryBytes " + bad + " is not a memory size", "whole number of bytes above 0");
        }
        String json = Files.readString(Path.of(ONE_GPU)).replace("\"smCount\" : 132", "\"smCount\" : 1.5");
        assertOneLine(run("run", "--dry-run", "--topology", Files.writeString(work.resolve("sm.json"), json).toString()),
                "gpus[0].smCount: ", "(1.5)", "expected a whole number");
    }

    @Test
    void aThousandGpusAreRefusedAtOnceNotPlanned() throws Exception {
        // Before: the plan looked every pair up by a scan over all pairs, and 1000 GPUs never finished.
        ObjectNode t = (ObjectNode) MAPPER.readTree(Path.of(ONE_GPU).toFile());
        ArrayNode gpus = t.putArray("gpus");
        ObjectNode first = (ObjectNode) MAPPER.readTree(Path.of(ONE_GPU).toFile()).get("gpus").get(0);
        for (int i = 0; i < 1000; i++) {
            gpus.add(first.deepCopy().put("index", i));
        }
        Path file = work.resolve("thousand.json");
        MAPPER.writeValue(file.toFile(), t);
        assertOneLine(run("run", "--dry-run", "--topology", file.toString()), "1000 GPUs", "up to 256 GPUs");
    }

    // ------------------------------------------------------------------ damaged result folders

    /** A format 2 copy of the one-GPU fixture. */
    private Path format2(String name) throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve(name));
        io.p2pbench.results.ResultMigration.migrate(dir);
        return dir;
    }

    private CliTest.Result report(Path dir) {
        return run("report", dir.toString(), "--out", work.resolve("r").toString());
    }

    @Test
    void aDamagedResultFolderNamesTheFileAndWhatIsWrong() throws Exception {
        Path nullEntry = format2("nullentry");
        ObjectNode m = (ObjectNode) MAPPER.readTree(nullEntry.resolve("manifest.json").toFile());
        m.withArray("entries").set(3, com.fasterxml.jackson.databind.node.NullNode.getInstance());
        MAPPER.writeValue(nullEntry.resolve("manifest.json").toFile(), m);
        assertOneLine(report(nullEntry), nullEntry.resolve("manifest.json") + ": entries[3] is null");

        Path noFormat = format2("noformat");
        m = (ObjectNode) MAPPER.readTree(noFormat.resolve("manifest.json").toFile());
        m.remove("format");
        MAPPER.writeValue(noFormat.resolve("manifest.json").toFile(), m);
        assertOneLine(report(noFormat), "manifest.json has no \"format\" field; this p2pbench reads 'p2pbench-results/1'");
        assertOneLine(run("migrate", noFormat.toString()), "could not be migrated");

        Path notGzip = format2("notgzip");
        Path jmh = Fixtures.find(notGzip.resolve("jmh"), "001-");
        Files.write(jmh, AtomicFiles.read(jmh)); // the JSON, not gzipped, under its .gz name
        assertOneLine(report(notGzip), jmh + " is not readable JMH JSON: it is not gzip data, though its name ends in .gz");

        Path cutJmh = format2("cutjmh");
        jmh = Fixtures.find(cutJmh.resolve("jmh"), "001-");
        Fixtures.truncate(jmh);
        assertOneLine(report(cutJmh), jmh + " is not readable JMH JSON: it is cut short (a truncated gzip file");

        Path cutSamples = format2("cutsamples");
        Path samples = Fixtures.find(cutSamples.resolve("samples"), "peer-bw-CE_P2P_READ-0-0-4KiB");
        Fixtures.truncate(samples);
        assertOneLine(report(cutSamples), samples + " is not readable samples JSON: it is cut short");

        Path cutSamplesJson = format2("cutsamplesjson");
        samples = Fixtures.find(cutSamplesJson.resolve("samples"), "peer-bw-CE_P2P_READ-0-0-4KiB");
        byte[] json = AtomicFiles.read(samples);
        Files.write(samples, AtomicFiles.gzip(java.util.Arrays.copyOf(json, json.length / 2)));
        assertOneLine(report(cutSamplesJson), samples + " is not readable samples JSON: it ends early (truncated?)");
        assertFalse(Files.exists(work.resolve("r").resolve("summary.md")), "no report from any of them");
    }

    /** {@code report} of a copy of the one-GPU fixture whose {@code file} has {@code json} at {@code at} (null: removed). */
    private CliTest.Result reportWith(String file, String at, String json) throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, Files.createTempDirectory(work, "v"));
        Path f = dir.resolve(file);
        JsonNode root = MAPPER.readTree(f.toFile());
        JsonNode parent = root.at(at.substring(0, at.lastIndexOf('/')));
        String key = at.substring(at.lastIndexOf('/') + 1);
        if (parent instanceof ArrayNode a) {
            a.set(Integer.parseInt(key), MAPPER.readTree(json));
        } else if (json == null) {
            ((ObjectNode) parent).remove(key);
        } else {
            ((ObjectNode) parent).set(key, MAPPER.readTree(json));
        }
        MAPPER.writeValue(f.toFile(), root);
        return report(dir);
    }

    @Test
    void valuesThatWereAnInternalErrorOrAWrongFigureAreOneLine() throws Exception {
        assertOneLine(reportWith("topology.json", "/gpus/0/name", null), "GPU 0 has no name");
        assertOneLine(reportWith("manifest.json", "/entries/2/status", null), "entries[2] or a round of it has no");
        String samples = "samples/peer-bw-CE_P2P_READ-0-0-4KiB.json";
        assertOneLine(reportWith(samples, "/batches/1", "null"), "does not hold 1-lane batches");
        assertOneLine(reportWith(samples, "/batches/3/laneGBps/0", "-1.96"), "batches[3]", "-1.96",
                "expected 0, or 0.000000001 to 100000 GB/s");
        // Before: accepted, and a ratio against it was "+Infinity%" in compare.md and NaN in the charts' paths.
        assertOneLine(reportWith(samples, "/batches/3/laneGBps/0", "5e-324"), "batches[3]", "4.9E-324");
        assertOneLine(reportWith(samples, "/batches/2/laneGBps/0", "1e308"), "batches[2]", "1.0E308");
        assertOneLine(reportWith(samples, "/batches/0/windowGBps", "\"Infinity\""), "windowGBps=Infinity");
        String bin = "/0/primaryMetric/rawDataHistogram/0/0/0";
        String jmh = "jmh/002-peer-lat-CE_P2P_READ-0-0-4KiB.json";
        assertOneLine(reportWith(jmh, bin, "[10.0,-1]"), "histogram bin [10.0,-1]; expected [time, count]");
        assertOneLine(reportWith(jmh, bin, "[-10.0,3]"), "bin [-10.0,3]");
        assertOneLine(reportWith(jmh, bin, "[\"x\",3]"), "bin [\"x\",3]");
        // Before: accepted; the report's files said "Infinity" and compare.md a 309-digit latency.
        assertOneLine(reportWith(jmh, bin, "[1e308,3]"), "bin [1.0E308,3]", "a time of 0 to 3600000000 (an hour)");
        assertFalse(Files.exists(work.resolve("r").resolve("summary.md")));
    }

    @Test
    void manifestValuesThatWereReportedAsGivenAreOneLine() throws Exception {
        // Before: each was reported with exit 0 as it stood.
        assertOneLine(reportWith("manifest.json", "/entries/0/bytesVerified", "-1000000000000"),
                "entries[0] or a round of it has bytesVerified -1000000000000; expected 0 or more bytes");
        assertOneLine(reportWith("manifest.json", "/entries/0/combination/sizeBytes", "1.5"),
                "\"entries[0].combination.sizeBytes\": a number where a whole number belongs"); // was read as 1 B
        assertOneLine(reportWith("manifest.json", "/entries/0/combination/params/sizeBytes", "\"-1\""),
                "entries[0].combination.sizeBytes 4096 is not its params.sizeBytes '-1'");
        assertOneLine(reportWith("manifest.json", "/entries/0/combination/params/pair", "\"0-99\""),
                "names GPU 99, but the run's machine (topology.json) has GPUs 0 to 0");
        Path twice = Fixtures.copy(Fixtures.X1, work.resolve("twice"));
        ObjectNode m = (ObjectNode) MAPPER.readTree(twice.resolve("manifest.json").toFile());
        m.withArray("entries").add(m.withArray("entries").get(0).deepCopy());
        MAPPER.writeValue(twice.resolve("manifest.json").toFile(), m);
        assertOneLine(report(twice), "twice; a run lists each combination once"); // was counted twice: 70 ok of 69
        assertFalse(Files.exists(work.resolve("r").resolve("summary.md")));
    }

    @Test
    void aTruncatedJmhFileOfFormat1StopsMigrateNamingItAndLeavesTheFolderAsItWas() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("f1"));
        Path jmh = Fixtures.find(dir.resolve("jmh"), "001-");
        Fixtures.truncate(jmh);
        List<Path> before = files(dir);
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "could not be migrated");
        assertTrue(r.out().contains(jmh + " is not readable JMH JSON: it ") && r.out().contains("truncated?)"),
                r.out());
        assertEquals(before, files(dir), "the .gz files it had written are gone again");
    }

    private static List<Path> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    // ------------------------------------------------------------------ options

    @Test
    void anEmptyOutIsRefusedNotTheWorkingDirectory() {
        assertOneLine(run("report", Fixtures.X1.toString(), "--out", ""), "--out '' is empty; name a folder");
        assertOneLine(run("compare", Fixtures.X1.toString(), Fixtures.X1.toString(), "--out", ""), "--out '' is empty");
        assertOneLine(run("whatif", Fixtures.NCCL_TESTS.toString(), "--out", ""), "--out '' is empty");
        assertOneLine(run("run", "--out", ""), "--out '' is empty");
        assertOneLine(run("run", "--out", work.toString(), "--report", "--charts", ""), "--charts '' is empty");
    }

    @Test
    void theSameFolderTwiceIsReadOnce() throws Exception {
        Path dotted = work.resolve("..").resolve(work.getFileName()).resolve("x1");
        Fixtures.copy(Fixtures.X1, work.resolve("x1"));
        CliTest.Result once = run("report", work.resolve("x1").toString(), "--out", work.resolve("once").toString());
        CliTest.Result twice = run("report", work.resolve("x1").toString(), dotted.toString(), work.resolve("x1").toString(),
                "--out", work.resolve("twice").toString());
        assertEquals(0, twice.code(), twice.err());
        assertTrue(twice.out().contains("Read once: " + dotted + " is the same folder as " + work.resolve("x1")),
                twice.out());
        assertTrue(twice.out().contains("Read once: " + work.resolve("x1") + " is given twice"), twice.out());
        assertEquals(0, once.code(), once.err());
        assertEquals(Files.readString(work.resolve("once/summary.md")), Files.readString(work.resolve("twice/summary.md")),
                "the report of one run");
    }

    @Test
    void anUnknownNcclTestsOperationIsRefusedListingTheAcceptedOnes() {
        assertOneLine(run("compare", Fixtures.X8.toString(), Fixtures.X8.toString(), "--nccl-tests-op", "NOPE",
                "--out", work.toString()), "--nccl-tests-op 'NOPE' is not a collective nccl-tests measures",
                "ALL_GATHER, ALL_REDUCE, ALL_TO_ALL, REDUCE_SCATTER");
        assertOneLine(run("whatif", Fixtures.NCCL_TESTS.toString(), "--nccl-tests-op", "NOPE", "--out", work.toString()),
                "--nccl-tests-op 'NOPE'");
        assertEquals(0, run("compare", Fixtures.NCCL_TESTS_TEXT.toString(), Fixtures.X8.toString(), "--nccl-tests-op",
                "all_reduce", "--nvbandwidth-size", "256M", "--out", work.resolve("c").toString()).code());
    }

    @Test
    void whatifRefusesAPresetAndAParameterCountTogether() {
        assertOneLine(run("whatif", Fixtures.NCCL_TESTS.toString(), "--model", "DENSE_8B", "--params", "70B",
                "--out", work.toString()), "--model DENSE_8B and --params 70B both give the model's size");
    }

    @Test
    void whatifOnADeviceOrAnEmptyFileSaysSo() throws Exception {
        assertOneLine(run("whatif", "/dev/null", "--out", work.toString()),
                "/dev/null is not a regular file (a device, pipe or socket); give a p2pbench result folder");
        Path empty = Files.createFile(work.resolve("empty.json"));
        assertOneLine(run("whatif", empty.toString(), "--out", work.toString()), empty + " is empty, not a result");
        assertOneLine(run("compare", empty.toString(), Fixtures.X8.toString(), "--out", work.toString()), "is empty");
    }

    @Test
    void chartsWithoutReportIsRefused() {
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--charts", work.toString()),
                "--charts " + work + " says where --report writes, and --report is not given");
    }

    /** A subcommand that runs out of heap, as reading a huge result folder on a small heap would. */
    @CommandLine.Command(name = "oom")
    static final class OutOfHeap implements Runnable {
        @Override
        public void run() {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    @Test
    void runningOutOfHeapIsOneLineSayingHowToGiveMore() {
        CommandLine cl = Main.commandLine().addSubcommand(new OutOfHeap());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        int code = Main.execute(cl, "oom");
        assertOneLine(new CliTest.Result(code, "", err.toString()), "out of memory (Java heap space)",
                "P2PBENCH_JAVA_OPTS=-Xmx8g");
    }

    /** The launcher in src/bundle (no runtime/ beside it, so it takes JAVA_HOME's java) with the given environment. */
    private static CliTest.Result launcher(String javaHome, String javaOpts) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "src/bundle/p2pbench", "--version");
        pb.environment().put("JAVA_HOME", javaHome);
        pb.environment().put("P2PBENCH_JAVA_OPTS", javaOpts);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new CliTest.Result(p.exitValue(), out, err);
    }

    @Test
    void theLauncherSaysInOneLineWhenTheJvmOptionsStopJavaFromStarting() throws Exception {
        String home = System.getProperty("java.home");
        assertOneLine(launcher(home, "-XX:+NoSuchOption"),
                "P2PBENCH_JAVA_OPTS='-XX:+NoSuchOption' stops Java from starting: Unrecognized VM option 'NoSuchOption'");
        assertOneLine(launcher(home, "-Xmx1z"), "stops Java from starting: Invalid maximum heap size: -Xmx1z");
        assertOneLine(launcher(work.resolve("no-java").toString(), ""), "p2pbench: no Java runtime",
                "JAVA_HOME=" + work.resolve("no-java"));
    }

    // ------------------------------------------------------------------ migrate

    @Test
    void migrateLeavesACurrentFormatFolderAloneItsLogsIncluded() throws Exception {
        Path dir = format2("current");
        // An ok entry that names a log (kept by hand, or by a run that kept it): the log is the run's.
        ObjectNode m = (ObjectNode) MAPPER.readTree(dir.resolve("manifest.json").toFile());
        ((ObjectNode) m.withArray("entries").get(0)).put("logFile", "logs/001-kept.log");
        MAPPER.writeValue(dir.resolve("manifest.json").toFile(), m);
        Path log = Files.writeString(Files.createDirectories(dir.resolve("logs")).resolve("001-kept.log"), "JMH said\n");
        List<Path> before = files(dir);
        CliTest.Result r = run("migrate", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(dir + ": already " + RunManifest.FORMAT + ", "), r.out());
        assertFalse(r.out().contains("leftover files removed"), r.out());
        assertTrue(Files.exists(log), "the log an entry names stays");
        assertEquals(before, files(dir));
    }

    @Test
    void migrateOverATreeNamesTheBrokenFolderAndMigratesTheRest() throws Exception {
        Path tree = work.resolve("tree");
        Path a = Fixtures.copy(Fixtures.X1, tree.resolve("a"));
        Path broken = Fixtures.copy(Fixtures.X1, tree.resolve("b"));
        Files.writeString(broken.resolve("manifest.json"), "{\"format\":");
        Path c = Fixtures.copy(Fixtures.X8, tree.resolve("c"));
        CliTest.Result r = run("migrate", tree.toString());
        assertOneLine(r, "1 of 3 result folder(s) could not be migrated", broken.toString());
        assertTrue(r.out().contains(broken + ": not migrated, left as it was: " + broken.resolve("manifest.json")
                + " is not a readable p2pbench manifest"), r.out());
        for (Path done : List.of(a, c)) {
            assertTrue(r.out().contains(done + ": " + RunManifest.FORMAT_1 + " -> " + RunManifest.FORMAT), r.out());
        }
        assertEquals("{\"format\":", Files.readString(broken.resolve("manifest.json")));
    }

    @Test
    void threeMigrationsAtOnceOnOneTreeAllSucceedWithTheSameFigures() throws Exception {
        Path tree = work.resolve("tree");
        List<Path> folders = new ArrayList<>();
        List<FolderFigures> before = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path dir = Fixtures.copy(Fixtures.X1, tree.resolve("run" + i));
            folders.add(dir);
            before.add(FolderFigures.of(dir));
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> migrations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            migrations.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "-Dp2pbench.migrateLockFile=" + work.resolve("migrate.lock"), Main.class.getName(), "migrate",
                    tree.toString()).redirectErrorStream(true).start());
        }
        for (Process p : migrations) {
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), said);
            assertEquals(0, p.exitValue(), said);
            assertTrue(said.contains("3 result folder(s)"), said);
        }
        for (int i = 0; i < folders.size(); i++) {
            // The figures; the exported JMH JSON is the same objects, re-serialised (MigrationTest).
            assertEquals(before.get(i).figures(), FolderFigures.of(folders.get(i)).figures());
            try (Stream<Path> left = Files.walk(folders.get(i))) {
                assertEquals(List.of(), left.filter(f -> f.getFileName().toString().endsWith(".tmp")
                        || f.getFileName().toString().endsWith("-results.json")).toList());
            }
        }
    }
}
