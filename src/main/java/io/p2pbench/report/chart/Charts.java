package io.p2pbench.report.chart;

import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.results.PercentileReach;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.spec.Kind;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The charts step: every chart written as SVG with its text as text ({@link SvgChart}), drawn without
 * AWT, so the same charts come out on a desktop, a CI runner and a GPU-node image without fonts; each
 * keeps the {@link ChartData} it was drawn from, so {@link PngCharts} can draw the same chart as PNG.
 * One chart answers one question: bandwidth vs size per pair, p99 latency vs size per pair, P2P on
 * vs off vs host-staged for one pair, the GPU x GPU bandwidth matrix as a heatmap, and collective
 * bandwidth vs size. Sizes sit on a log2 axis labelled in KiB/MiB/GiB with a marker per measured size;
 * bandwidth points are medians with error bars half the width of the 95% t-interval; titles name the
 * pair and link, subtitles and legends the machine; a chart that lacks what its name promises says
 * so under its title.
 */
public final class Charts {
    /** Axis title of bandwidth charts. */
    public static final String BANDWIDTH_AXIS = "GB/s (decimal); median, bars: 95% t-interval half-width";

    private Charts() {}

    /**
     * A chart on disk.
     *
     * @param title the chart's title
     * @param svg the SVG file
     * @param data what it shows, from which the SVG was drawn (and a PNG may be)
     */
    public record ChartFile(String title, Path svg, ChartData data) {}

    /**
     * One line of a size chart.
     *
     * @param name legend entry
     * @param points measurements of one series, any order
     * @param dashed drawn dashed in the colour of the line before it (baselines in comparisons)
     */
    public record Line(String name, List<Measurement> points, boolean dashed) {}

    /** Every chart of one machine's measurements, written to {@code dir} with names starting {@code prefix}. */
    public static List<ChartFile> forMachine(ResultData machine, List<Measurement> ms, Path dir, String prefix)
            throws IOException {
        String name = machine.machineDescription();
        List<ChartFile> out = new ArrayList<>();
        Map<String, List<Measurement>> peerBandwidth = byPair(ms, m -> m.key().is(Kind.PEER)
                && m.key().biggerIsBetter() && m.key().lane() == Lane.ONE_WAY);
        for (Map.Entry<String, List<Measurement>> e : peerBandwidth.entrySet()) {
            addIfSweep(out, "Peer copy bandwidth vs size, " + pairTitle(e.getValue().get(0)), name, List.of(),
                    BANDWIDTH_AXIS, lines(e.getValue(), m -> m.key().path()), true, dir,
                    prefix + "bandwidth-peer-" + e.getKey());
        }
        Map<String, List<Measurement>> hostBandwidth = byPair(ms, m -> m.key().is(Kind.HOST)
                && m.key().biggerIsBetter() && m.key().lane().isHostOneWay());
        for (Map.Entry<String, List<Measurement>> e : hostBandwidth.entrySet()) {
            addIfSweep(out, "Host-device copy bandwidth vs size, " + e.getKey(), name, List.of(), BANDWIDTH_AXIS,
                    lines(e.getValue(), m -> m.key().direction() + " " + m.key().path()), true, dir,
                    prefix + "bandwidth-host-" + stem(e.getKey()));
        }
        for (Map.Entry<String, List<Measurement>> e : byPair(ms, m -> !m.key().biggerIsBetter()
                && (m.key().is(Kind.PEER) || m.key().is(Kind.HOST))).entrySet()) {
            Measurement first = e.getValue().get(0);
            boolean host = first.key().is(Kind.HOST);
            // A p99 of fewer than 100 samples is the largest sample: those sizes are left out, and the chart says so.
            List<Measurement> reached = e.getValue().stream()
                    .filter(m -> Statistics.latency(m.samples()).reaches(99)).toList();
            List<String> notes = new ArrayList<>(List.of("p99 by " + Statistics.PERCENTILE_ESTIMATOR));
            int left = e.getValue().size() - reached.size();
            if (left > 0) {
                notes.add(left + " of " + e.getValue().size() + " measured with fewer than " + Statistics.minSamples(99)
                        + " samples left out (no p99: " + PercentileReach.WHY + "; statistics.md has their p50)");
            }
            addIfSweep(out, "p99 latency vs size, " + (host ? "host-device copy, " + e.getKey() : pairTitle(first)),
                    name, notes, "time per transfer, host-observed (log scale)",
                    lines(reached, m -> (host ? m.key().direction() + " " : "") + m.key().path()),
                    false, dir, prefix + "latency-p99-" + first.key().kind() + "-" + stem(e.getKey()));
        }
        ChartFile p2p = p2pOnOffStaged(machine, peerBandwidth, name, dir, prefix);
        if (p2p != null) {
            out.add(p2p);
        }
        out.addAll(heatmaps(machine.topology(), ms, name, dir, prefix));
        out.addAll(collectives(ms, name, dir, prefix));
        return out;
    }

