package io.p2pbench.report.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Markdown pass that every page goes through as it is written: it follows the Markdown, not the writer's intent. */
class MarkdownSafetyTest {
    private static String safe(String md) {
        return MarkdownSafety.document(md);
    }

    @Test
    void tagsOutsideCodeAreShownAsTextAndComparisonsAreLeftAlone() {
        assertEquals("GPU H200&lt;script>x&lt;/script> | p99 <= 2s, a < b, 1<2", safe("GPU H200<script>x</script> | p99 <= 2s, a < b, 1<2"));
        assertEquals("&lt;!-- c --> &lt;?php &lt;https://x>", safe("<!-- c --> <?php <https://x>"));
    }

    @Test
    void codeSpansAndFencesAreShownAsWrittenUnlessTheTextClosesThem() {
        assertEquals("`<script>` and ``a ` <b>``", safe("`<script>` and ``a ` <b>``"));
        assertEquals("```text\n<script>\n```\n&lt;script>", safe("```text\n<script>\n```\n<script>"));
        // A name that closes the span it was put in lands outside code, and is escaped there.
        assertEquals("`x` &lt;script> ``", safe("`x` <script> ``"));
        // A backtick without its closer is a plain backtick: what follows is not code.
        assertEquals("`a``&lt;script>", safe("`a``<script>"));
    }

    @Test
    void controlCharactersBecomeQuestionMarksAndLinksToASchemeBecomeText() {
        assertEquals("a?[2Jb\tc\n", safe("a\u001b[2Jb\tc\n"));
        assertEquals("[x]\\(javascript:alert(1)) ![p]\\( https://t/p.png) ![c](chart.svg)",
                safe("[x](javascript:alert(1)) ![p]( https://t/p.png) ![c](chart.svg)"));
    }
}
