package io.p2pbench.report;

import io.p2pbench.results.AtomicFiles;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts step: XChart, headless, every chart written as PNG (for reviews) and SVG (for docs).
 * One chart answers one question: bandwidth vs size per pair, p99 latency vs size per pair, P2P on
 * vs off vs host-staged for one pair, the GPU x GPU bandwidth matrix as a heatmap, and collective
 * bus bandwidth vs size. Sizes sit on a log2 axis labelled in KiB/MiB/GiB; bandwidth points are
 * medians with error bars half the width of the 95% t-interval; titles and legends name the machine.
 */
public final class Charts {
    static final int WIDTH = 1100;
    static final int HEIGHT = 650;
    /** Axis title of bandwidth charts. */
    static final String BANDWIDTH_AXIS = "GB/s (decimal); median, bars: 95% t-interval half-width";

    private Charts() {}

    /**
     * A chart on disk.
     *
     * @param title the chart's title
     * @param png the PNG file
     * @param svg the SVG file
     */
    public record ChartFile(String title, Path png, Path svg) {}

    /**
     * One line of a size chart.
     *
     * @param name legend entry
     * @param points measurements of one series, any order
     * @param dashed drawn dashed (baselines in comparisons)
     */
    record Line(String name, List<Measurement> points, boolean dashed) {}

    /** Every chart of one machine's measurements, written to {@code dir} with names starting {@code prefix}. */
    static List<ChartFile> forMachine(ResultData machine, List<Measurement> ms, Path dir, String prefix)
            throws IOException {
        String name = machine.machineDescription();
        String fp = machine.machine();
        List<ChartFile> out = new ArrayList<>();
        Map<String, List<Measurement>> peerBandwidth = byPair(ms, m -> m.key().kind().equals("peer")
                && m.key().biggerIsBetter() && m.key().direction().equals(ResultReader.ONE_WAY));
        for (Map.Entry<String, List<Measurement>> e : peerBandwidth.entrySet()) {
            addIfSweep(out, "Peer copy bandwidth vs size, " + pairTitle(e.getValue().get(0)) + " — " + name,
                    BANDWIDTH_AXIS, lines(e.getValue(), m -> m.key().path() + " · " + fp), true, dir,
                    prefix + "bandwidth-peer-" + e.getKey());
        }
        Map<String, List<Measurement>> hostBandwidth = byPair(ms, m -> m.key().kind().equals("host")
                && m.key().biggerIsBetter() && (m.key().direction().equals("H2D") || m.key().direction().equals("D2H")));
        for (Map.Entry<String, List<Measurement>> e : hostBandwidth.entrySet()) {
            addIfSweep(out, "Host-device copy bandwidth vs size, " + e.getKey() + " — " + name, BANDWIDTH_AXIS,
                    lines(e.getValue(), m -> m.key().direction() + " " + m.key().path() + " · " + fp), true, dir,
                    prefix + "bandwidth-host-" + stem(e.getKey()));
        }
        for (Map.Entry<String, List<Measurement>> e : byPair(ms, m -> !m.key().biggerIsBetter()
                && (m.key().kind().equals("peer") || m.key().kind().equals("host"))).entrySet()) {
            Measurement first = e.getValue().get(0);
            boolean host = first.key().kind().equals("host");
            addIfSweep(out, "p99 latency vs size (" + Statistics.PERCENTILE_ESTIMATOR + "), "
                            + (host ? "host-device copy, " + e.getKey() : pairTitle(first)) + " — " + name,
                    "µs per transfer, host-observed (log scale)",
                    lines(e.getValue(), m -> (host ? m.key().direction() + " " : "") + m.key().path() + " · " + fp),
                    false, dir, prefix + "latency-p99-" + first.key().kind() + "-" + stem(e.getKey()));
        }
        ChartFile p2p = p2pOnOffStaged(peerBandwidth, name, fp, dir, prefix);
        if (p2p != null) {
            out.add(p2p);
        }
        out.addAll(heatmaps(machine.topology(), ms, name, dir, prefix));
        Map<String, List<Measurement>> busByKind = new TreeMap<>();
        for (Measurement m : ms) {
            if (ResultReader.COLLECTIVE_KINDS.contains(m.key().kind()) && m.key().direction().equals("bus")) {
                busByKind.computeIfAbsent(m.key().kind(), k -> new ArrayList<>()).add(m);
            }
        }
        for (Map.Entry<String, List<Measurement>> e : busByKind.entrySet()) {
            // Drawn even at one size: the variants side by side answer "how close to the link does each get".
            boolean oneGroup = e.getValue().stream().map(m -> m.key().pair()).distinct().count() == 1;
            Measurement first = e.getValue().get(0);
            String title = "Collective bus bandwidth vs size, " + e.getKey()
                    + (oneGroup ? " on GPUs " + first.key().pair() + (first.singleGpu() ? " (" + Measurement.SINGLE_GPU
                    + ")" : "") : "") + " — " + name;
            List<Line> lines = lines(e.getValue(), m -> m.key().path() + (oneGroup ? "" : ", GPUs " + m.key().pair()
                    + (m.singleGpu() ? " (" + Measurement.SINGLE_GPU + ")" : "")) + " · " + fp);
            out.add(save(sizeChart(title, "bus bandwidth, GB/s (nccl-tests definition)", lines, true), title, dir,
                    prefix + "busbw-" + e.getKey()));
        }
        return out;
    }

