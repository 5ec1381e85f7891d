package io.p2pbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.Combination;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manifest entry names host, rank and GPU in a job of several processes, and nothing more in a one-process run. */
class RankPlacementTest {
    @Test
    void placementIsWrittenOnlyWhereThereIsOneAndReadBack(@TempDir Path dir) throws Exception {
        Combination c = new Combination("a", "b", "ipc", "bandwidth", Map.of(), "multiprocess", "X", 4, true, null, 1.0);
        RankPlacement where = new RankPlacement("node07", 5, 1, 1, "GPU-5", "0000:28:00.0");
        RunManifest m = new RunManifest(RunManifest.FORMAT, "0.1.0", "abc1234", "p2pbench run", "quick", "m", "2026-01-01T00:00:00Z",
                "t1", "complete", Map.of(), List.of(
                        new RunManifest.Entry(c, "ok", null, null, "samples/a.json.gz", null, 1.0, "h", 8L),
                        new RunManifest.Entry(c, "ok", null, null, "samples/a.json.gz", null, 1.0, "h", 8L, where)));
        ResultFolder f = ResultFolder.open(dir);
        f.writeManifest(m);
        String json = Files.readString(dir.resolve("manifest.json"));
        assertEquals(1, json.split("\"placement\"", -1).length - 1, "only the entry with a placement names one:\n" + json);
        assertFalse(json.contains("\"placement\" : null"));
        RunManifest back = f.readManifest();
        assertNull(back.entries().get(0).placement());
        assertEquals(where, back.entries().get(1).placement());
        assertEquals("rank 5 (node07, GPU 1)", where.describe());
        assertTrue(json.contains("\"host\" : \"node07\""));
    }
}
