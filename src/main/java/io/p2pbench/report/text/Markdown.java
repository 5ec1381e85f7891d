package io.p2pbench.report.text;

import java.util.List;
import java.util.Locale;

/** Markdown pieces and number formats shared by the verdicts, the summary and the comparison. */
public final class Markdown {
    private Markdown() {}

    /** A pipe table; cells are escaped. */
    public static String table(List<String> header, List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        row(sb, header);
        sb.append('|');
        header.forEach(h -> sb.append("---|"));
        sb.append('\n');
        rows.forEach(r -> row(sb, r));
        return sb.toString();
    }

    private static void row(StringBuilder sb, List<String> cells) {
        sb.append('|');
        for (String c : cells) {
            sb.append(' ').append(c == null ? "" : c.replace("|", "\\|").replace("\n", " ")).append(" |");
        }
        sb.append('\n');
    }

    /** A figure with three to four significant digits; {@code n/a} for NaN. */
    public static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        String f = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, f, v);
    }

    /** A threshold or other plain number without trailing zeros, e.g. {@code 5}, {@code 2.5}. */
    public static String plain(double v) {
        return Numbers.plain(v);
    }

    /** A ratio as a percentage with one decimal, e.g. {@code 85.7%}. */
    public static String percent(double ratio) {
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * ratio);
    }

    /** A signed change, e.g. {@code -10.0%}. */
    public static String change(double ratio) {
        return !Double.isFinite(ratio) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", 100 * (ratio - 1));
    }
}