    /** Draws and adds a size chart when some line has two sizes or more (a single size is no curve). */
    private static void addIfSweep(List<ChartFile> out, String title, String yTitle, List<Line> lines, boolean bandwidth,
                                   Path dir, String stem) throws IOException {
        if (sweeps(lines)) {
            out.add(save(sizeChart(title, yTitle, lines, bandwidth), title, dir, stem));
        }
    }

    /** CE_P2P_READ vs CE_NO_P2P vs HOST_STAGED for the first pair of distinct GPUs having them (else 0-0). */
    private static ChartFile p2pOnOffStaged(Map<String, List<Measurement>> peerBandwidth, String name, String fp,
                                            Path dir, String prefix) throws IOException {
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put("CE_P2P_READ", "P2P on (CE_P2P_READ)");
        paths.put("CE_NO_P2P", "P2P off (CE_NO_P2P, driver stages through the host)");
        paths.put("HOST_STAGED", "host-staged (HOST_STAGED, chunked, double-buffered)");
        List<Map.Entry<String, List<Measurement>>> candidates = new ArrayList<>(peerBandwidth.entrySet());
        candidates.sort(Comparator.comparing(e -> e.getValue().get(0).singleGpu()));
        for (Map.Entry<String, List<Measurement>> e : candidates) {
            List<Measurement> chosen = e.getValue().stream().filter(m -> paths.containsKey(m.key().path())).toList();
            List<Line> lines = lines(chosen, m -> paths.get(m.key().path()) + " · " + fp);
            if (lines.size() >= 2 && sweeps(lines)) {
                String title = "P2P on vs off vs host-staged, " + pairTitle(e.getValue().get(0)) + " — " + name;
                return save(sizeChart(title, BANDWIDTH_AXIS, lines, true), title, dir,
                        prefix + "p2p-on-off-staged-" + e.getKey());
            }
        }
        return null;
    }

