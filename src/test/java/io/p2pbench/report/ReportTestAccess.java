package io.p2pbench.report;

import io.p2pbench.report.chart.SvgChart;

/** Lets tests in other packages ask whether this Java runtime can draw charts. */
public final class ReportTestAccess {
    private ReportTestAccess() {}

    /** Always true: charts are SVG text drawn without AWT or fonts ({@link SvgChart}). */
    public static boolean chartsDrawable() {
        return true;
    }
}
