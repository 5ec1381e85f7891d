package io.p2pbench.results;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.Combination;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the executor stores what a fork left: JMH's JSON gzipped unchanged, logs only when not ok. */
class ResultFolderStoreTest {
    @TempDir
    Path dir;

    private static final String JMH = "[\n    {\n        \"benchmark\" : \"b\",\n        \"primaryMetric\" : { \"score\" : 1.5 }\n    }\n]\n";

    @Test
    void jmhJsonIsStoredByteForByteAndExportedAsOneArray() throws Exception {
        ResultFolder f = ResultFolder.open(dir);
        Path partial = dir.resolve("jmh/.001-a.json.partial");
        Files.createDirectories(partial.getParent());
        Files.writeString(partial, JMH);
        assertEquals("jmh/001-a.json.gz", f.storeJmh(partial, "001-a"));
        assertFalse(Files.exists(partial));
        assertArrayEquals(JMH.getBytes(StandardCharsets.UTF_8), AtomicFiles.read(dir.resolve("jmh/001-a.json.gz")));
        assertTrue(Files.size(dir.resolve("jmh/001-a.json.gz")) < JMH.length());

        Combination c = new Combination("a", "b", "peer", "bandwidth", Map.of(), "sweep", "X", 4, true, null, 1.0);
        RunManifest m = new RunManifest(RunManifest.FORMAT, "0.1.0", null, "p2pbench run", "quick", "m", "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z",
                "complete", Map.of(), List.of(
                        new RunManifest.Entry(c, "ok", null, "jmh/001-a.json.gz", null, null, 1.0, "h", 8L),
                        new RunManifest.Entry(c, "ok", null, "jmh/001-a.json.gz", null, null, 1.0, "h", 8L),
                        new RunManifest.Entry(c, "failed", "x", null, null, "logs/003-a.log.gz", 1.0, null)));
        f.writeManifest(m);
        String merged = new String(f.jmhResultsJson().orElseThrow(), StandardCharsets.UTF_8);
        assertEquals(2, ResultFolder.mapper().readTree(merged).size(), merged);
        assertEquals("b", ResultFolder.mapper().readTree(merged).get(1).path("benchmark").asText());
    }

    @Test
    void logsAreKeptGzippedOnlyWhenAsked() throws Exception {
        ResultFolder f = ResultFolder.open(dir);
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/001-a.log"), "# Run progress\n");
        Files.writeString(dir.resolve("logs/002-b.log"), "java.lang.IllegalStateException: boom\n");
        assertNull(f.storeLog("logs/001-a.log", false));
        assertFalse(Files.exists(dir.resolve("logs/001-a.log")));
        assertEquals("logs/002-b.log.gz", f.storeLog("logs/002-b.log", true));
        assertEquals("java.lang.IllegalStateException: boom\n",
                new String(AtomicFiles.read(dir.resolve("logs/002-b.log.gz")), StandardCharsets.UTF_8));
        assertNull(f.storeLog("logs/009-none.log", true), "no log, nothing named");
    }
}
