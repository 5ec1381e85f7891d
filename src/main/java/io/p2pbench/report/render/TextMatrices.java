package io.p2pbench.report.render;

import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.spec.Kind;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * nvbandwidth-style text matrices of median bandwidth: GPU x GPU per path for the pair matrix
 * (row = source, column = destination, which is not nvbandwidth's own orientation for its read
 * tests), and host x GPU per host memory placement for host-device copies.
 */
public final class TextMatrices {
    private TextMatrices() {}

    /** One matrix per path, direction and size of the pair matrix, in one text block; empty when there is none. */
    static String peer(List<Measurement> ms, Topology t) {
        Map<String, Map<GpuPair, Measurement>> matrices = new TreeMap<>();
        for (Measurement m : matrixCells(ms)) {
            String title = m.key().path() + " " + m.key().direction() + ", " + Sizes.format(m.key().sizeBytes());
            matrices.computeIfAbsent(title, k -> new LinkedHashMap<>()).put(((Endpoints.Pair) m.key().ends()).pair(), m);
        }
        StringBuilder sb = new StringBuilder();
        boolean local = false;
        for (Map.Entry<String, Map<GpuPair, Measurement>> e : matrices.entrySet()) {
            List<Integer> gpus = gpus(t, e.getValue().keySet());
            List<String[]> rows = new ArrayList<>();
            rows.add(header("src\\dst", gpus.stream().map(String::valueOf).toList()));
            for (int src : gpus) {
                String[] row = new String[gpus.size() + 1];
                row[0] = String.valueOf(src);
                for (int j = 0; j < gpus.size(); j++) {
                    Measurement m = e.getValue().get(new GpuPair(src, gpus.get(j)));
                    row[j + 1] = m == null ? "N/A" : Markdown.number(Statistics.bandwidth(m.samples()).median())
                            + (m.singleGpu() ? "*" : "");
                    local |= m != null && m.singleGpu();
                }
                rows.add(row);
            }
            sb.append(e.getKey()).append(": median GB/s, row = source GPU, column = destination GPU\n")
                    .append(align(rows)).append('\n');
        }
        if (sb.length() > 0) {
            sb.append("N/A: not measured (skipped or failed; see below)");
            sb.append(local ? "\n*: device-local copy, " + Measurement.SINGLE_GPU + "\n" : "\n");
        }
        return sb.toString();
    }

    /** The peer bandwidth figures of the pair matrix ({@link Charts#matrixCells}). */
    public static List<Measurement> matrixCells(List<Measurement> ms) {
        return Charts.matrixCells(ms);
    }

    /** Host x GPU matrices per direction at the size most GPUs were measured at; empty when there is none. */
    static String host(List<Measurement> ms, Topology t) {
        Map<Long, Set<String>> devicesBySize = new TreeMap<>();
        for (Measurement m : ms) {
            if (m.key().is(Kind.HOST) && m.key().biggerIsBetter()) {
                devicesBySize.computeIfAbsent(m.key().sizeBytes(), k -> new TreeSet<>()).add(m.key().pair());
            }
        }
        if (devicesBySize.isEmpty()) {
            return "";
        }
        long size = devicesBySize.entrySet().stream()
                .max((a, b) -> a.getValue().size() != b.getValue().size()
                        ? Integer.compare(a.getValue().size(), b.getValue().size()) : Long.compare(a.getKey(), b.getKey()))
                .orElseThrow().getKey();
        Map<String, Map<String, Map<Integer, Measurement>>> byDirection = new LinkedHashMap<>();
        Set<Integer> gpus = new TreeSet<>();
        if (t != null) {
            t.gpus().forEach(g -> gpus.add(g.index()));
        }
        for (Measurement m : ms) {
            if (m.key().is(Kind.HOST) && m.key().biggerIsBetter() && m.key().sizeBytes() == size
                    && m.key().ends() instanceof Endpoints.Host h) {
                byDirection.computeIfAbsent(m.key().direction(), k -> new TreeMap<>())
                        .computeIfAbsent(m.key().path(), k -> new LinkedHashMap<>()).put(h.gpu(), m);
                gpus.add(h.gpu());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Map<String, Map<Integer, Measurement>>> d : byDirection.entrySet()) {
            List<String[]> rows = new ArrayList<>();
            rows.add(header("host memory", gpus.stream().map(g -> "GPU" + g).toList()));
            for (Map.Entry<String, Map<Integer, Measurement>> path : d.getValue().entrySet()) {
                String[] row = new String[gpus.size() + 1];
                row[0] = path.getKey();
                int j = 1;
                for (int g : gpus) {
                    Measurement m = path.getValue().get(g);
                    row[j++] = m == null ? "N/A" : Markdown.number(Statistics.bandwidth(m.samples()).median());
                }
                rows.add(row);
            }
            sb.append(d.getKey()).append(", ").append(Sizes.format(size))
                    .append(": median GB/s, row = host memory, column = GPU\n").append(align(rows)).append('\n');
        }
        return sb.toString();
    }

    private static String[] header(String corner, List<String> columns) {
        String[] h = new String[columns.size() + 1];
        h[0] = corner;
        for (int i = 0; i < columns.size(); i++) {
            h[i + 1] = columns.get(i);
        }
        return h;
    }

    private static List<Integer> gpus(Topology t, Set<GpuPair> pairs) {
        Set<Integer> out = new TreeSet<>();
        if (t != null) {
            t.gpus().forEach(g -> out.add(g.index()));
        }
        for (GpuPair p : pairs) {
            out.add(p.src());
            out.add(p.dst());
        }
        return new ArrayList<>(out);
    }

    /** First column left-aligned, the others right-aligned, two spaces apart. */
    private static String align(List<String[]> rows) {
        int cols = rows.get(0).length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int c = 0; c < cols; c++) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder(r[0]).append(" ".repeat(width[0] - r[0].length()));
            for (int c = 1; c < cols; c++) {
                line.append("  ").append(" ".repeat(width[c] - r[c].length())).append(r[c]);
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }
}
