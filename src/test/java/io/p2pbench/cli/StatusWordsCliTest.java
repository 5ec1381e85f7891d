package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.Fixtures;
import io.p2pbench.results.ResultMigration;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: a result folder from elsewhere whose manifest holds a status or state the suite never writes is refused
 * with one line naming the file, the place and the words accepted (exit 2), not read as some other outcome (an
 * entry "succeeded" used to count among the failed, a run "finished" was reported as not complete).
 */
class StatusWordsCliTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void aStatusTheSuiteNeverWritesIsOneLine() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("status"));
        ResultMigration.migrate(dir);
        ObjectNode m = (ObjectNode) MAPPER.readTree(dir.resolve("manifest.json").toFile());
        ((ObjectNode) m.withArray("entries").get(2)).put("status", "succeeded");
        MAPPER.writeValue(dir.resolve("manifest.json").toFile(), m);
        assertOneLine(report(dir), dir.resolve("manifest.json") + ": entries[2].status 'succeeded' is not one this "
                + "suite writes; accepted: pending, ok, skipped, failed, timeout, interrupted");
        assertFalse(Files.exists(work.resolve("r-status/summary.md")));
    }

    @Test
    void aRunStateTheSuiteNeverWritesIsOneLine() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("state"));
        ResultMigration.migrate(dir);
        ObjectNode m = (ObjectNode) MAPPER.readTree(dir.resolve("manifest.json").toFile());
        m.put("state", "finished");
        MAPPER.writeValue(dir.resolve("manifest.json").toFile(), m);
        assertOneLine(report(dir), dir.resolve("manifest.json") + ": state 'finished' is not one this suite writes; "
                + "accepted: running, complete, interrupted");
        m.put("state", "complete");
        MAPPER.writeValue(dir.resolve("manifest.json").toFile(), m);
        assertEquals(0, report(dir).code(), "the words the suite writes read as before");
    }

    private CliTest.Result report(Path dir) {
        return run("report", dir.toString(), "--out", work.resolve("r-" + dir.getFileName()).toString());
    }
}
