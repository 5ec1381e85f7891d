package io.p2pbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.spec.Combination;
import io.p2pbench.transfer.SkipCause;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest holding every outcome and a run state, with a placement, rounds and a skip cause, is written byte for
 * byte as the suite wrote it before outcomes were types ({@code manifest-every-outcome.json} was written then), and
 * reads back to the same manifest.
 */
class ManifestWordsTest {
    private static final Combination C = new Combination("a", "b", "partition", "bandwidth", Map.of(), "partition",
            "group", 4, false, null, 1.0);
    private static final Path EXPECTED = Path.of("src/test/resources/manifest-every-outcome.json");

    @Test
    void everyOutcomeIsWrittenInTheWordsManifestsAlwaysHeld(@TempDir Path dir) throws Exception {
        RankPlacement where = new RankPlacement("node07", 1, 1, 1, "GPU-x", "0000:1b:00.0");
        RunManifest.Entry ok = new RunManifest.Entry(C, Outcome.OK, null, "jmh/001-a.json.gz", "samples/a.json.gz",
                null, 1.5, "54.1 GB/s", 8L);
        RunManifest m = new RunManifest(RunManifest.FORMAT, "0.1.0", "abc1234", "p2pbench run", "quick", "m",
                "2026-12-02T14:27:49Z", "2026-12-02T14:28:00Z", RunStatus.INTERRUPTED, Map.of("warmup", 1), List.of(
                        RunManifest.Entry.planned(C),
                        ok,
                        new RunManifest.Entry(C, Outcome.OK, null, null, "samples/a.json.gz", null, 1.0, "h", 8L,
                                where),
                        RunManifest.Entry.skipped(C, SkipCause.DOES_NOT_FIT, "does not fit", null, 0.0),
                        new RunManifest.Entry(C, Outcome.FAILED, "data check failed", null, null,
                                "logs/005-a.log.gz", 2.0, null),
                        new RunManifest.Entry(C, Outcome.TIMEOUT, "killed", null, null, "logs/006-a.log.gz", 9.0, null),
                        new RunManifest.Entry(C, Outcome.INTERRUPTED, "the run was interrupted", null, null, null, null,
                                null),
                        new RunManifest.Entry(C, Outcome.OK, null, "jmh/008-a.r1.json.gz", null, null, 3.0, "h", 16L,
                                null, List.of(ok.asRound(), ok.asRound()))));
        ResultFolder f = ResultFolder.open(dir);
        f.writeManifest(m);
        String written = Files.readString(dir.resolve("manifest.json"), StandardCharsets.UTF_8);
        assertEquals(Files.readString(EXPECTED, StandardCharsets.UTF_8), written);
        assertEquals(m, f.readManifest());
        for (RunStatus s : RunStatus.values()) {
            f.writeManifest(new RunManifest(m.format(), m.suiteVersion(), m.suiteBuild(), m.command(), m.preset(),
                    m.fingerprint(), m.startedAt(), m.finishedAt(), s, m.settings(), m.entries()));
            assertEquals(written.replace("\"state\" : \"interrupted\"", "\"state\" : \"" + s.text() + "\""),
                    Files.readString(dir.resolve("manifest.json"), StandardCharsets.UTF_8));
            assertEquals(s, f.readManifest().runStatus());
        }
    }
}
