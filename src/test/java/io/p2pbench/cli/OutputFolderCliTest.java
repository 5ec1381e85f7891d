package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.ReportFolder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The output side of issue 36: a report, a comparison or a whatif writes and deletes only inside its
 * folder, never through a symbolic link at any depth; without {@code --out} it never writes into a
 * checkout's committed {@code charts/}; names made from input text are bounded and unique; an empty path
 * is refused. Each test plants the user's own files where a wrong step would reach them and checks they stay.
 */
class OutputFolderCliTest {
    private static final String X1 = Fixtures.X1.toAbsolutePath().toString();
    private static final String FINGERPRINT = "h200x1-single-r580";

    @TempDir
    Path work;

    /** A folder of the user's, outside every output folder, with one file in it. */
    private Path victim() throws Exception {
        Path v = Files.createDirectories(work.resolve("victim"));
        Files.writeString(v.resolve("thesis.json"), "the user's own work\n");
        return v;
    }

    /** An earlier report's folder as a crafted checkout could hold it: its index names {@code jmh/thesis.json}. */
    private static Path craftedReportFolder(Path out, Path linkTarget) throws Exception {
        Files.createDirectories(out);
        Files.writeString(out.resolve(ReportFolder.INDEX), "summary.md\njmh/thesis.json\n");
        Files.createSymbolicLink(out.resolve("jmh"), linkTarget);
        return out;
    }

