package io.p2pbench.files;

/**
 * Text from elsewhere (a file name, a GPU name, a manifest value) as a one-line message may show it: control
 * characters, line breaks included, as {@code ?}, so that no value can split a line or move a terminal's cursor.
 */
public final class OneLine {
    private OneLine() {}

    /** {@code text} with every control character as {@code ?}; null as the empty text. */
    public static String printable(String text) {
        if (text == null) {
            return "";
        }
        return text.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    /** {@link #printable} cut to at most {@code max} characters, then "...". */
    public static String shown(String text, int max) {
        String s = printable(text);
        return s.length() > max ? s.substring(0, max) + "..." : s;
    }
}
