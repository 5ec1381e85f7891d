package io.p2pbench.report.chart;

import java.util.List;

/**
 * What one chart shows, independent of how it is drawn: {@link SvgChart} draws it as SVG (everywhere, no
 * fonts needed) and {@link PngCharts} as PNG through XChart (where the machine has fonts), so the PNG files
 * are the same charts, not a second set.
 */
public sealed interface ChartData permits SvgChart.SizeChart, ChartData.Heatmap, ChartData.Bars {
    /** The chart as SVG text. */
    String svg();

    /**
     * A GPU x GPU matrix: one cell per (source row, destination column), shaded by value.
     *
     * @param title title
     * @param subtitle the machine
     * @param labels GPU labels, rows and columns in this order
     * @param values values[source][destination], null where there is no figure
     * @param note what blank cells mean
     */
    record Heatmap(String title, String subtitle, List<String> labels, Double[][] values, String note)
            implements ChartData {
        @Override
        public String svg() {
            return SvgChart.heatmap(title, subtitle, labels, values, note);
        }
    }

    /**
     * A grouped bar chart: one group per category, one bar per series in each group.
     *
     * @param title title
     * @param subtitle second line (the machine)
     * @param notes lines under the title
     * @param yTitle y axis title with unit
     * @param groups the categories
     * @param series series names
     * @param values {@code values[series][group]}; NaN: no bar
     * @param halfWidths same shape, error bar half heights (0 or NaN: none)
     * @param valueFormat format of the value printed above a bar
     */
    record Bars(String title, String subtitle, List<String> notes, String yTitle, List<String> groups,
                List<String> series, double[][] values, double[][] halfWidths, String valueFormat) implements ChartData {
        @Override
        public String svg() {
            return SvgChart.bars(title, subtitle, notes, yTitle, groups, series, values, halfWidths, valueFormat);
        }
    }
}
