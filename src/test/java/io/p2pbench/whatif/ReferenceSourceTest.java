package io.p2pbench.whatif;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether a source is a public reference is a fact of where it was read, not of the words in its origin. */
class ReferenceSourceTest {
    @Test
    void aMeasuredSourceWhoseOriginQuotesTheReferenceLabelIsStillMeasured() {
        Source measured = new Source("run", "results/x (" + Source.REFERENCE_LABEL + ")", List.of(),
                Source.Hardware.UNKNOWN);
        assertFalse(measured.isReference(), "a folder's name or a label cannot make a run a public reference");
    }

    @Test
    void everyCommittedReferenceMachineIsAReference() {
        assertTrue(Source.references().values().stream().allMatch(Source::isReference));
    }
}
