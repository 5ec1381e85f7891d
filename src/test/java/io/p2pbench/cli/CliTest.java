package io.p2pbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.p2pbench.cuda.Cuda;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CliTest {
    /** Output of one command line run in this JVM. */
    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    /** Runs the command line in a child JVM with one environment variable set. */
    static Result runWithEnv(String var, String value, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        Path errFile = Files.createTempFile("p2pbench-cli-", ".err");
        try {
            // stderr to a file: a child that fills the stderr pipe while we read stdout would never end.
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(errFile.toFile());
            pb.environment().put(var, value);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            // A JVM that must finish: generous, for a build machine whose cores are busy with other builds.
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the child JVM did not end");
            return new Result(p.exitValue(), out, Files.readString(errFile, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(errFile);
        }
    }

    static void assertOneLine(Result r, String... fragments) {
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), "expected one line, got:\n" + r.err());
        assertTrue(r.err().startsWith("p2pbench: "), r.err());
        for (String f : fragments) {
            assertTrue(r.err().contains(f), "missing '" + f + "' in: " + r.err());
        }
    }

    @Test
    void versionNamesTheSuiteVersionAndTheBuild() {
        Result r = run("--version");
        assertEquals(0, r.code(), r.err());
        String build = io.p2pbench.topology.SuiteBuild.CURRENT;
        assertEquals("p2pbench " + io.p2pbench.topology.TopologyProbe.SUITE_VERSION
                + (build.equals("no git") ? " (no git)" : " (build " + build + ")"), r.out().strip());
    }

    @Test
    void unknownSubcommandIsOneLineExitTwo() {
        assertOneLine(run("benchmark-all"), "unknown subcommand or argument 'benchmark-all'");
    }

    @Test
    void unknownOptionIsOneLineExitTwo() {
        assertOneLine(run("topology", "--colour"), "unknown option '--colour'", "topology");
    }

    @Test
    void noSubcommandIsOneLineExitTwo() {
        assertOneLine(run(), "a subcommand is required");
    }

    @Test
    void helpListsTheSubcommands() {
        Result r = run("--help");
        assertEquals(0, r.code());
        for (String sub : List.of("topology", "run", "report", "compare")) {
            assertTrue(r.out().contains(sub), r.out());
        }
    }

    @Test
    void topologyWithoutADriverIsOneLineExitTwo() {
        assumeFalse(Cuda.availability().available(), "a GPU is present: this test is for machines without one");
        assertOneLine(run("topology"), "CUDA is not available");
    }

    @Test
    void emptyCudaVisibleDevicesIsOneLineExitTwo() throws Exception {
        assertOneLine(runWithEnv("CUDA_VISIBLE_DEVICES", "", "topology"), "CUDA_VISIBLE_DEVICES is set but empty");
    }

    @Test
    void malformedCudaVisibleDevicesIsOneLineExitTwo() throws Exception {
        assertOneLine(runWithEnv("CUDA_VISIBLE_DEVICES", "0,first", "topology", "--json"), "'first'");
    }

    private static final String ONE_GPU = "src/test/resources/topologies/h200x1-single-r580.json";

    @Test
    void dryRunPlansFromATopologyFileWithoutAGpu() {
        Result r = run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "standard");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Plan for h200x1-single-r580 (1 GPU), preset standard:"), r.out());
        assertTrue(r.out().contains("in 4 rounds (135 of them in more rounds, up to 16), "), r.out());
        assertTrue(r.out().contains("JVMs (transfers and collectives share one per round)"), r.out());
        Result study = run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "quick", "--paths", "PARTITION",
                "--group", "0,0");
        assertEquals(0, study.code(), study.err());
        // Without transfers or collectives the run's own rounds say nothing: the study's rounds are its own, and its
        // measurement is in whole operations (five prefill steps outlast the 0.3 s iteration: 58 s, not 27 s).
        assertTrue(study.out().contains("\n  16 JVMs (one per curve; later rounds of the partition study one per NUMA "
                + "node); 14 partition decode steps and 7 requests in 3 rounds, 14 partition or serving benchmarks in "
                + "one; measurement iterations 58s of it"), study.out());
        // with two rounds the decode steps' and requests' three are theirs, not transfers' extra rounds
        Result two = run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "quick", "--paths", "PARTITION",
                "--group", "0,0", "--rounds", "2");
        assertEquals(0, two.code(), two.err());
        assertTrue(two.out().contains("\n  16 JVMs (one per curve; later rounds of the partition study one per NUMA "
                + "node); 14 partition decode steps and 7 requests in 3 rounds"), two.out());
        Result single = run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "quick", "--paths", "PARTITION",
                "--group", "0,0", "--plans", "SINGLE");
        assertEquals(0, single.code(), single.err());
        assertTrue(single.out().contains("; 2 partition decode steps and 1 request in 3 rounds, 2 partition or serving "
                + "benchmarks in one;"), single.out());
        Result one = run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "quick", "--paths", "PARTITION",
                "--group", "0,0", "--rounds", "1");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("\n  14 JVMs (one per curve); measurement iterations 36s"), one.out());
    }

    @Test
    void forkPerBenchmarkIsOptInAndExcludesTheExplicitDefault() {
        Result grouped = run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "standard", "--fork-groups");
        assertEquals(0, grouped.code(), grouped.err());
        assertTrue(grouped.out().contains("JVMs (one per curve and round)"), grouped.out());
        Result explicit = run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "standard", "--fork-per-benchmark");
        assertEquals(0, explicit.code(), explicit.err());
        assertTrue(explicit.out().contains("JVMs (one per benchmark and round)"), explicit.out());
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--fork-groups", "--fork-per-benchmark"),
                "--fork-groups and --fork-per-benchmark exclude each other");
    }

    @Test
    void badRunValuesThatNeedNoGpuAreNamedBeforeCudaIsAskedFor() {
        // Before: on a machine without a driver each said only "CUDA is not available: ...".
        assertOneLine(run("run", "--rounds", "17"), "--rounds 17 is not a number of rounds; use 1 to 16");
        assertOneLine(run("run", "--model", "FOO"), "unknown model preset 'FOO'");
        assertOneLine(run("run", "--plans", "TP"), "add --paths PARTITION or SERVING");
        assertOneLine(run("run", "--fork-groups", "--fork-per-benchmark"), "exclude each other");
    }

    @Test
    void optionsThatWouldDoNothingAreNamed(@org.junit.jupiter.api.io.TempDir Path work) {
        // Before: each was accepted with exit 0 and did nothing.
        String run = io.p2pbench.report.Fixtures.X1.toString();
        assertOneLine(run("report", run, "--nvbandwidth-size", "1G", "--out", work.resolve("r").toString()),
                "--nvbandwidth-size says how to read the --nvbandwidth file, and none is given");
        assertOneLine(run("compare", run, run, "--nccl-tests-op", "ALL_REDUCE"),
                "--nccl-tests-op ALL_REDUCE says how to read nccl-tests printed output, and every input here is a result "
                        + "folder");
        assertOneLine(run("compare", run, run, "--nvbandwidth-size", "1G"), "--nvbandwidth-size 1G says how to read");
        assertOneLine(run("whatif", io.p2pbench.report.Fixtures.X8.toString(), "--nccl-tests-op", "ALL_REDUCE"), "--nccl-tests-op");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--paths", "SERVING", "--sizes", "4K"),
                "--sizes sets the transfers' and collectives' sizes, and --paths SERVING has none");
        // Where a file is among the inputs, the options are read as before.
        Result nccl = run("compare", io.p2pbench.report.Fixtures.NCCL_TESTS_TEXT.toString(),
                io.p2pbench.report.Fixtures.NCCL_TESTS_TEXT.toString(),
                "--nccl-tests-op", "ALL_REDUCE", "--out", work.resolve("nccl").toString());
        assertEquals(0, nccl.code(), nccl.err());
    }

    @Test
    void runRejectsBadInputWithOneLine() {
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--pairs", "0-3"), "pair '0-3' names GPU 3");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--pairs", "0:1"), "pair '0:1' is malformed");
        // Before: "pair '9999-0' is malformed", though only its index is out of range.
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--pairs", "9999-0"), "pair '9999-0' names GPU 9999");
        // Before: "'1.5' is not an int" and nothing about what it takes.
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--rounds", "1.5"), "'1.5' is not an int",
                "--rounds takes: ", "1 to 16");
        // Before: "--threshold Infinity", not the value typed.
        assertOneLine(run("compare", "a", "b", "--threshold", "1e400"), "--threshold 1e400 is not a percentage");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "0"), "size '0' must be positive");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "-4K"), "'-4K'");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "1.5M"), "'1.5M' is not a size");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--sizes", "100G"), "size 100 GiB does not fit");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--preset", "fast"), "unknown preset 'fast'");
        assertOneLine(run("run", "--dry-run", "--topology", ONE_GPU, "--paths", "NVLINK"), "unknown path 'NVLINK'");
        assertOneLine(run("run", "--topology", ONE_GPU), "--topology plans for another machine and needs --dry-run");
        assertOneLine(run("run", "--dry-run", "--topology", "no-such-file.json"), "no-such-file.json is not a file");
    }

    @Test
    void runWithoutADriverStopsAtOnceWithOneLine(@org.junit.jupiter.api.io.TempDir Path work) throws IOException {
        assumeFalse(Cuda.availability().available(), "a GPU is present: this test is for machines without one");
        Path results = work.resolve("results");
        Result r = run("run", "--preset", "quick", "--out", results.toString());
        assertOneLine(r, "CUDA is not available");
        // "At once": before planning (no plan printed) and before any result folder.
        assertEquals("", r.out(), "nothing is planned without a driver");
        try (var left = Files.list(results)) {
            assertEquals(0, left.count(), "no result folder is written");
        }
    }
}