    /** SHA-256 of every file below {@code dir}, by relative path (links not followed): "untouched" is this staying equal. */
    static TreeMap<String, String> contents(Path dir) throws Exception {
        TreeMap<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> !p.equals(dir)).toList()) {
                out.put(dir.relativize(f).toString(), Files.isSymbolicLink(f) ? "-> " + Files.readSymbolicLink(f)
                        : Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS) ? "/" : HexFormat.of().formatHex(
                        MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))));
            }
        }
        return out;
    }

    @Test
    void aReportFolderWhoseJmhIsALinkIsRefusedAndNothingIsDeletedOrWrittenThere() throws Exception {
        Path victim = victim();
        Path out = craftedReportFolder(work.resolve("out"), Path.of("../victim"));
        var before = contents(victim);
        var folder = contents(out);
        assertOneLine(run("report", X1, "--out", out.toString()),
                out.resolve("jmh") + " is a symbolic link (to ../victim); a report writes and deletes only inside its "
                        + "folder, never through a link");
        assertEquals(before, contents(victim), "the victim's file is not deleted and no JMH export lands there");
        assertEquals(folder, contents(out), "nothing written into the folder either");
        // compare --out deleted the same way (its index's names are removed when not written again).
        assertOneLine(run("compare", X1, X1, "--out", out.toString()), "is a symbolic link (to ../victim)");
        assertEquals(before, contents(victim));
    }

    @Test
    void aLinkDeeperInTheFolderIsRefusedToo() throws Exception {
        Path victim = victim();
        Path out = work.resolve("out");
        assertEquals(0, run("report", X1, "--out", out.toString()).code());
        Path compare = craftedReportFolder(out.resolve("compare"), Path.of("../../victim"));
        var before = contents(victim);
        assertOneLine(run("compare", X1, X1, "--out", compare.toString()), compare.resolve("jmh")
                + " is a symbolic link (to ../../victim)");
        assertOneLine(run("report", X1, "--out", out.toString()), out.resolve("compare/jmh") + " is a symbolic link");
        assertEquals(before, contents(victim));
    }

    @Test
    void aFolderTheUserNamesThroughALinkIsWrittenWhereTheLinkLeads() throws Exception {
        // --out is the user's choice, links included; only links inside the folder are refused.
        Path real = Files.createDirectories(work.resolve("disk/reports"));
        Path link = Files.createSymbolicLink(work.resolve("out"), real);
        CliTest.Result r = run("report", X1, "--out", link.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.isRegularFile(real.resolve("summary.md")));
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
    }

    @Test
    void withoutOutTheReportGoesToReportsNeverToTheCommittedCharts() throws Exception {
        // A checkout whose charts/<fingerprint>/ holds the committed example report of that machine.
        Path checkout = Files.createDirectories(work.resolve("checkout"));
        Path charts = checkout.resolve("charts").resolve(FINGERPRINT);
        assertEquals(0, run("report", Fixtures.X8.toString(), "--out", charts.toString()).code());
        var committed = contents(charts);
        CliTest.Result r = ChildCli.run(checkout, Map.of(), "report", X1);
        assertEquals(0, r.code(), r.err());
        assertEquals(committed, contents(charts), "a default never changes the committed charts");
        assertTrue(r.out().contains("Report: reports/" + FINGERPRINT + "/summary.md (the default folder; --out DIR "
                + "writes elsewhere)"), r.out());
        assertTrue(Files.isRegularFile(checkout.resolve("reports").resolve(FINGERPRINT).resolve("summary.md")));
    }

    @Test
    void theDefaultFolderIsNeverReachedOrEnteredThroughALink() throws Exception {
        // What a git checkout can carry: reports/<fingerprint>/jmh -> ../../../victim, or reports -> elsewhere.
        Path checkout = Files.createDirectories(work.resolve("checkout"));
        Path victim = victim();
        Path dir = checkout.resolve("reports").resolve(FINGERPRINT);
        craftedReportFolder(dir, Path.of("../../../victim"));
        craftedReportFolder(checkout.resolve("charts").resolve(FINGERPRINT), Path.of("../../../victim"));
        var before = contents(victim);
        assertOneLine(ChildCli.run(checkout, Map.of(), "report", X1), "reports/" + FINGERPRINT + "/jmh is a symbolic "
                + "link (to ../../../victim)");
        craftedReportFolder(dir.resolve("compare"), Path.of("../../../../victim"));
        assertOneLine(ChildCli.run(checkout, Map.of(), "compare", X1, X1), "reports/" + FINGERPRINT + "/compare/jmh is "
                + "a symbolic link (to ../../../../victim)");
        assertEquals(before, contents(victim));

        Files.move(checkout.resolve("reports"), checkout.resolve("elsewhere"));
        Files.createSymbolicLink(checkout.resolve("reports"), Path.of("elsewhere"));
        Files.delete(checkout.resolve("elsewhere").resolve(FINGERPRINT).resolve("jmh"));
        var elsewhere = contents(checkout.resolve("elsewhere"));
        assertOneLine(ChildCli.run(checkout, Map.of(), "report", X1), "reports is a symbolic link; the default report "
                + "folder reports/" + FINGERPRINT + " is never reached through a link");
        assertEquals(elsewhere, contents(checkout.resolve("elsewhere")));
    }

    @Test
    void whatifNeverReplacesAUsersOwnWhatifMd() throws Exception {
        Path out = Files.createDirectories(work.resolve("notes"));
        Files.writeString(out.resolve("whatif.md"), "my own what-if notes\n");
        assertOneLine(run("whatif", Fixtures.NCCL_TESTS.toString(), "--out", out.toString()),
                out + " is not empty and no p2pbench report was written there (it holds whatif.md)");
        assertEquals("my own what-if notes\n", Files.readString(out.resolve("whatif.md")));
        // Its own earlier output is replaced, as a report's is.
        Path own = work.resolve("whatif");
        assertEquals(0, run("whatif", Fixtures.NCCL_TESTS.toString(), "--out", own.toString()).code());
        CliTest.Result again = run("whatif", Fixtures.NCCL_TESTS.toString(), "--gpus", "8", "--out", own.toString());
        assertEquals(0, again.code(), again.err());
        assertTrue(Files.isRegularFile(own.resolve(ReportFolder.INDEX)));
    }

    /** nccl-tests' printed output of a 16-rank job over two hosts with long names, one line per rank. */
    private Path sixteenRanksOnTwoHosts() throws Exception {
        StringBuilder t = new StringBuilder("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 268435456 step: 4(factor) "
                + "warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int rank = 0; rank < 16; rank++) {
            t.append(String.format("#  Rank %2d Group  0 Pid %6d on gpu-node-%s.rack-07.cluster.example.org device %2d "
                    + "[0000:%02x:00] NVIDIA H200%n", rank, 4000 + rank, rank < 8 ? "a" : "b", rank % 8, 0x18 + rank % 8));
        }
        List<String> lines = Files.readAllLines(Fixtures.NCCL_TESTS_TEXT);
        lines.stream().dropWhile(l -> !l.startsWith("#                   ")).forEach(l -> t.append(l).append('\n'));
        return Files.writeString(work.resolve("all_reduce_16ranks.txt"), t.toString());
    }

    @Test
    void namesFromEveryHostNameOfASixteenRankJobAreBounded() throws Exception {
        Path nccl = sixteenRanksOnTwoHosts();
        Path out = work.resolve("compare");
        CliTest.Result r = run("compare", nccl.toString(), nccl.toString(), "--nccl-tests-op", "ALL_REDUCE",
                "--out", out.toString());
        assertEquals(0, r.code(), r.err()); // was: cannot write the comparison to ...: File name too long
        try (Stream<Path> files = Files.list(out)) {
            List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertTrue(names.stream().anyMatch(n -> n.startsWith("compare-") && n.endsWith(".svg")), names.toString());
            assertTrue(names.stream().allMatch(n -> n.getBytes(StandardCharsets.UTF_8).length <= 200), names.toString());
        }
    }

    @Test
    void twoRunsWhoseNamesMeetKeepAJmhExportEach() throws Exception {
        // Two copies of one run in folders of the same name: the same label, once one export overwrote the other.
        Path a = Fixtures.copy(Fixtures.X1, work.resolve("a/run"));
        Path b = Fixtures.copy(Fixtures.X1, work.resolve("b/run"));
        Path out = work.resolve("out");
        CliTest.Result r = run("report", a.toString(), b.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        try (Stream<Path> files = Files.list(out.resolve("jmh"))) {
            assertEquals(2, files.count(), "one JMH export per run");
        }
    }

    @Test
    void anEmptyPathIsRefusedNeverTakenForTheWorkingDirectory() throws Exception {
        // migrate "" (what an unset variable gives) converted every result folder below the working directory.
        Path cwd = Files.createDirectories(work.resolve("cwd"));
        Path run = Fixtures.copy(Fixtures.X1, cwd.resolve("results/run"));
        var before = contents(run);
        assertOneLine(ChildCli.run(cwd, Map.of(), "migrate", ""), "PATH '' is empty; name a folder or file");
        assertEquals(before, contents(run), "nothing converted");
        assertOneLine(run("report", ""), "RESULT_DIR '' is empty; name a folder or file");
        assertOneLine(run("whatif", ""), "SOURCE '' is empty");
        assertOneLine(run("doctor", "--machine", ""), "--machine '' is empty; name a folder or file (--machine . is the "
                + "working directory)");
        assertOneLine(run("report", X1, "--out", ""), "--out '' is empty; name a folder");
        // Before: "(--topology . is the working directory)", and --topology . is refused as a folder.
        CliTest.Result topology = run("run", "--dry-run", "--topology", "");
        assertOneLine(topology, "--topology '' is empty; name a file");
        assertFalse(topology.err().contains("working directory"), topology.err());
        assertOneLine(run("doctor", "--lspci", ""), "--lspci '' is empty; name a file");
    }
}