    /**
     * Collective bandwidth vs size per collective kind, drawn even at one size (the variants side by side
     * answer "how close to the link does each get"). Bus bandwidth, except for a series whose groups have
     * one rank: its bus bandwidth is 0 by definition (x 2(n-1)/n), so its algorithm bandwidth is drawn and
     * the legend and a note say so; when every series is like that the chart is {@code algbw-<kind>}.
     */
    private static List<ChartFile> collectives(List<Measurement> ms, String name, Path dir, String prefix)
            throws IOException {
        Map<String, List<Measurement>> byKind = new TreeMap<>();
        for (Measurement m : ms) {
            if (m.key().isCollective()) {
                byKind.computeIfAbsent(m.key().kind(), k -> new ArrayList<>()).add(m);
            }
        }
        List<ChartFile> out = new ArrayList<>();
        for (Map.Entry<String, List<Measurement>> e : byKind.entrySet()) {
            List<Measurement> bus = e.getValue().stream().filter(m -> m.key().lane() == Lane.BUS).toList();
            if (bus.isEmpty()) {
                continue;
            }
            boolean oneGroup = bus.stream().map(m -> m.key().pair()).distinct().count() == 1;
            List<Line> busLines = lines(bus, m -> m.key().path() + (oneGroup ? "" : ", GPUs " + m.key().pair()));
            List<Line> drawn = new ArrayList<>();
            int alg = 0;
            for (Line l : busLines) {
                boolean oneRank = l.points().stream().allMatch(m -> ranks(m.key()) == 1);
                if (!oneRank) {
                    drawn.add(l);
                    continue;
                }
                Set<List<Object>> keys = new HashSet<>();
                l.points().forEach(m -> keys.add(List.of(m.key().path(), m.key().ends(), m.key().sizeBytes())));
                List<Measurement> algPoints = e.getValue().stream().filter(m -> m.key().lane() == Lane.ALG
                        && keys.contains(List.of(m.key().path(), m.key().ends(), m.key().sizeBytes()))).toList();
                if (!algPoints.isEmpty()) {
                    drawn.add(new Line(l.name() + " (algbw: one rank)", algPoints, false));
                    alg++;
                }
            }
            if (drawn.isEmpty()) {
                continue;
            }
            boolean allAlg = alg == drawn.size();
            Measurement first = bus.get(0);
            String title = (allAlg ? "Collective algorithm bandwidth vs size, " : "Collective bus bandwidth vs size, ")
                    + e.getKey() + (oneGroup ? " on GPUs " + first.key().pair() : "")
                    + (bus.stream().allMatch(Measurement::singleGpu) ? " (" + Measurement.SINGLE_GPU + ")" : "");
            List<String> notes = new ArrayList<>();
            if (alg > 0) {
                notes.add("With one rank, bus bandwidth is 0 by definition (algbw x 2(n-1)/n, as nccl-tests): "
                        + (allAlg ? "algorithm bandwidth (size / time) is drawn instead." : "series marked algbw show "
                        + "algorithm bandwidth (size / time) instead."));
            }
            out.add(save(sizeChart(title, name, notes, allAlg ? "algorithm bandwidth, GB/s (size / time)"
                    : "bus bandwidth, GB/s (nccl-tests definition)", drawn, true), title + " — " + name, dir,
                    prefix + (allAlg ? "algbw-" : "busbw-") + e.getKey()));
        }
        return out;
    }

    /** Ranks of a collective's group (a GPU may appear more than once). */
    private static int ranks(Measurement.Key k) {
        return k.ends() instanceof Endpoints.Ranks r ? r.size() : 1;
    }

    /** The GPU pair of a peer copy's figure. */
    private static GpuPair pairOf(Measurement m) {
        return ((Endpoints.Pair) m.key().ends()).pair();
    }

    /** Draws and adds a size chart when some line has two sizes or more (a single size is no curve). */
    private static void addIfSweep(List<ChartFile> out, String title, String machine, List<String> notes, String yTitle,
                                   List<Line> lines, boolean bandwidth, Path dir, String stem) throws IOException {
        if (sweeps(lines)) {
            out.add(save(sizeChart(title, machine, notes, yTitle, lines, bandwidth), title + " — " + machine, dir, stem));
        }
    }