    /** One heatmap per path and size of the pair matrix; row = source, column = destination. */
    private static List<ChartFile> heatmaps(Topology t, List<Measurement> ms, String name, Path dir, String prefix)
            throws IOException {
        Map<String, List<Measurement>> matrices = new TreeMap<>();
        for (Measurement m : TextMatrices.matrixCells(ms)) {
            if (m.key().direction().equals(ResultReader.ONE_WAY)) {
                matrices.computeIfAbsent(m.key().path() + "-" + Sizes.compact(m.key().sizeBytes()), k -> new ArrayList<>())
                        .add(m);
            }
        }
        List<ChartFile> out = new ArrayList<>();
        for (Map.Entry<String, List<Measurement>> e : matrices.entrySet()) {
            List<Integer> gpus = gpuIndices(t, e.getValue());
            List<String> columns = gpus.stream().map(g -> "GPU" + g).toList();
            List<String> rows = new ArrayList<>(columns);
            java.util.Collections.reverse(rows);
            List<Number[]> cells = heatmapCells(e.getValue(), gpus);
            if (cells.isEmpty()) {
                continue;
            }
            Measurement first = e.getValue().get(0);
            String title = first.key().path() + " bandwidth matrix, " + Sizes.format(first.key().sizeBytes())
                    + ", median GB/s — " + name;
            HeatMapChart chart = new HeatMapChartBuilder().width(Math.max(700, 120 + 90 * gpus.size()))
                    .height(Math.max(600, 120 + 70 * gpus.size())).title(title)
                    .xAxisTitle("destination GPU (blank: diagonal, device-local, and pairs not measured)")
                    .yAxisTitle("source GPU").build();
            chart.getStyler().setShowValue(true).setHeatMapValueDecimalPattern("#").setChartBackgroundColor(Color.WHITE)
                    .setLegendPosition(Styler.LegendPosition.OutsideE);
            chart.addSeries("GB/s · " + name, columns, rows, cells);
            out.add(save(chart, title, dir, prefix + "heatmap-" + stem(e.getKey())));
        }
        return out;
    }

    /**
     * Heatmap cells {column (destination), row counted from the bottom (source, GPU 0 on top), median GB/s};
     * no cell for the diagonal (device-local copies) or for pairs without a figure, which stay blank.
     */
    static List<Number[]> heatmapCells(List<Measurement> matrix, List<Integer> gpus) {
        List<Number[]> cells = new ArrayList<>();
        for (Measurement m : matrix) {
            String[] ends = m.key().pair().split("-");
            int src = gpus.indexOf(Integer.parseInt(ends[0]));
            int dst = gpus.indexOf(Integer.parseInt(ends[1]));
            if (src != dst) {
                cells.add(new Number[] {dst, gpus.size() - 1 - src, Statistics.bandwidth(m.samples()).median()});
            }
        }
        return cells;
    }

