package io.p2pbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.tools.ScaleResults;
import java.nio.file.Files;
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
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("SAME: h200x1-single-r580/2026-12-02T16-52-40Z vs baseline "
                + "h200x1-single-r580/2026-12-02T16-50-50Z: 0 worse, 0 better, 5 same, 64 cannot be judged here (53: noise "
                + "floor wider than ±5%; 6: enqueued ungated by an older build; 5: no ratio) of 69 measurements"),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("  not gated at ±5% (floor wider): "), lines.get(1));
        assertTrue(lines.get(2).startsWith("Full table: " + work.resolve("aa").resolve("compare.md")), lines.get(2));
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
                "  worse  host GPU0 PINNED LOCAL H2D 1 MiB p50: ", " \u00b5s (+");
    }

    /**
     * Another machine (another fingerprint, here a copy of run B relabelled as an H100 with every bandwidth figure
     * x0.71) is shown side by side: a line saying which machine is which, every measurement with both figures and
     * its ratio, no verdict, exit 0. Beside a worse candidate of the same machine, the exit code is that one's.
     */
    @Test
    void anotherMachineIsShownSideBySideAsRatiosWithoutVerdicts() throws Exception {
        Path h100 = work.resolve("h100");
        ScaleResults.scaledCopy(B, h100, ScaleResults.metric("bandwidth"), 0.71);
        relabel(h100, "h100x1-single-r580", "NVIDIA H100 80GB HBM3");
        Path out = work.resolve("across");
        CliTest.Result r = CliTest.run("compare", B.toString(), h100.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("ACROSS MACHINES: h100x1-single-r580/h100 (1x NVIDIA H100 80GB HBM3) vs "
                + "baseline h200x1-single-r580/2026-12-02T16-52-40Z (1x NVIDIA H200): 69 measurements "
                + "side by side as ratios candidate / baseline; no worse/better verdicts (noise floors are per machine)",
                lines.get(0));
        assertEquals(71, lines.size(), r.out());
        String peer256 = lines.stream().filter(l -> l.startsWith("  peer 0→0 CE_P2P_READ one-way 256 MiB: "))
                .findFirst().orElseThrow(() -> new AssertionError(r.out()));
        assertTrue(peer256.matches("  peer 0→0 CE_P2P_READ one-way 256 MiB: [0-9.]+ GB/s -> [0-9.]+ GB/s: 0\\.71x"), peer256);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("  peer 0→0 CE_P2P_READ one-way 4 KiB p50: ")
                && l.contains(" µs -> ") && l.endsWith(": 1.00x")), r.out());
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("WORSE") || l.startsWith("  worse")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("  nccl 0 ALL_GATHER FLOAT32 alg 64 MiB: ")
                && l.endsWith(": 0.71x")), "a one-rank collective's line is its alg figure (its bus figure is 0)");
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.contains(": two machines, side by side") && md.contains("- Machines: baseline h200x1-single-r580 "
                + "(1x NVIDIA H200), candidate h100x1-single-r580 (1x NVIDIA H100 80GB HBM3)"), md);
        assertTrue(md.contains("| baseline h200x1-single-r580 | candidate h100x1-single-r580 | ratio | change |"), md);
        assertTrue(!md.contains("**worse**") && md.contains("| 0.71x | -29.0% |"), md);
        assertTrue(md.contains("- Builds: baseline p2pbench 0.1.0 (c3ec0a0), candidate p2pbench 0.1.0 (c3ec0a0).\n"), md);
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("Builds differ")), r.out());
        String ring = lines.stream().filter(l -> l.startsWith("  allreduce-ring 0,0,0,0 ALL_REDUCE FLOAT32 ring over P2P "))
                .findFirst().orElseThrow(() -> new AssertionError(r.out()));
        assertTrue(ring.endsWith(": 0.71x (not like for like: both sides enqueued ungated by an older build, the host's "
                + "enqueue rate)"), "this build's ring was host-paced, and a ratio of it says nothing of the machines: " + ring);

        // Another build on the other machine: said before the figures, since a ratio then holds the builds' changes.
        setBuild(h100, "0123abc");
        CliTest.Result other = CliTest.run("compare", B.toString(), h100.toString(), "--out",
                work.resolve("across-build").toString());
        assertEquals(0, other.code(), other.out() + other.err());
        assertEquals("Builds differ: baseline p2pbench 0.1.0 (c3ec0a0), candidate p2pbench 0.1.0 (0123abc): a ratio holds "
                + "what changed between the builds as well as between the machines", other.out().lines().toList().get(1));
        assertTrue(Files.readString(work.resolve("across-build").resolve("compare.md")).contains("- Builds: baseline "
                + "p2pbench 0.1.0 (c3ec0a0), candidate p2pbench 0.1.0 (0123abc): they differ, so a ratio holds"), other.out());

        Path lower = work.resolve("lower");
        ScaleResults.scaledCopy(B, lower, ScaleResults.entry("host-bw-H2D-PINNED-LOCAL-gpu0-64MiB"), 0.8);
        CliTest.Result both = CliTest.run("compare", B.toString(), h100.toString(), lower.toString(), "--out",
                work.resolve("both").toString());
        assertEquals(1, both.code(), "worse on the same machine decides: " + both.out() + both.err());
        assertTrue(both.out().contains("\nWORSE: h200x1-single-r580/lower vs baseline"), both.out());
    }

    /** Gives a copied run another machine: the manifest's fingerprint and the topology's GPU names. */
    private static void relabel(Path run, String fingerprint, String gpuName) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode manifest = (ObjectNode) mapper.readTree(run.resolve("manifest.json").toFile());
        manifest.put("fingerprint", fingerprint);
        mapper.writeValue(run.resolve("manifest.json").toFile(), manifest);
        ObjectNode topology = (ObjectNode) mapper.readTree(run.resolve("topology.json").toFile());
        topology.put("fingerprint", fingerprint);
        topology.path("gpus").forEach(g -> ((ObjectNode) g).put("name", gpuName));
        mapper.writeValue(run.resolve("topology.json").toFile(), topology);
    }

    /** Gives a copied run another suite build in its manifest. */
    private static void setBuild(Path run, String build) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode manifest = (ObjectNode) mapper.readTree(run.resolve("manifest.json").toFile());
        manifest.put("suiteBuild", build);
        mapper.writeValue(run.resolve("manifest.json").toFile(), manifest);
    }

    private static void assertOnlyWorse(CliTest.Result r, String rowStart, String fragment) {
        assertEquals(1, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("WORSE: ") && lines.get(0).contains(": 1 worse, 0 better, 5 same, 63 cannot be "
                + "judged here (52: noise floor wider than ±5%; 6: enqueued ungated by an older build; 5: no ratio) of 69 "
                + "measurements"), lines.get(0));
        assertEquals(4, lines.size(), r.out());
        assertTrue(lines.get(1).startsWith(rowStart) && lines.get(1).contains(fragment), lines.get(1));
        assertTrue(lines.get(2).startsWith("  not gated at ±5% (floor wider): "), "what exit 0 would not vouch for, "
                + "after the rows named: " + lines.get(2));
        assertTrue(lines.get(3).startsWith("Full table: "), lines.get(3));
    }
}
