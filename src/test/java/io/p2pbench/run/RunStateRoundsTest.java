package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.p2pbench.results.RunManifest;
import io.p2pbench.spec.Combination;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A combination measured in rounds keeps every round in its entry, and is ok only while every round is. */
class RunStateRoundsTest {
    private static final Combination C = ExecutorFaultHarness.twoCombinations().get(0);

    private static RunManifest.Entry ok(String jmh, long verified) {
        return new RunManifest.Entry(C, "ok", null, jmh, "samples/x" + jmh + ".json.gz", null, 1.0, "h " + jmh,
                verified);
    }

    @Test
    void okRoundsAddUpAndTheFirstRoundsFilesStandForTheEntry() {
        RunManifest.Entry e = RunState.joined(RunManifest.Entry.planned(C), ok("a", 10), 0, 3);
        e = RunState.joined(e, ok("b", 20), 1, 3);
        e = RunState.joined(e, ok("c", 30), 2, 3);
        assertEquals("ok", e.status());
        assertEquals(3, e.rounds().size());
        assertEquals("a", e.jmhFile());
        assertEquals(60L, e.bytesVerified());
        assertEquals(3.0, e.seconds(), 1e-9);
        assertEquals(List.of("a", "b", "c"), e.rounds().stream().map(RunManifest.RoundResult::jmhFile).toList());
    }

    @Test
    void aFailedRoundFailsTheEntryAndNamesTheRound() {
        RunManifest.Entry e = RunState.joined(RunManifest.Entry.planned(C), ok("a", 10), 0, 4);
        RunManifest.Entry failed = new RunManifest.Entry(C, "failed", "data check failed at 0x10", null, null,
                "logs/001.r2.log.gz", 1.0, null);
        e = RunState.joined(e, failed, 1, 4);
        assertEquals("failed", e.status());
        assertEquals("round 2 of 4: data check failed at 0x10", e.reason());
        assertNull(e.jmhFile(), "no figure without every round verified");
        assertNull(e.bytesVerified());
        assertEquals(2, e.rounds().size());
    }
}
