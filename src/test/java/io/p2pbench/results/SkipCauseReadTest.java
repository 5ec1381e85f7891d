package io.p2pbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.Combination;
import io.p2pbench.transfer.SkipCause;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A skipped entry's cause: written beside its reason, kept as written whatever the reason says, and given from the
 * reason's words only to skips recorded without one (the committed runs), whose manifests read as written.
 */
class SkipCauseReadTest {
    private static final Combination C = new Combination("a", "b", "partition", "bandwidth", Map.of(), "partition",
            "group", 4, false, null, 1.0);

    @Test
    void committedRunsReadTheCausesTheirReasonsMeant() throws Exception {
        List<Path> manifests;
        try (Stream<Path> s = Files.walk(Path.of("results"))) {
            manifests = s.filter(f -> f.getFileName().toString().equals("manifest.json")).sorted().toList();
        }
        Map<SkipCause, Integer> causes = new TreeMap<>();
        for (Path m : manifests) {
            assertFalse(Files.readString(m).contains("\"skipCause\""), m + " was written before causes were recorded");
            for (RunManifest.Entry e : ResultFolder.open(m.getParent()).readManifest().entries()) {
                assertNull(e.skipCause(), "the manifest reads as written: " + m);
                if ("skipped".equals(e.status())) {
                    causes.merge(e.cause(), 1, Integer::sum);
                } else {
                    assertNull(e.cause(), m + ": " + e.combination().id());
                }
            }
        }
        // Same GPU for a write or no-P2P variant; plan EP on a dense model; a host of one NUMA node.
        assertEquals(Map.of(SkipCause.NOT_APPLICABLE, 225, SkipCause.DOES_NOT_DIVIDE, 18, SkipCause.NUMA, 8), causes);
    }

    @Test
    void aRecordedCauseIsReadAsWrittenAndAnOldSkipByItsReason(@TempDir Path dir) throws Exception {
        RunManifest m = new RunManifest(RunManifest.FORMAT, "0.1.0", "abc1234", "p2pbench run", "quick", "m", "2026-12-02T14:27:49Z",
                "t1", "complete", Map.of(), List.of(
                        RunManifest.Entry.skipped(C, SkipCause.DOES_NOT_FIT, "needs 150.0 GiB, the GPU has 80.0 GiB",
                                null, 0.0),
                        RunManifest.Entry.skipped(C, SkipCause.NO_PEER_ACCESS, "does not fit the words", null, 0.0),
                        new RunManifest.Entry(C, "skipped", "does not fit: DENSE_70B SINGLE over 1 GPU", null, null,
                                null, 0.0, null),
                        new RunManifest.Entry(C, "skipped", "round 2 of 3: no peer access between GPU0 and GPU1", null,
                                null, null, 0.0, null),
                        new RunManifest.Entry(C, "skipped", "anything else", null, null, null, 0.0, null),
                        new RunManifest.Entry(C, "failed", "does not fit", null, null, null, 0.0, null)));
        ResultFolder f = ResultFolder.open(dir);
        f.writeManifest(m);
        String json = Files.readString(dir.resolve("manifest.json"));
        assertEquals(2, json.split("\"skipCause\"", -1).length - 1, "only entries given a cause name one:\n" + json);
        List<RunManifest.Entry> back = f.readManifest().entries();
        assertEquals(SkipCause.DOES_NOT_FIT, back.get(0).cause());
        assertEquals(SkipCause.NO_PEER_ACCESS, back.get(1).cause(), "the cause, not the reason's words");
        assertEquals(SkipCause.DOES_NOT_FIT, back.get(2).cause());
        assertEquals(SkipCause.NO_PEER_ACCESS, back.get(3).cause());
        assertEquals(SkipCause.OTHER, back.get(4).cause());
        assertNull(back.get(5).cause(), "only skips have a cause");
        assertTrue(back.stream().map(RunManifest.Entry::reason).toList().contains("anything else"));
    }

    @Test
    void aPlannedSkipCarriesThePlannersCause() {
        Combination skipped = new Combination("a", "b", "partition", "bandwidth", Map.of(), "partition", "group", 4,
                false, "needs 150.0 GiB", 1.0, SkipCause.DOES_NOT_FIT);
        assertEquals(SkipCause.DOES_NOT_FIT, RunManifest.Entry.planned(skipped).skipCause());
        assertNull(RunManifest.Entry.planned(C).skipCause());
        assertNull(RunManifest.Entry.planned(C).cause(), "pending, not skipped");
    }
}
