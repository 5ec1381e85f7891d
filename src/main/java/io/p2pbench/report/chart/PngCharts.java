package io.p2pbench.report.chart;

import io.p2pbench.results.AtomicFiles;
import io.p2pbench.transfer.Sizes;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.GraphicsEnvironment;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts as PNG, for review tools and chats that show PNG but not SVG: an adapter that draws each
 * chart's {@link ChartData} (the data its SVG was drawn from) with XChart, headless. The plot is XChart's
 * (log2 size axis labelled KiB/MiB/GiB, log or linear y with the axis title and unit, error bars, markers,
 * dash patterns of {@link SeriesStyles}); the title, the machine, the notes and the legend with the hardware
 * are drawn above and below it as the SVG has them.
 *
 * <p>PNG needs fonts. Where the machine has none (GPU-node images often have no fontconfig fonts, and the
 * JDK then cannot make or measure a font), {@link #unavailable()} says why in one line and the report
 * writes SVG only.
 */
public final class PngCharts {
    private static final int WIDTH = SvgChart.WIDTH;
    private static final int PLOT_HEIGHT = 520;
    private static final String FONT = Font.SANS_SERIF;

    private final Supplier<Optional<String>> fontCheck;

    /** {@code fontCheck} says why fonts cannot be used here, or nothing when they can. */
    PngCharts(Supplier<Optional<String>> fontCheck) {
        this.fontCheck = fontCheck;
    }

    /** PNG charts as this machine can draw them. */
    public static PngCharts here() {
        return new PngCharts(PngCharts::probeFonts);
    }

    /** Why PNG cannot be drawn on this machine (one line), or empty when it can. */
    public Optional<String> unavailable() {
        return fontCheck.get();
    }

    /**
     * Writes {@code NAME.png} beside each chart's {@code NAME.svg}; returns the files written. Call only when
     * {@link #unavailable()} is empty. Charts drawn without {@link ChartData} (the serving rate charts) stay SVG only.
     */
    public List<Path> write(List<Charts.ChartFile> charts) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Charts.ChartFile c : charts) {
            if (c.data() == null) {
                continue;
            }
            String name = c.svg().getFileName().toString().replaceFirst("\\.svg$", "") + ".png";
            Path file = c.svg().resolveSibling(name);
            AtomicFiles.write(file, png(c.data()));
            out.add(file);
        }
        return out;
    }

    /** One chart as PNG bytes. */
    static byte[] png(ChartData data) throws IOException {
        Header header;
        Chart<?, ?> chart;
        List<String> legend = List.of();
        String legendTitle = "";
        List<SeriesStyles.Style> styles = List.of();
        if (data instanceof SvgChart.SizeChart c) {
            header = new Header(c.title(), c.subtitle(), c.notes());
            chart = sizeChart(c);
            legend = c.series().stream().map(SvgChart.Series::name).toList();
            legendTitle = c.legendTitle();
            styles = SeriesStyles.of(c.series());
        } else if (data instanceof ChartData.Heatmap h) {
            header = new Header(h.title(), h.subtitle(), List.of(h.note()));
            chart = heatmap(h);
        } else {
            ChartData.Bars b = (ChartData.Bars) data;
            header = new Header(b.title(), b.subtitle(), b.notes());
            chart = bars(b);
        }
        BufferedImage probe = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D measure = probe.createGraphics();
        int headerHeight = header.draw(measure, false);
        int legendHeight = legend.isEmpty() ? 0 : legend(measure, legendTitle, legend, styles, 0, false);
        measure.dispose();
        int height = headerHeight + PLOT_HEIGHT + legendHeight + 10;
        BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, height);
            header.draw(g, true);
            Graphics2D plot = (Graphics2D) g.create(0, headerHeight, WIDTH, PLOT_HEIGHT);
            chart.paint(plot, WIDTH, PLOT_HEIGHT);
            plot.dispose();
            if (!legend.isEmpty()) {
                legend(g, legendTitle, legend, styles, headerHeight + PLOT_HEIGHT, true);
            }
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ImageIO.write(image, "png", bytes);
        return bytes.toByteArray();
    }

    static XYChart sizeChart(SvgChart.SizeChart c) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(PLOT_HEIGHT)
                .xAxisTitle("transfer size (log2 scale; a marker per measured size)").yAxisTitle(c.yTitle()).build();
        style(chart.getStyler());
        chart.getStyler().setLegendVisible(false).setChartTitleVisible(false);
        chart.getStyler().setYAxisLogarithmic(c.logY()).setErrorBarsColorSeriesColor(true).setMarkerSize(9);
        if (!c.logY()) {
            chart.getStyler().setYAxisMin(0.0); // a linear axis (bandwidth) starts at 0, as the SVG's does
        }
        TreeSet<Long> sizes = new TreeSet<>();
        c.series().forEach(s -> s.points().stream().filter(p -> usable(p, c.logY())).forEach(p -> sizes.add(p.sizeBytes())));
        if (sizes.isEmpty()) {
            sizes.add(1L);
        }
        // x is log2 of the size on a linear axis, labelled only at whole powers of two, in KiB/MiB/GiB. XChart sizes
        // its labels by formatting the axis ends, so those get the label of their nearest power of two; they sit
        // 0.45 octaves out, where no tick of a 1, 2, 5 x 10^k step falls.
        // One size: XChart places no tick inside less than one octave (the size went unlabelled), so the axis spans
        // an octave more each way, labelled at the powers of two either side too.
        double margin = sizes.size() == 1 ? 1.45 : 0.45;
        double xMin = Charts.log2(sizes.first()) - margin;
        double xMax = Charts.log2(sizes.last()) + margin;
        chart.getStyler().setXAxisMin(xMin).setXAxisMax(xMax);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(x -> {
            boolean end = Math.abs(x - xMin) < 1e-9 || Math.abs(x - xMax) < 1e-9;
            boolean whole = Math.abs(x - Math.rint(x)) < 1e-6;
            return (whole || end) && x > -0.5 && x < 62.5 ? Sizes.format(1L << Math.round(x)) : "";
        });
        // XChart's own log axis (ticks per decade): a custom label function would drop the log ticks.
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        if (c.time()) {
            chart.setYAxisTitle(c.yTitle() + ", \u00b5s");
        }
        List<Long> order = new ArrayList<>(sizes);
        List<SeriesStyles.Style> styles = SeriesStyles.of(c.series());
        boolean errorBars = c.series().stream().flatMap(s -> s.points().stream()).anyMatch(p -> p.halfWidth() > 0);
        for (int i = 0; i < c.series().size(); i++) {
            List<SvgChart.Point> pts = c.series().get(i).points().stream().filter(p -> usable(p, c.logY()))
                    .sorted(Comparator.comparingLong(SvgChart.Point::sizeBytes)).toList();
            if (pts.isEmpty()) {
                continue;
            }
            // A size of the chart the series was not measured at is a gap: a NaN point breaks the line there.
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            for (int k = 0; k < pts.size(); k++) {
                SvgChart.Point p = pts.get(k);
                if (k > 0 && order.indexOf(p.sizeBytes()) - order.indexOf(pts.get(k - 1).sizeBytes()) != 1) {
                    x.add(Charts.log2(p.sizeBytes()) - 0.5);
                    y.add(Double.NaN);
                    e.add(0.0);
                }
                x.add(Charts.log2(p.sizeBytes()));
                y.add(p.y());
                e.add(p.halfWidth());
            }
            String name = uniqueName(chart, c.series().get(i).name());
            XYSeries s = errorBars ? chart.addSeries(name, x, y, e) : chart.addSeries(name, x, y);
            SeriesStyles.Style st = styles.get(i);
            Color color = Color.decode(st.color());
            s.setLineColor(color);
            s.setMarkerColor(color);
            s.setMarker(marker(st.marker()));
            s.setLineStyle(stroke(st.dash(), 1.8f));
        }
        return chart;
    }

    private static HeatMapChart heatmap(ChartData.Heatmap h) {
        HeatMapChart chart = new HeatMapChartBuilder().width(WIDTH).height(PLOT_HEIGHT)
                .xAxisTitle("destination GPU").yAxisTitle("source GPU").build();
        style(chart.getStyler());
        chart.getStyler().setShowValue(true).setRangeColors(new Color[] {Color.WHITE, new Color(8, 69, 148)});
        chart.getStyler().setChartTitleVisible(false).setLegendVisible(true);
        int n = h.labels().size();
        List<Number[]> cells = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (h.values()[i][j] != null) {
                    cells.add(new Number[] {j, n - 1 - i, Math.round(h.values()[i][j])});
                }
            }
        }
        List<String> rows = new ArrayList<>(h.labels());
        Collections.reverse(rows);
        chart.addSeries("GB/s", h.labels(), rows, cells);
        return chart;
    }

    private static CategoryChart bars(ChartData.Bars b) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(PLOT_HEIGHT).yAxisTitle(b.yTitle()).build();
        style(chart.getStyler());
        chart.getStyler().setChartTitleVisible(false).setLegendPosition(Styler.LegendPosition.OutsideS)
                .setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setLabelsVisible(true).setYAxisMin(0.0).setErrorBarsColorSeriesColor(false);
        // The bar labels (and the axis) with the SVG's decimals: "%.1f" -> "#,##0.0".
        Matcher decimals = Pattern.compile("%\\.(\\d)f").matcher(b.valueFormat());
        int places = decimals.find() ? Integer.parseInt(decimals.group(1)) : 0;
        chart.getStyler().setYAxisDecimalPattern("#,##0" + (places > 0 ? "." + "0".repeat(places) : ""));
        boolean errorBars = Arrays.stream(b.halfWidths()).flatMapToDouble(Arrays::stream)
                .anyMatch(h -> Double.isFinite(h) && h > 0);
        for (int i = 0; i < b.series().size(); i++) {
            // No figure (NaN): no bar, as in the SVG; XChart leaves a null value out.
            List<Double> values = Arrays.stream(b.values()[i]).mapToObj(x -> Double.isFinite(x) ? x : null).toList();
            List<Double> errors = Arrays.stream(b.halfWidths()[i]).mapToObj(x -> Double.isFinite(x) ? x : 0.0).toList();
            (errorBars ? chart.addSeries(b.series().get(i), b.groups(), values, errors)
                    : chart.addSeries(b.series().get(i), b.groups(), values))
                    .setFillColor(Color.decode(SeriesStyles.COLORS[i % SeriesStyles.COLORS.length]));
        }
        return chart;
    }

    private static void style(Styler s) {
        s.setChartBackgroundColor(Color.WHITE).setPlotBackgroundColor(Color.WHITE).setChartFontColor(new Color(34, 34, 34));
        s.setBaseFont(new Font(FONT, Font.PLAIN, 12)).setAntiAlias(true);
        if (s instanceof AxesChartStyler a) {
            a.setAxisTitleFont(new Font(FONT, Font.PLAIN, 13)).setAxisTickLabelsFont(new Font(FONT, Font.PLAIN, 12));
            a.setPlotGridLinesColor(new Color(221, 221, 221)).setPlotBorderColor(new Color(68, 68, 68));
        }
    }

    /** Title (bold, wrapped), the machine, the notes (italic): drawn or only measured; returns its height. */
    private record Header(String title, String subtitle, List<String> notes) {
        int draw(Graphics2D g, boolean paint) {
            int y = 26;
            y = lines(g, SvgChart.wrap(title, WIDTH - 40, 16), new Font(FONT, Font.BOLD, 16), Color.DARK_GRAY, y, 21, paint);
            if (subtitle != null && !subtitle.isEmpty()) {
                y = lines(g, SvgChart.wrap(subtitle, WIDTH - 40, 13), new Font(FONT, Font.PLAIN, 13), Color.DARK_GRAY, y,
                        18, paint);
            }
            for (String note : notes) {
                y = lines(g, SvgChart.wrap(note, WIDTH - 40, 12), new Font(FONT, Font.ITALIC, 12), new Color(138, 59, 0),
                        y, 17, paint);
            }
            return y;
        }

        private static int lines(Graphics2D g, List<String> parts, Font font, Color color, int y, int step,
                                 boolean paint) {
            g.setFont(font);
            FontMetrics fm = g.getFontMetrics();
            for (String part : parts) {
                if (paint) {
                    g.setColor(color);
                    g.drawString(part, (WIDTH - fm.stringWidth(part)) / 2, y);
                }
                y += step;
            }
            return y;
        }
    }

    /** The legend below the plot: the hardware first, then one entry per series as the plot draws it. */
    private static int legend(Graphics2D g, String title, List<String> names, List<SeriesStyles.Style> styles, int top,
                              boolean paint) {
        int x = 90;
        int y = top + 20;
        if (title != null && !title.isEmpty()) {
            g.setFont(new Font(FONT, Font.BOLD, 12));
            if (paint) {
                g.setColor(Color.DARK_GRAY);
                g.drawString(title, x, y);
            }
            y += 20;
        }
        g.setFont(new Font(FONT, Font.PLAIN, 12));
        for (int i = 0; i < names.size(); i++) {
            if (paint) {
                Color color = Color.decode(styles.get(i).color());
                g.setColor(color);
                g.setStroke(stroke(styles.get(i).dash(), 1.8f));
                g.drawLine(x, y - 4, x + 44, y - 4);
                g.setStroke(new BasicStroke(1.6f));
                marker(styles.get(i).marker()).paint(g, x + 22, y - 4, 9);
            }
            for (String part : SvgChart.wrap(names.get(i), WIDTH - x - 90, 12)) {
                if (paint) {
                    g.setColor(Color.DARK_GRAY);
                    g.drawString(part, x + 54, y);
                }
                y += 18;
            }
        }
        return y - top;
    }

    private static BasicStroke stroke(String dash, float width) {
        if (dash.isEmpty()) {
            return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND);
        }
        String[] parts = dash.split(" ");
        float[] pattern = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
            pattern[i] = Float.parseFloat(parts[i]);
        }
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, pattern, 0f);
    }

    private static Marker marker(String shape) {
        return switch (shape) {
            case "circle" -> SeriesMarkers.CIRCLE;
            case "square" -> SeriesMarkers.SQUARE;
            case "triangle" -> SeriesMarkers.TRIANGLE_UP;
            case "diamond" -> SeriesMarkers.DIAMOND;
            case "down" -> SeriesMarkers.TRIANGLE_DOWN;
            case "cross" -> SeriesMarkers.CROSS;
            default -> SeriesMarkers.PLUS;
        };
    }

    private static boolean usable(SvgChart.Point p, boolean logY) {
        return Double.isFinite(p.y()) && !(logY && p.y() <= 0);
    }

    /** XChart keys series by name: a repeated legend name gets an invisible suffix. */
    private static String uniqueName(XYChart chart, String name) {
        String n = name;
        while (chart.getSeriesMap().containsKey(n)) {
            n = n + "\u200b";
        }
        return n;
    }

    /**
     * Why this JVM cannot draw text into an image, or empty: no font families (a headless JDK without
     * fontconfig fonts), or making, measuring or drawing a font fails.
     */
    static Optional<String> probeFonts() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        try {
            String[] families = GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames();
            if (families.length == 0) {
                return Optional.of("this machine has no fonts (the JDK lists no font family)");
            }
            BufferedImage image = new BufferedImage(40, 20, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = image.createGraphics();
            try {
                g.setFont(new Font(FONT, Font.PLAIN, 12));
                if (g.getFontMetrics().stringWidth("1 MiB") <= 0) {
                    return Optional.of("this machine's fonts cannot be measured (text width 0)");
                }
                g.drawString("1 MiB", 0, 15);
            } finally {
                g.dispose();
            }
            return Optional.empty();
        } catch (RuntimeException | Error e) {
            // A JDK without usable fonts fails here in several ways, some of them plain Errors: "Probable fatal
            // error: No physical fonts found" when no font file exists, "Fontconfig head is null" without
            // fontconfig. Only the JVM's own failures go on.
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            return Optional.of("fonts cannot be used here (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("")) + ")");
        }
    }
}
