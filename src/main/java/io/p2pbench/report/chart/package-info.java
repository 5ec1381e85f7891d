/**
 * Charts: what each chart shows ({@link io.p2pbench.report.chart.ChartData}), drawn as SVG without fonts
 * ({@link io.p2pbench.report.chart.SvgChart}) and as PNG through XChart where the machine has fonts.
 */
package io.p2pbench.report.chart;
