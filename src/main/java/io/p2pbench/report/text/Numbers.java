package io.p2pbench.report.text;

import java.math.BigDecimal;

/** Number formats the verdicts' reasons share with the report, without any Markdown. */
public final class Numbers {
    private Numbers() {}

    /** A threshold or other plain number without trailing zeros, e.g. {@code 5}, {@code 2.5}. */
    public static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
