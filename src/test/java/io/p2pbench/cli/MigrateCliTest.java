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

class MigrateCliTest {
    @TempDir
    Path work;

    @Test
    void migratesEveryFolderBelowAPathAndSaysSoTwice() throws Exception {
        Path root = work.resolve("results");
        Fixtures.copy(Fixtures.X1, root.resolve("h200x1/run-a"));
        Fixtures.copy(Fixtures.X8, root.resolve("h200x8/run-b"));
        CliTest.Result first = run("migrate", root.toString());
        assertEquals(0, first.code(), first.err());
        assertTrue(first.out().contains("run-a: p2pbench-results/1 -> p2pbench-results/2, "), first.out());
        assertTrue(first.out().contains("run-b: p2pbench-results/1 -> p2pbench-results/2, "), first.out());
        assertTrue(first.out().contains("2 result folder(s), "), first.out());
        assertTrue(Files.exists(root.resolve("h200x8/run-b/jmh/001-peer-bw-CE_P2P_READ-0-0-4KiB.json.gz")));
        CliTest.Result second = run("migrate", root.toString());
        assertEquals(0, second.code(), second.err());
        assertTrue(second.out().contains("run-a: already p2pbench-results/2, "), second.out());
        CliTest.Result report = run("report", root.resolve("h200x8/run-b").toString(), "--out",
                work.resolve("r").toString());
        assertEquals(0, report.code(), report.err());
    }

    @Test
    void badPathsAreOneLine() throws Exception {
        assertOneLine(run("migrate", work.resolve("nope").toString()), "nope does not exist; give a result folder");
        assertOneLine(run("migrate", work.toString()), "holds no p2pbench result folder");
        Path bad = Fixtures.copy(Fixtures.X1, work.resolve("bad"));
        Files.writeString(bad.resolve("jmh-results.json"), "[]\n");
        CliTest.Result r = run("migrate", bad.toString());
        assertOneLine(r, "1 of 1 result folder(s) could not be migrated", bad.toString());
        assertTrue(r.out().contains(bad + ": not migrated, left as it was: " + bad.resolve("jmh-results.json")
                + " holds JMH results that the ok entries' jmh/ files do not"), r.out());
    }
}
