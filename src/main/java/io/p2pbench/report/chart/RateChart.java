package io.p2pbench.report.chart;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A latency-against-request-rate chart as SVG ({@link SvgChart}'s style and helpers): offered rate on
 * a log axis (requests per second, ticks 1, 2, 5 x 10^k), a latency on a log time axis, one series per
 * plan and transport with a marker per measured rate, the point's distribution-free interval as an
 * error bar (asymmetric), and the target as a dashed horizontal line. A point whose percentile is
 * infinite (requests left unfinished at the cap) is drawn at the top edge as a downward triangle. A point
 * that broke the target is ringed in red, and a series may say in its legend entry why it broke.
 */
final class RateChart {
    private RateChart() {}

    /**
     * One point: a rate and its figure with the interval around it (microseconds).
     *
     * @param low lower end of the interval (NaN: none)
     * @param high upper end (NaN: none)
     * @param broke whether it broke the target (ringed)
     */
    record Point(double ratePerSecond, double y, double low, double high, boolean broke) {}

    /**
     * One series.
     *
     * @param note a line under its legend entry (null: none)
     */
    record Series(String name, List<Point> points, String note) {}

    /** The ring around a point that broke the target. */
    static final String BROKE_COLOR = "#b00020";

    /**
     * Renders the chart.
     *
     * @param targetUs the target line, microseconds (NaN: none)
     */
    static String render(String title, String subtitle, List<String> notes, String yTitle, List<Series> series,
                         double targetUs, String legendTitle) {
        StringBuilder body = new StringBuilder();
        int top = SvgChart.header(body, title, subtitle, notes) + 10;
        int width = SvgChart.WIDTH - SvgChart.LEFT - SvgChart.RIGHT;
        int height = SvgChart.PLOT_HEIGHT;
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = 0;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = 0;
        for (Series s : series) {
            for (Point p : s.points()) {
                xMin = Math.min(xMin, p.ratePerSecond());
                xMax = Math.max(xMax, p.ratePerSecond());
                for (double v : new double[] {p.y(), p.low(), p.high()}) {
                    if (Double.isFinite(v) && v > 0) {
                        yMin = Math.min(yMin, v);
                        yMax = Math.max(yMax, v);
                    }
                }
            }
        }
        if (Double.isFinite(targetUs) && targetUs > 0) {
            yMin = Math.min(yMin, targetUs);
            yMax = Math.max(yMax, targetUs);
        }
        if (!(xMax > 0)) {
            xMin = 1;
            xMax = 10;
        }
        if (!(yMax > 0)) {
            yMin = 1;
            yMax = 10;
        }
        Axis x = Axis.log(xMin, xMax, false);
        Axis y = Axis.log(yMin, yMax, true);
        body.append(SvgChart.rect(SvgChart.LEFT, top, width, height, "fill=\"#ffffff\" stroke=\"#444444\""));
        for (double t : y.ticks()) {
            double py = top + height - y.fraction(t) * height;
            body.append(SvgChart.line(SvgChart.LEFT, py, SvgChart.LEFT + width, py, "stroke=\"#dddddd\""));
            body.append(SvgChart.text(SvgChart.LEFT - 8, py + 4, 12, "end", "", y.label(t)));
        }
        for (double t : x.ticks()) {
            double px = SvgChart.LEFT + x.fraction(t) * width;
            body.append(SvgChart.line(px, top, px, top + height, "stroke=\"#eeeeee\""));
            body.append(SvgChart.text(px, top + height + 19, 12, "middle", "", x.label(t)));
        }
        body.append(SvgChart.text(SvgChart.LEFT + width / 2.0, top + height + 40, 13, "middle", "",
                "offered request rate, requests/s (log scale; a marker per measured rate)"));
        body.append("<text transform=\"translate(18,").append(SvgChart.fmt(top + height / 2.0))
                .append(") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">").append(SvgChart.escape(yTitle))
                .append("</text>\n");
        if (Double.isFinite(targetUs) && targetUs > 0) {
            double py = top + height - y.fraction(targetUs) * height;
            body.append(SvgChart.line(SvgChart.LEFT, py, SvgChart.LEFT + width, py,
                    "stroke=\"#b00020\" stroke-width=\"1.4\" stroke-dasharray=\"6 4\""));
            body.append(SvgChart.text(SvgChart.LEFT + width - 4, py - 5, 11, "end", "fill=\"#b00020\"",
                    "target " + Axis.micros(targetUs)));
        }
        for (int i = 0; i < series.size(); i++) {
            String color = SeriesStyles.COLORS[i % SeriesStyles.COLORS.length];
            String dash = SeriesStyles.DASHES[i % SeriesStyles.DASHES.length];
            List<Point> pts = new ArrayList<>(series.get(i).points());
            pts.sort(Comparator.comparingDouble(Point::ratePerSecond));
            StringBuilder path = new StringBuilder();
            for (Point p : pts) {
                double px = SvgChart.LEFT + x.fraction(p.ratePerSecond()) * width;
                double py = Double.isFinite(p.y()) ? top + height - y.fraction(p.y()) * height : top;
                path.append(path.length() == 0 ? "M" : " L").append(SvgChart.fmt(px)).append(' ').append(SvgChart.fmt(py));
            }
            if (!pts.isEmpty()) {
                body.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(color)
                        .append("\" stroke-width=\"1.8\"").append(dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"")
                        .append("/>\n");
            }
            for (Point p : pts) {
                double px = SvgChart.LEFT + x.fraction(p.ratePerSecond()) * width;
                double py = Double.isFinite(p.y()) ? top + height - y.fraction(p.y()) * height : top + 6;
                if (p.broke()) {
                    body.append("<circle cx=\"").append(SvgChart.fmt(px)).append("\" cy=\"").append(SvgChart.fmt(py))
                            .append("\" r=\"9.0\" fill=\"none\" stroke=\"").append(BROKE_COLOR)
                            .append("\" stroke-width=\"1.6\"><title>broke the target</title></circle>\n");
                }
                if (!Double.isFinite(p.y())) {
                    body.append(SvgChart.marker("down", px, py, color));
                    continue;
                }
                if (Double.isFinite(p.low()) && p.low() > 0) {
                    double lo = top + height - y.fraction(p.low()) * height;
                    double hi = Double.isFinite(p.high()) ? top + height - y.fraction(p.high()) * height : top;
                    String st = "stroke=\"" + color + "\" stroke-width=\"1.2\"";
                    body.append(SvgChart.line(px, lo, px, hi, st)).append(SvgChart.line(px - 4, lo, px + 4, lo, st))
                            .append(SvgChart.line(px - 4, hi, px + 4, hi, st));
                }
                body.append(SvgChart.marker(SeriesStyles.MARKERS[i % SeriesStyles.MARKERS.length], px, py, color));
            }
        }
        int ly = top + height + 66;
        if (legendTitle != null && !legendTitle.isEmpty()) {
            body.append(SvgChart.text(SvgChart.LEFT, ly, 12, "start", "font-weight=\"bold\"", legendTitle));
            ly += 20;
        }
        for (int i = 0; i < series.size(); i++) {
            String color = SeriesStyles.COLORS[i % SeriesStyles.COLORS.length];
            String dash = SeriesStyles.DASHES[i % SeriesStyles.DASHES.length];
            body.append(SvgChart.line(SvgChart.LEFT, ly - 4, SvgChart.LEFT + 44, ly - 4, "stroke=\"" + color
                    + "\" stroke-width=\"1.8\"" + (dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"")));
            body.append(SvgChart.marker(SeriesStyles.MARKERS[i % SeriesStyles.MARKERS.length], SvgChart.LEFT + 22, ly - 4, color));
            body.append(SvgChart.text(SvgChart.LEFT + 54, ly, 12, "start", "", series.get(i).name()));
            ly += 18;
            if (series.get(i).note() != null) {
                body.append(SvgChart.text(SvgChart.LEFT + 54, ly - 2, 11, "start", "fill=\"" + BROKE_COLOR + "\"",
                        series.get(i).note()));
                ly += 17;
            }
        }
        return SvgChart.document(ly + 6, body);
    }
}
