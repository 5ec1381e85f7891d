package io.p2pbench.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OneLineTest {
    @Test
    void controlCharactersAreShownAsQuestionMarksAndLongTextIsCut() {
        assertEquals("580?ok GPUs: forged", OneLine.printable("580\nok GPUs: forged"));
        assertEquals("H100 ?]0;owned??[2J", OneLine.printable("H100 \u001b]0;owned\u0007\u001b[2J"));
        assertEquals("", OneLine.printable(null));
        assertEquals("résumé", OneLine.printable("résumé"));
        assertEquals("abc...", OneLine.shown("abcdef", 3));
        assertEquals("a?c", OneLine.shown("a\tc", 3));
    }
}
