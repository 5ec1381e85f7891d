package io.p2pbench.report.chart;

import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Charts as SVG text, drawn without AWT: text stays text (the viewer's fonts render it), so charts
 * are small, diff-able, byte-for-byte reproducible, and drawn on GPU-node images that have no fonts
 * or text-shaping libraries. Text widths are estimated (0.6 em per character, wider than DejaVu
 * Sans' average), so titles and legends wrap before they could run off the picture.
 *
 * <p>Size charts: transfer size on a log2 axis labelled in KiB/MiB/GiB; a marker per measured size;
 * a line joins two points of a series only when no other size of the chart lies between them (a
 * size the series was not measured at is a gap, not an interpolation); series look as
 * {@link SeriesStyles} decides (comparisons: candidates solid, baselines dashed), markers hollow.
 * Axes tick as {@link Axis} chooses: linear at 1, 2 or 5 x 10^k; log at 1, 2, 5 x 10^k per decade, labelled in µs/ms.
 */
public final class SvgChart {
    static final int WIDTH = 960;
    static final int PLOT_HEIGHT = 420;
    static final int LEFT = 90;
    static final int RIGHT = 30;
    private static final String FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
    private static final String[] COLORS = SeriesStyles.COLORS;

    private SvgChart() {}

    /**
     * One point: a measured size and its figure.
     *
     * @param sizeBytes the transfer size
     * @param y the figure
     * @param halfWidth error bar half height, 0 for none
     */
    record Point(long sizeBytes, double y, double halfWidth) {}

    /**
     * One series.
     *
     * @param name legend entry
     * @param points points in any order
     * @param baseline drawn dashed in the colour of the series before it (comparison baselines)
     */
    record Series(String name, List<Point> points, boolean baseline) {}

    /**
     * A size chart.
     *
     * @param title title, wrapped to the width
     * @param subtitle the machine, on its own line
     * @param notes lines under the title: what is missing and why, what was drawn instead
     * @param yTitle y axis title with unit
     * @param logY log y axis with ticks 1, 2, 5 x 10^k; else linear from 0
     * @param time y values are microseconds, labelled in ns/µs/ms/s
     * @param legendTitle what the legend's series share (the hardware)
     * @param series the series
     */
    record SizeChart(String title, String subtitle, List<String> notes, String yTitle, boolean logY, boolean time,
                     String legendTitle, List<Series> series) implements ChartData {
        @Override
        public String svg() {
            return render(this);
        }
    }

    /** Renders a size chart. */
    static String render(SizeChart c) {
        StringBuilder body = new StringBuilder();
        int y = header(body, c.title(), c.subtitle(), c.notes());
        int top = y + 10;
        int plotWidth = WIDTH - LEFT - RIGHT;
        TreeSet<Long> sizes = new TreeSet<>();
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : c.series()) {
            for (Point p : s.points()) {
                if (!Double.isFinite(p.y()) || (c.logY() && p.y() <= 0)) {
                    continue;
                }
                sizes.add(p.sizeBytes());
                yMin = Math.min(yMin, p.y() - p.halfWidth());
                yMax = Math.max(yMax, p.y() + p.halfWidth());
            }
        }
        if (sizes.isEmpty()) {
            sizes.add(1L);
            yMin = 1;
            yMax = 10;
        }
        double xLo = log2(sizes.first()) - 0.5;
        double xHi = log2(sizes.last()) + 0.5;
        Axis yAxis = c.logY() ? Axis.log(yMin, yMax, c.time()) : Axis.linear(yMax);
        // Frame, grid and ticks.
        body.append(rect(LEFT, top, plotWidth, PLOT_HEIGHT, "fill=\"#ffffff\" stroke=\"#444444\""));
        for (double t : yAxis.ticks()) {
            double py = top + PLOT_HEIGHT - yAxis.fraction(t) * PLOT_HEIGHT;
            body.append(line(LEFT, py, LEFT + plotWidth, py, "stroke=\"#dddddd\""));
            body.append(text(LEFT - 8, py + 4, 12, "end", "", yAxis.label(t)));
        }
        int step = Axis.xStep(xHi - xLo);
        for (int e = (int) Math.ceil(xLo); e <= xHi; e++) {
            if (Math.floorMod(e, step) != 0) {
                continue;
            }
            double px = LEFT + (e - xLo) / (xHi - xLo) * plotWidth;
            body.append(line(px, top, px, top + PLOT_HEIGHT, "stroke=\"#eeeeee\""));
            body.append(line(px, top + PLOT_HEIGHT, px, top + PLOT_HEIGHT + 5, "stroke=\"#444444\""));
            body.append(text(px, top + PLOT_HEIGHT + 19, 12, "middle", "", Sizes.format(1L << e)));
        }
        body.append(text(LEFT + plotWidth / 2.0, top + PLOT_HEIGHT + 40, 13, "middle", "",
                "transfer size (log2 scale; a marker per measured size)"));
        body.append("<text transform=\"translate(18,").append(fmt(top + PLOT_HEIGHT / 2.0))
                .append(") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">").append(escape(c.yTitle()))
                .append("</text>\n");
        // Series.
        List<Long> order = new ArrayList<>(sizes);
        List<SeriesStyles.Style> styles = SeriesStyles.of(c.series());
        for (int i = 0; i < c.series().size(); i++) {
            Series s = c.series().get(i);
            String color = styles.get(i).color();
            String dash = styles.get(i).dash();
            List<Point> pts = s.points().stream().filter(p -> Double.isFinite(p.y()) && !(c.logY() && p.y() <= 0))
                    .sorted(Comparator.comparingLong(Point::sizeBytes)).toList();
            StringBuilder path = new StringBuilder();
            for (int k = 0; k < pts.size(); k++) {
                double px = xPixel(pts.get(k).sizeBytes(), xLo, xHi, plotWidth);
                double py = top + PLOT_HEIGHT - yAxis.fraction(pts.get(k).y()) * PLOT_HEIGHT;
                boolean joined = k > 0 && order.indexOf(pts.get(k).sizeBytes())
                        - order.indexOf(pts.get(k - 1).sizeBytes()) == 1;
                path.append(joined ? " L" : " M").append(fmt(px)).append(' ').append(fmt(py));
            }
            if (!pts.isEmpty()) {
                body.append("<path d=\"").append(path.toString().trim()).append("\" fill=\"none\" stroke=\"")
                        .append(color).append("\" stroke-width=\"1.8\"")
                        .append(dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"").append("/>\n");
            }
            for (Point p : pts) {
                double px = xPixel(p.sizeBytes(), xLo, xHi, plotWidth);
                double py = top + PLOT_HEIGHT - yAxis.fraction(p.y()) * PLOT_HEIGHT;
                if (p.halfWidth() > 0) {
                    double lo = top + PLOT_HEIGHT - yAxis.fraction(p.y() - p.halfWidth()) * PLOT_HEIGHT;
                    double hi = top + PLOT_HEIGHT - yAxis.fraction(p.y() + p.halfWidth()) * PLOT_HEIGHT;
                    String st = "stroke=\"" + color + "\" stroke-width=\"1.2\"";
                    body.append(line(px, lo, px, hi, st)).append(line(px - 4, lo, px + 4, lo, st))
                            .append(line(px - 4, hi, px + 4, hi, st));
                }
                body.append(marker(styles.get(i).marker(), px, py, color));
            }
        }
        // Legend below the plot: one entry per line, the shared hardware first.
        int ly = top + PLOT_HEIGHT + 66;
        if (c.legendTitle() != null && !c.legendTitle().isEmpty()) {
            body.append(text(LEFT, ly, 12, "start", "font-weight=\"bold\"", c.legendTitle()));
            ly += 20;
        }
        for (int i = 0; i < c.series().size(); i++) {
            Series s = c.series().get(i);
            String color = styles.get(i).color();
            String dash = styles.get(i).dash();
            body.append(line(LEFT, ly - 4, LEFT + 44, ly - 4, "stroke=\"" + color + "\" stroke-width=\"1.8\""
                    + (dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"")));
            body.append(marker(styles.get(i).marker(), LEFT + 22, ly - 4, color));
            for (String part : wrap(s.name(), WIDTH - LEFT - 60 - RIGHT, 12)) {
                body.append(text(LEFT + 54, ly, 12, "start", "", part));
                ly += 18;
            }
        }
        return document(ly + 6, body);
    }

    /**
     * A GPU x GPU matrix: one cell per (source row, destination column), shaded by value, the value
     * written in it; null cells stay blank grey.
     *
     * @param title title
     * @param subtitle the machine
     * @param labels GPU labels, rows and columns in this order
     * @param values values[source][destination], null where there is no figure
     * @param note what blank cells mean
     */
    static String heatmap(String title, String subtitle, List<String> labels, Double[][] values, String note) {
        StringBuilder body = new StringBuilder();
        int top = header(body, title, subtitle, List.of(note)) + 30;
        int n = labels.size();
        int cell = Math.max(40, Math.min(90, (WIDTH - 200) / Math.max(1, n)));
        int left = 130;
        double max = 0;
        for (Double[] row : values) {
            for (Double v : row) {
                if (v != null) {
                    max = Math.max(max, v);
                }
            }
        }
        body.append(text(left + n * cell / 2.0, top - 22, 13, "middle", "", "destination GPU"));
        body.append("<text transform=\"translate(28,").append(fmt(top + n * cell / 2.0))
                .append(") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">source GPU</text>\n");
        for (int i = 0; i < n; i++) {
            body.append(text(left + i * cell + cell / 2.0, top - 6, 12, "middle", "", labels.get(i)));
            body.append(text(left - 8, top + i * cell + cell / 2.0 + 4, 12, "end", "", labels.get(i)));
            for (int j = 0; j < n; j++) {
                Double v = values[i][j];
                String fill = v == null ? "#eeeeee" : shade(max > 0 ? v / max : 0);
                body.append(rect(left + j * cell, top + i * cell, cell, cell, "fill=\"" + fill + "\" stroke=\"#ffffff\""));
                if (v != null) {
                    boolean dark = max > 0 && v / max > 0.55;
                    body.append(text(left + j * cell + cell / 2.0, top + i * cell + cell / 2.0 + 4, 11, "middle",
                            dark ? "fill=\"#ffffff\"" : "", String.format(Locale.ROOT, "%.0f", v)));
                }
            }
        }
        return document(top + n * cell + 20, body);
    }

    /**
     * A grouped bar chart: one group per category along x, one bar per series in each group, error bars
     * where a half-width is given (0 or NaN: none), the value printed above each bar. Linear y axis from 0.
     *
     * @param title title, wrapped to the width
     * @param subtitle second line
     * @param notes italic lines under the title
     * @param yTitle y axis title with unit
     * @param groups the categories (bar groups)
     * @param series series names (one bar per group each)
     * @param values {@code values[series][group]}; NaN: no bar
     * @param halfWidths same shape, error bar half heights
     * @param valueFormat format of the value printed above a bar, e.g. {@code "%.2f s"}
     */
    public static String bars(String title, String subtitle, List<String> notes, String yTitle, List<String> groups,
                              List<String> series, double[][] values, double[][] halfWidths, String valueFormat) {
        return bars(title, subtitle, notes, yTitle, groups, series, values, halfWidths, valueFormat, null);
    }

    /**
     * {@link #bars(String, String, List, String, List, List, double[][], double[][], String)} with a label of
     * its own above each bar where {@code labels[series][group]} is not null (lines split at {@code \n}, the
     * last just above the bar); null: every bar's value in {@code valueFormat}.
     */
    public static String bars(String title, String subtitle, List<String> notes, String yTitle, List<String> groups,
                              List<String> series, double[][] values, double[][] halfWidths, String valueFormat,
                              String[][] labels) {
        StringBuilder body = new StringBuilder();
        int top = header(body, title, subtitle, notes) + 14;
        int plotWidth = WIDTH - LEFT - RIGHT;
        double max = 0;
        for (int i = 0; i < values.length; i++) {
            for (int j = 0; j < values[i].length; j++) {
                double v = values[i][j];
                double h = halfWidths[i][j];
                if (Double.isFinite(v)) {
                    max = Math.max(max, v + (Double.isFinite(h) ? h : 0));
                }
            }
        }
        Axis yAxis = Axis.linear(max);
        body.append(rect(LEFT, top, plotWidth, PLOT_HEIGHT, "fill=\"#ffffff\" stroke=\"#444444\""));
        for (double t : yAxis.ticks()) {
            double py = top + PLOT_HEIGHT - yAxis.fraction(t) * PLOT_HEIGHT;
            body.append(line(LEFT, py, LEFT + plotWidth, py, "stroke=\"#dddddd\""));
            body.append(text(LEFT - 8, py + 4, 12, "end", "", yAxis.label(t)));
        }
        body.append("<text transform=\"translate(18,").append(fmt(top + PLOT_HEIGHT / 2.0))
                .append(") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">").append(escape(yTitle))
                .append("</text>\n");
        int g = Math.max(1, groups.size());
        double groupWidth = (double) plotWidth / g;
        double barWidth = groupWidth * 0.8 / Math.max(1, series.size());
        int labelLines = 1;
        for (int j = 0; j < groups.size(); j++) {
            double gx = LEFT + j * groupWidth;
            List<String> label = wrap(groups.get(j), groupWidth - 8, 12);
            labelLines = Math.max(labelLines, label.size());
            for (int k = 0; k < label.size(); k++) {
                body.append(text(gx + groupWidth / 2, top + PLOT_HEIGHT + 18 + 15 * k, 12, "middle", "", label.get(k)));
            }
            for (int i = 0; i < series.size(); i++) {
                double v = values[i][j];
                if (!Double.isFinite(v)) {
                    continue;
                }
                String color = COLORS[i % COLORS.length];
                double x = gx + groupWidth * 0.1 + i * barWidth;
                double py = top + PLOT_HEIGHT - yAxis.fraction(v) * PLOT_HEIGHT;
                body.append(rect(x + 1, py, barWidth - 2, top + PLOT_HEIGHT - py,
                        "fill=\"" + color + "\" fill-opacity=\"0.85\""));
                double h = halfWidths[i][j];
                double labelY = py - 4;
                if (Double.isFinite(h) && h > 0) {
                    double lo = top + PLOT_HEIGHT - yAxis.fraction(Math.max(0, v - h)) * PLOT_HEIGHT;
                    double hi = top + PLOT_HEIGHT - yAxis.fraction(v + h) * PLOT_HEIGHT;
                    double cx = x + barWidth / 2;
                    body.append(line(cx, lo, cx, hi, "stroke=\"#222222\""));
                    body.append(line(cx - 4, hi, cx + 4, hi, "stroke=\"#222222\""));
                    body.append(line(cx - 4, lo, cx + 4, lo, "stroke=\"#222222\""));
                    labelY = Math.min(labelY, hi - 4);
                }
                String barLabel = labels == null || labels[i][j] == null ? String.format(Locale.ROOT, valueFormat, v)
                        : labels[i][j];
                List<String> labelParts = List.of(barLabel.split("\n"));
                for (int k = 0; k < labelParts.size(); k++) {
                    body.append(text(x + barWidth / 2, labelY - 12 * (labelParts.size() - 1 - k), 10, "middle", "",
                            labelParts.get(k)));
                }
            }
        }
        int ly = top + PLOT_HEIGHT + 24 + 15 * labelLines;
        for (int i = 0; i < series.size(); i++) {
            String color = COLORS[i % COLORS.length];
            body.append(rect(LEFT, ly - 10, 14, 10, "fill=\"" + color + "\" fill-opacity=\"0.85\""));
            body.append(text(LEFT + 20, ly, 12, "start", "", series.get(i)));
            ly += 18;
        }
        return document(ly + 6, body);
    }

    /** Title lines, subtitle, notes; returns the y below them. */
    static int header(StringBuilder body, String title, String subtitle, List<String> notes) {
        int y = 26;
        for (String part : wrap(title, WIDTH - 40, 16)) {
            body.append(text(WIDTH / 2.0, y, 16, "middle", "font-weight=\"bold\"", part));
            y += 21;
        }
        if (subtitle != null && !subtitle.isEmpty()) {
            for (String part : wrap(subtitle, WIDTH - 40, 13)) {
                body.append(text(WIDTH / 2.0, y, 13, "middle", "", part));
                y += 18;
            }
        }
        for (String note : notes) {
            for (String part : wrap(note, WIDTH - 40, 12)) {
                body.append(text(WIDTH / 2.0, y, 12, "middle", "font-style=\"italic\" fill=\"#8a3b00\"", part));
                y += 17;
            }
        }
        return y;
    }

    static String document(int height, StringBuilder body) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH + "\" height=\"" + height
                + "\" viewBox=\"0 0 " + WIDTH + " " + height + "\" font-family=\"" + FONT + "\" fill=\"#222222\">\n"
                + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" + body + "</svg>\n";
    }

    /**
     * Splits {@code s} at spaces into lines no wider than {@code widthPx} at {@code fontSize}, estimating
     * 0.6 em per character (wider than the average glyph of common sans fonts, so lines fit).
     */
    static List<String> wrap(String s, double widthPx, double fontSize) {
        int perLine = Math.max(10, (int) (widthPx / (0.6 * fontSize)));
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : s.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > perLine) {
                out.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            out.add(line.toString());
        }
        return out;
    }

    private static double xPixel(long size, double xLo, double xHi, int plotWidth) {
        return LEFT + (log2(size) - xLo) / (xHi - xLo) * plotWidth;
    }

    private static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }

    static String marker(String shape, double x, double y, String color) {
        String st = " fill=\"#ffffff\" stroke=\"" + color + "\" stroke-width=\"1.6\"";
        double r = 4.5;
        return switch (shape) {
            case "circle" -> "<circle cx=\"" + fmt(x) + "\" cy=\"" + fmt(y) + "\" r=\"" + fmt(r) + "\"" + st + "/>\n";
            case "square" -> "<rect x=\"" + fmt(x - r) + "\" y=\"" + fmt(y - r) + "\" width=\"" + fmt(2 * r) + "\" height=\""
                    + fmt(2 * r) + "\"" + st + "/>\n";
            case "triangle" -> polygon(st, x, y - r - 1, x + r + 1, y + r, x - r - 1, y + r);
            case "down" -> polygon(st, x, y + r + 1, x + r + 1, y - r, x - r - 1, y - r);
            case "diamond" -> polygon(st, x, y - r - 1, x + r + 1, y, x, y + r + 1, x - r - 1, y);
            case "cross" -> "<path d=\"M" + fmt(x - r) + " " + fmt(y - r) + " L" + fmt(x + r) + " " + fmt(y + r) + " M"
                    + fmt(x - r) + " " + fmt(y + r) + " L" + fmt(x + r) + " " + fmt(y - r) + "\" stroke=\"" + color
                    + "\" stroke-width=\"2\"/>\n";
            default -> "<path d=\"M" + fmt(x - r - 1) + " " + fmt(y) + " L" + fmt(x + r + 1) + " " + fmt(y) + " M" + fmt(x)
                    + " " + fmt(y - r - 1) + " L" + fmt(x) + " " + fmt(y + r + 1) + "\" stroke=\"" + color
                    + "\" stroke-width=\"2\"/>\n";
        };
    }

    private static String polygon(String style, double... xy) {
        StringBuilder sb = new StringBuilder("<polygon points=\"");
        for (int i = 0; i < xy.length; i += 2) {
            sb.append(i == 0 ? "" : " ").append(fmt(xy[i])).append(',').append(fmt(xy[i + 1]));
        }
        return sb.append("\"").append(style).append("/>\n").toString();
    }

    /** White to dark blue. */
    private static String shade(double f) {
        f = Math.max(0, Math.min(1, f));
        int r = (int) Math.round(255 + (8 - 255) * f);
        int g = (int) Math.round(255 + (69 - 255) * f);
        int b = (int) Math.round(255 + (148 - 255) * f);
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, b);
    }

    static String rect(double x, double y, double w, double h, String style) {
        return "<rect x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" width=\"" + fmt(w) + "\" height=\"" + fmt(h) + "\" "
                + style + "/>\n";
    }

    static String line(double x1, double y1, double x2, double y2, String style) {
        return "<line x1=\"" + fmt(x1) + "\" y1=\"" + fmt(y1) + "\" x2=\"" + fmt(x2) + "\" y2=\"" + fmt(y2) + "\" "
                + style + "/>\n";
    }

    static String text(double x, double y, int size, String anchor, String extra, String s) {
        return "<text x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" font-size=\"" + size + "\" text-anchor=\"" + anchor + "\""
                + (extra.isEmpty() ? "" : " " + extra) + ">" + escape(s) + "</text>\n";
    }

    static String escape(String s) {
        return XmlText.escape(s);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
