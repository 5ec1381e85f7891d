package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Whether a row was judged by its rounds is carried by its floor as a fact, not read back from the floor's words. */
class RoundFloorTest {
    @Test
    void aTableFloorWhoseNameStartsLikeARoundsFloorIsNotOne() {
        NoiseFloors.Floor table = new NoiseFloors.Floor(0.03, RoundRows.SOURCE + "a table someone named so");
        assertFalse(RoundRows.judgedByRounds(table));
    }

    @Test
    void aRoundsFloorIsOne() {
        assertTrue(RoundRows.judgedByRounds(new NoiseFloors.Floor(0.03, "anything", true)));
    }
}
