package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A gated figure within a noise floor wider than the threshold is counted apart by what its judgement found, never by
 * the words of its reason: a reason that reads alike (another cause of "cannot judge") is not counted.
 */
class WiderFloorTest {
    @Test
    void onlyAFigureJudgedWithinAWiderFloorCountsAsOne() {
        // Figures 3% apart, a stated floor of 10%, a threshold of 5%: within a floor wider than the threshold.
        GatedFigures.Row wider = GatedFigures.row("tokens/s", true, List.of(100.0, 100.0), List.of(103.0, 103.0), 0.10,
                "stated", 5, null);
        assertEquals(Verdict.UNJUDGED, wider.verdict());
        assertTrue(wider.why().startsWith("cannot judge at ±5%: within the noise floor 10.0%"), wider.why());
        // Another reason for no verdict, worded like the first.
        GatedFigures.Row alike = GatedFigures.with(wider, Verdict.UNJUDGED,
                "cannot judge at ±5%: no knee in some run");
        GatedFigures.Result r = new GatedFigures.Result(List.of(GatedFigures.group("partition", "one", List.of(wider)),
                GatedFigures.group("serving", "two", List.of(alike))), 0, 0, "Same machine (m).");
        assertEquals(2, r.count(Verdict.UNJUDGED));
        assertEquals(1, r.widerFloors());
    }
}
