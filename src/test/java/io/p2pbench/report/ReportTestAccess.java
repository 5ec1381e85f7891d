package io.p2pbench.report;

/** Lets tests in other packages ask whether this Java runtime can draw charts. */
public final class ReportTestAccess {
    private ReportTestAccess() {}

    /** Whether charts can be rendered here (fonts and font libraries present). */
    public static boolean chartsDrawable() {
        return Charts.renderingProblem().isEmpty();
    }
}