    /**
     * CE_P2P_READ vs CE_NO_P2P vs HOST_STAGED for the first pair of distinct GPUs having two of them (else
     * 0-0); a path without a figure is named under the title with the reason the run recorded.
     */
    private static ChartFile p2pOnOffStaged(ResultData machine, Map<String, List<Measurement>> peerBandwidth,
                                            String name, Path dir, String prefix) throws IOException {
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put("CE_P2P_READ", "P2P on (CE_P2P_READ)");
        paths.put("CE_NO_P2P", "P2P off (CE_NO_P2P, driver stages through the host)");
        paths.put("HOST_STAGED", "host-staged (HOST_STAGED, chunked, double-buffered)");
        List<Map.Entry<String, List<Measurement>>> candidates = new ArrayList<>(peerBandwidth.entrySet());
        candidates.sort(Comparator.comparing(e -> e.getValue().get(0).singleGpu()));
        for (Map.Entry<String, List<Measurement>> e : candidates) {
            List<Measurement> chosen = e.getValue().stream().filter(m -> paths.containsKey(m.key().path())).toList();
            List<Line> lines = lines(chosen, m -> paths.get(m.key().path()));
            if (lines.size() >= 2 && sweeps(lines)) {
                List<String> notes = new ArrayList<>();
                for (String path : paths.keySet()) {
                    if (chosen.stream().noneMatch(m -> m.key().path().equals(path))) {
                        notes.add("No " + paths.get(path).replaceAll(" \\(.*", "") + " series: " + path
                                + " has no figure for this pair" + missingReason(machine, path,
                                pairOf(e.getValue().get(0))) + ".");
                    }
                }
                String title = "P2P on vs off vs host-staged, " + pairTitle(e.getValue().get(0));
                return save(sizeChart(title, name, notes, BANDWIDTH_AXIS, lines, true), title + " — " + name, dir,
                        prefix + "p2p-on-off-staged-" + e.getKey());
            }
        }
        return null;
    }

    /**
     * {@code  (skipped: reason)} for the first peer copy (one way or both ways) of {@code path} and {@code pair}
     * not measured, found by its spec.
     */
    private static String missingReason(ResultData machine, String path, GpuPair pair) {
        return machine.notMeasuredCopy(path, pair).map(n -> " (" + n.status() + ": "
                + (n.reason() == null ? "no reason recorded" : n.reason()) + ")").orElse(" in these runs");
    }

    /** One heatmap per path and size of the pair matrix; row = source, column = destination. */
    private static List<ChartFile> heatmaps(Topology t, List<Measurement> ms, String name, Path dir, String prefix)
            throws IOException {
        Map<String, List<Measurement>> matrices = new TreeMap<>();
        for (Measurement m : matrixCells(ms)) {
            if (m.key().lane() == Lane.ONE_WAY) {
                matrices.computeIfAbsent(m.key().path() + "-" + Sizes.compact(m.key().sizeBytes()), k -> new ArrayList<>())
                        .add(m);
            }
        }
        List<ChartFile> out = new ArrayList<>();
        for (Map.Entry<String, List<Measurement>> e : matrices.entrySet()) {
            List<Integer> gpus = gpuIndices(t, e.getValue());
            List<Number[]> cells = heatmapCells(e.getValue(), gpus);
            if (cells.isEmpty()) {
                continue;
            }
            int n = gpus.size();
            Double[][] values = new Double[n][n];
            for (Number[] c : cells) {
                values[n - 1 - c[1].intValue()][c[0].intValue()] = c[2].doubleValue();
            }
            Measurement first = e.getValue().get(0);
            String title = first.key().path() + " bandwidth matrix, " + Sizes.format(first.key().sizeBytes())
                    + ", median GB/s";
            ChartData heatmap = new ChartData.Heatmap(title, name, gpus.stream().map(g -> "GPU" + g).toList(), values,
                    "Blank: the diagonal (device-local copies) and pairs not measured.");
            out.add(write(heatmap, title + " — " + name, dir, prefix + "heatmap-" + stem(e.getKey())));
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
            GpuPair ends = pairOf(m);
            int src = gpus.indexOf(ends.src());
            int dst = gpus.indexOf(ends.dst());
            if (src != dst) {
                cells.add(new Number[] {dst, gpus.size() - 1 - src, Statistics.bandwidth(m.samples()).median()});
            }
        }
        return cells;
    }

