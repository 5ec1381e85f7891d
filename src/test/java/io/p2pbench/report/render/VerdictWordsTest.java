package io.p2pbench.report.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.report.verdict.Verdict;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each verdict prints as the word the report and {@code compare} have always printed, one word per verdict. */
class VerdictWordsTest {
    @Test
    void everyVerdictHasItsOwnWord() {
        assertEquals(List.of("worse", "better", "same", "cannot judge", "keep", "reject", "not measured", "no verdict"),
                Arrays.stream(Verdict.values()).map(VerdictWords::word).toList());
    }
}
