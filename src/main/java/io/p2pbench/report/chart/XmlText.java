package io.p2pbench.report.chart;

/**
 * Text as it goes into SVG and HTML, in one place: the charts' titles, legends and labels and every
 * text of report.html hold names read from result folders and imports (a GPU name, a host name, a
 * run's label), which may hold markup or characters XML does not allow. One control character in a
 * GPU name made every chart invalid XML, which browsers then refuse to draw.
 */
public final class XmlText {
    private XmlText() {}

    /**
     * {@code s} as XML character data or an attribute value in double quotes: {@code & < > "} escaped; a
     * line break becomes a space; characters XML 1.0 does not allow (control characters other than tab,
     * unpaired surrogates, U+FFFE, U+FFFF) and the C1 controls become {@code ?}.
     */
    public static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(c -> {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\n', '\r' -> out.append(' ');
                case '\t' -> out.append('\t');
                default -> {
                    boolean refused = Character.isISOControl(c) || (c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFE
                            || c == 0xFFFF;
                    out.appendCodePoint(refused ? '?' : c);
                }
            }
        });
        return out.toString();
    }
}