    /**
     * A chart with transfer size on a log2 axis: for {@code bandwidth}, medians with error bars half the
     * t-interval wide on a linear axis; otherwise p99 latency on a log axis.
     */
    static XYChart sizeChart(String title, String yTitle, List<Line> lines, boolean bandwidth) {
        // The legend sits below the plot: every line past four gets room of its own.
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT + 20 * Math.max(0, lines.size() - 4)).title(title)
                .xAxisTitle("transfer size (log2 scale)").yAxisTitle(yTitle).build();
        XYStyler styler = chart.getStyler();
        styler.setxAxisTickLabelsFormattingFunction(Charts::sizeLabel).setYAxisLogarithmic(!bandwidth)
                .setErrorBarsColorSeriesColor(true);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS).setChartBackgroundColor(Color.WHITE).setMarkerSize(7)
                .setChartTitleFont(styler.getChartTitleFont().deriveFont(13f));
        Color[] palette = styler.getTheme().getSeriesColors();
        int colors = 0;
        for (Line line : lines) {
            // A dashed (baseline) line takes the colour of the solid line before it: one colour per path.
            Color color = palette[(line.dashed() ? Math.max(0, colors - 1) : colors++) % palette.length];
            List<Measurement> points = new ArrayList<>(line.points());
            points.sort(Comparator.comparingLong(m -> m.key().sizeBytes()));
            double[] x = new double[points.size()];
            double[] y = new double[points.size()];
            double[] bars = new double[points.size()];
            for (int i = 0; i < x.length; i++) {
                Measurement m = points.get(i);
                x[i] = log2(m.key().sizeBytes());
                if (bandwidth) {
                    Statistics.Bandwidth b = Statistics.bandwidth(m.samples());
                    y[i] = b.median();
                    bars[i] = b.halfWidth();
                } else {
                    y[i] = Statistics.latency(m.samples()).p99();
                }
            }
            XYSeries s = bandwidth ? chart.addSeries(line.name(), x, y, bars) : chart.addSeries(line.name(), x, y);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(color);
            s.setLineColor(color);
            if (line.dashed()) {
                s.setLineStyle(SeriesLines.DASH_DASH);
            }
        }
        return chart;
    }

    private static volatile Optional<String> renderingProblem;

    /**
     * Why this Java runtime cannot draw charts, if it cannot: text needs the JDK's font libraries
     * (freetype, harfbuzz) and at least one font, which minimal GPU-node images may lack. Reports then
     * still write every table and export, and say how to get the charts.
     */
    static Optional<String> renderingProblem() {
        Optional<String> p = renderingProblem;
        if (p == null) {
            try {
                java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(8, 8,
                        java.awt.image.BufferedImage.TYPE_INT_RGB);
                java.awt.Graphics2D g = img.createGraphics();
                g.setFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 12));
                g.drawString("p2pbench", 0, 8);
                g.dispose();
                p = Optional.empty();
            } catch (Throwable t) {
                String why = String.valueOf(t.getMessage()).lines().findFirst().orElse(t.getClass().getSimpleName());
                p = Optional.of(t.getClass().getSimpleName() + ": " + why);
            }
            renderingProblem = p;
        }
        return p;
    }

    /** Writes {@code chart} as PNG and SVG next to each other. */
    static ChartFile save(Chart<?, ?> chart, String title, Path dir, String stem) throws IOException {
        Path png = dir.resolve(stem + ".png");
        Path svg = dir.resolve(stem + ".svg");
        AtomicFiles.write(png, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        VectorGraphicsEncoder.saveVectorGraphic(chart, bytes, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        AtomicFiles.write(svg, bytes.toByteArray());
        return new ChartFile(title, png, svg);
    }

    /** {@code 4 KiB}, {@code 1 MiB}: the size whose log2 is {@code x}. */
    static String sizeLabel(double x) {
        return Sizes.format(Math.round(Math.pow(2, x)));
    }

    /** log2 of a size: the x coordinate of the size axis. */
    static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }

    /** A title fragment for a peer pair: {@code GPU0→GPU1 (NV18)}, with the single-GPU label. */
    static String pairTitle(Measurement m) {
        String[] ends = m.key().pair().split("-");
        return "GPU" + ends[0] + "→GPU" + ends[1] + " (" + m.link() + (m.singleGpu() ? ", " + Measurement.SINGLE_GPU : "")
                + ")";
    }

    /** A file-name-safe form of a label. */
    static String stem(String label) {
        return label.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^-+|-+$", "");
    }

    private static Map<String, List<Measurement>> byPair(List<Measurement> ms, Predicate<Measurement> filter) {
        Map<String, List<Measurement>> out = new LinkedHashMap<>();
        for (Measurement m : ms) {
            if (filter.test(m)) {
                out.computeIfAbsent(m.key().pair(), k -> new ArrayList<>()).add(m);
            }
        }
        return out;
    }

    /** Groups measurements into lines by their legend name, in first-seen order. */
    static List<Line> lines(List<Measurement> ms, java.util.function.Function<Measurement, String> name) {
        Map<String, List<Measurement>> byName = new LinkedHashMap<>();
        for (Measurement m : ms) {
            byName.computeIfAbsent(name.apply(m), k -> new ArrayList<>()).add(m);
        }
        List<Line> out = new ArrayList<>();
        byName.forEach((n, points) -> out.add(new Line(n, points, false)));
        return out;
    }

    /** Whether some line has two sizes or more (a single size is no curve). */
    private static boolean sweeps(List<Line> lines) {
        return lines.stream().anyMatch(l -> l.points().stream().map(m -> m.key().sizeBytes()).distinct().count() >= 2);
    }

    static List<Integer> gpuIndices(Topology t, List<Measurement> ms) {
        Set<Integer> gpus = new TreeSet<>();
        if (t != null) {
            t.gpus().forEach(g -> gpus.add(g.index()));
        }
        for (Measurement m : ms) {
            for (String end : m.key().pair().split("-")) {
                gpus.add(Integer.parseInt(end));
            }
        }
        return new ArrayList<>(gpus);
    }
}
