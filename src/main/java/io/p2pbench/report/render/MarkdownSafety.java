package io.p2pbench.report.render;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown document made safe to open, in one place: the summary, the statistics, the comparison and
 * whatif's page pass through {@link #document} as they are written. Names read from result folders and
 * imports (a GPU name, a host name, a run's command) are put into those pages as they are, and a
 * Markdown viewer renders raw HTML: a {@code <script>} tag in a GPU name reached summary.md and
 * compare.md. The pass follows the Markdown itself, not where a value was meant to go, so text that
 * closes a code span or a fence is judged where it really lands:
 * <ul>
 * <li>control characters other than tab become {@code ?} (terminal escapes, and characters that make the
 *     page binary to tools);</li>
 * <li>outside code spans and fenced code, a {@code <} that could open an HTML tag, comment or autolink
 *     ({@code <} followed by a letter, {@code /}, {@code !} or {@code ?}) is written {@code &lt;}, which
 *     every viewer shows as {@code <}; {@code <=} and {@code a < b} are left as they are;</li>
 * <li>outside code, a link or image whose target names a scheme ({@code ](javascript:...)},
 *     {@code ](https://...)}) is written {@code ]\(}, so it shows as text: the pages link only to their
 *     own charts, by relative name.</li>
 * </ul>
 * Inside code spans and fenced code, text is shown as written by every viewer, and only control
 * characters are replaced.
 */
public final class MarkdownSafety {
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})(.*)$");
    private static final Pattern SCHEME = Pattern.compile("\\s*<?[A-Za-z][A-Za-z0-9+.-]*:");

    private MarkdownSafety() {}

    /** {@code markdown} with the rules above applied. */
    public static String document(String markdown) {
        StringBuilder out = new StringBuilder(markdown.length() + 64);
        String[] lines = markdown.split("\n", -1);
        char fence = 0;
        int fenceLength = 0;
        for (int n = 0; n < lines.length; n++) {
            String line = withoutControls(lines[n]);
            if (fence != 0) {
                // Closed by a line of at least as many of the fence's characters (and nothing else).
                String t = line.strip();
                if (t.length() >= fenceLength && t.replace(String.valueOf(fence), "").isEmpty()) {
                    fence = 0;
                }
                out.append(line);
            } else {
                Matcher f = FENCE.matcher(line);
                if (f.matches() && !(f.group(1).charAt(0) == '`' && f.group(2).indexOf('`') >= 0)) {
                    fence = f.group(1).charAt(0);
                    fenceLength = f.group(1).length();
                    out.append(line);
                } else {
                    inline(out, line);
                }
            }
            if (n < lines.length - 1) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    /** Every control character but tab as {@code ?}. */
    private static String withoutControls(String line) {
        StringBuilder out = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c != '\t' && Character.isISOControl(c)) {
                if (out == null) {
                    out = new StringBuilder(line);
                }
                out.setCharAt(i, '?');
            }
        }
        return out == null ? line : out.toString();
    }

    /**
     * One line outside fenced code: a run of backticks opens a code span that the next run of exactly as
     * many closes (CommonMark); a run without its closer is plain backticks. Code is copied; the rest escaped.
     */
    private static void inline(StringBuilder out, String line) {
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '`') {
                int run = runLength(line, i);
                int close = closer(line, i + run, run);
                int end = close < 0 ? i + run : close + run;
                out.append(line, i, end);
                i = end;
            } else if (c == '<' && i + 1 < line.length() && opensMarkup(line.charAt(i + 1))) {
                out.append("&lt;");
                i++;
            } else if (c == ']' && line.startsWith("(", i + 1) && SCHEME.matcher(line).region(i + 2, line.length())
                    .lookingAt()) {
                out.append("]\\(");
                i += 2;
            } else {
                out.append(c);
                i++;
            }
        }
    }

    private static boolean opensMarkup(char next) {
        return (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == '/' || next == '!' || next == '?';
    }

    private static int runLength(String line, int from) {
        int end = from;
        while (end < line.length() && line.charAt(end) == '`') {
            end++;
        }
        return end - from;
    }

    /** Where the next run of exactly {@code run} backticks from {@code from} starts, or -1. */
    private static int closer(String line, int from, int run) {
        int i = from;
        while (i < line.length()) {
            if (line.charAt(i) == '`') {
                int length = runLength(line, i);
                if (length == run) {
                    return i;
                }
                i += length;
            } else {
                i++;
            }
        }
        return -1;
    }
}
