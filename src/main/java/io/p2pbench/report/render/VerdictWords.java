package io.p2pbench.report.render;

import io.p2pbench.report.verdict.Verdict;

/**
 * The word the report and {@code compare} print for each {@link Verdict}, in one place: a comparison says
 * worse, better, same or cannot judge; a partition plan against SINGLE keep, reject, cannot judge, not
 * measured or no verdict.
 */
public final class VerdictWords {
    private VerdictWords() {}

    /** The word of {@code v}, as tables, verdict lines and reasons print it. */
    public static String word(Verdict v) {
        return switch (v) {
            case WORSE -> "worse";
            case BETTER -> "better";
            case SAME -> "same";
            case UNJUDGED -> "cannot judge";
            case KEEP -> "keep";
            case REJECT -> "reject";
            case NOT_MEASURED -> "not measured";
            case NO_VERDICT -> "no verdict";
        };
    }
}