    /**
     * A chart with transfer size on a log2 axis: for {@code bandwidth}, medians with error bars half the
     * t-interval wide on a linear axis; otherwise p99 latency on a log axis. A title of the form
     * {@code what — machine} puts the machine on the subtitle line.
     */
    public static SvgChart.SizeChart sizeChart(String title, String yTitle, List<Line> lines, boolean bandwidth) {
        int dash = title.lastIndexOf(" — ");
        return dash < 0 ? sizeChart(title, "", List.of(), yTitle, lines, bandwidth)
                : sizeChart(title.substring(0, dash), title.substring(dash + 3), List.of(), yTitle, lines, bandwidth);
    }

    static SvgChart.SizeChart sizeChart(String title, String machine, List<String> notes, String yTitle,
                                        List<Line> lines, boolean bandwidth) {
        List<SvgChart.Series> series = new ArrayList<>();
        for (Line line : lines) {
            List<SvgChart.Point> points = new ArrayList<>();
            for (Measurement m : line.points()) {
                if (bandwidth) {
                    Statistics.Bandwidth b = Statistics.bandwidth(m.samples());
                    points.add(new SvgChart.Point(m.key().sizeBytes(), b.median(), b.hasInterval() ? b.halfWidth() : 0));
                } else {
                    points.add(new SvgChart.Point(m.key().sizeBytes(), Statistics.latency(m.samples()).p99(), 0));
                }
            }
            series.add(new SvgChart.Series(line.name(), points, line.dashed()));
        }
        // Bandwidths spanning more than 30x at one size would crowd the small ones onto the axis: log scale.
        double[] ys = series.stream().flatMap(s -> s.points().stream()).mapToDouble(SvgChart.Point::y)
                .filter(v -> v > 0).toArray();
        boolean spread = bandwidth && !sweeps(lines) && ys.length > 1
                && Arrays.stream(ys).max().orElse(1) / Arrays.stream(ys).min().orElse(1) > 30;
        List<String> allNotes = new ArrayList<>(notes);
        if (spread) {
            allNotes.add("Log scale: the figures differ by more than 30x.");
        }
        return new SvgChart.SizeChart(title, machine.isEmpty() ? "" : "on " + machine, allNotes,
                spread ? yTitle + " (log scale)" : yTitle, !bandwidth || spread, !bandwidth,
                machine.isEmpty() ? "" : "Measured on " + machine + ":", series);
    }

    /** Writes {@code chart} as SVG. */
    public static ChartFile save(SvgChart.SizeChart chart, String title, Path dir, String stem) throws IOException {
        return write(chart, title, dir, stem);
    }

    private static ChartFile write(ChartData chart, String title, Path dir, String stem) throws IOException {
        Path file = FileNames.fresh(dir, stem, ".svg");
        AtomicFiles.write(file, chart.svg());
        return new ChartFile(title, file, chart);
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
        GpuPair ends = pairOf(m);
        return "GPU" + ends.src() + "→GPU" + ends.dst() + " (" + m.link() + (m.singleGpu() ? ", " + Measurement.SINGLE_GPU : "")
                + ")";
    }

    /**
     * A file-name-safe form of a label: letters, digits and {@code . _ -}, at most {@value FileNames#MAX_STEM}
     * characters ({@link FileNames#bounded}: a longer label, such as every host name of a 16-rank job, keeps its
     * start and a hash of the whole).
     */
    public static String stem(String label) {
        return FileNames.bounded(label.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^-+|-+$", ""));
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
    static List<Line> lines(List<Measurement> ms, Function<Measurement, String> name) {
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
            gpus.add(pairOf(m).src());
            gpus.add(pairOf(m).dst());
        }
        return new ArrayList<>(gpus);
    }

    /**
     * The peer bandwidth figures of the pair matrix: every path, direction and size the plan measured as
     * {@code matrix}, with the figures of every pair at them (a pair the sweep already measured at that
     * size keeps the sweep's combination, so its group says {@code sweep}).
     */
    public static List<Measurement> matrixCells(List<Measurement> ms) {
        Set<String> matrixKeys = new HashSet<>();
        for (Measurement m : ms) {
            if (m.inMatrix() && m.key().is(Kind.PEER) && m.key().biggerIsBetter()) {
                matrixKeys.add(cellKey(m));
            }
        }
        return ms.stream().filter(m -> m.key().is(Kind.PEER) && m.key().biggerIsBetter()
                && matrixKeys.contains(cellKey(m))).toList();
    }

    private static String cellKey(Measurement m) {
        return m.key().path() + "|" + m.key().direction() + "|" + m.key().sizeBytes();
    }
}
