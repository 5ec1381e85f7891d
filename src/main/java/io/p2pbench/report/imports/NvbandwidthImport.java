package io.p2pbench.report.imports;

import com.fasterxml.jackson.databind.JsonNode;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.results.Outcome;
import io.p2pbench.report.read.Route;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.TopologyJson;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads nvbandwidth's JSON output ({@code nvbandwidth -j}, checked against v0.8) as a baseline and
 * maps its testcases onto p2pbench's measurements. One value per cell (nvbandwidth reports the
 * median, or the mean with {@code -m}, of its own samples and keeps no samples), at the one buffer
 * size of the run, which the JSON does not record: pass it ({@code -b}, default 512 MiB).
 *
 * <p>Orientation, from nvbandwidth's testcases: in the {@code _read_} matrices cell [i][j] is data
 * moved from GPU j into GPU i by GPU i (our CE_P2P_READ / SM_P2P_READ of pair j-i); in the
 * {@code _write_} matrices it is data from GPU i into GPU j issued by GPU i (CE_P2P_WRITE /
 * SM_P2P_WRITE of pair i-j), except the first matrix of the bidirectional write test, whose
 * measured copy goes from j into i. Bidirectional tests append three matrices to one testcase
 * (first direction, second direction, total); the first and the total are used.
 */
public final class NvbandwidthImport {
    /** nvbandwidth's default buffer size ({@code -b 512}, MiB). */
    static final long DEFAULT_BUFFER_BYTES = 512 * Sizes.MIB;

    private NvbandwidthImport() {}

    /** How one testcase maps onto p2pbench. */
    private enum Mapping {
        H2D("host_to_device_memcpy_ce", "host", Lane.H2D, false),
        D2H("device_to_host_memcpy_ce", "host", Lane.D2H, false),
        H2D_BIDIR("host_to_device_bidirectional_memcpy_ce", "host", Lane.H2D_UNDER_D2H, false),
        D2H_BIDIR("device_to_host_bidirectional_memcpy_ce", "host", Lane.D2H_UNDER_H2D, false),
        CE_READ("device_to_device_memcpy_read_ce", "CE_P2P_READ", Lane.ONE_WAY, true),
        CE_WRITE("device_to_device_memcpy_write_ce", "CE_P2P_WRITE", Lane.ONE_WAY, false),
        CE_BIDIR_READ("device_to_device_bidirectional_memcpy_read_ce", "CE_P2P_READ", Lane.UNDER_REVERSE, true),
        CE_BIDIR_WRITE("device_to_device_bidirectional_memcpy_write_ce", "CE_P2P_WRITE", Lane.UNDER_REVERSE,
                true),
        SM_READ("device_to_device_memcpy_read_sm", "SM_P2P_READ", Lane.ONE_WAY, true),
        SM_WRITE("device_to_device_memcpy_write_sm", "SM_P2P_WRITE", Lane.ONE_WAY, false),
        LOCAL("device_local_copy", "CE_P2P_READ", Lane.ONE_WAY, false);

        final String testcase;
        final String path;
        final Lane direction;
        /** Whether the data of cell [i][j] moves from GPU j to GPU i. */
        final boolean columnToRow;

        Mapping(String testcase, String path, Lane direction, boolean columnToRow) {
            this.testcase = testcase;
            this.path = path;
            this.direction = direction;
            this.columnToRow = columnToRow;
        }

        /** The typed route of a peer testcase's path. */
        Route route() {
            return Route.copy(CopyPath.valueOf(path));
        }

        static Mapping of(String name) {
            for (Mapping m : values()) {
                if (m.testcase.equals(name)) {
                    return m;
                }
            }
            return null;
        }

        boolean bidirectional() {
            return direction == Lane.UNDER_REVERSE;
        }
    }

    /** The status of a testcase p2pbench has no counterpart for: listed, never compared. */
    public static final String NOT_MAPPED = "not mapped";

    /** The testcases p2pbench maps onto its measurements. */
    public static List<String> mappedTestcases() {
        return Arrays.stream(Mapping.values()).map(m -> m.testcase).toList();
    }

    /** Whether a parsed JSON document is nvbandwidth's. */
    public static boolean recognises(JsonNode root) {
        return root.isObject() && root.path("nvbandwidth").has("testcases");
    }

    /** Maps every testcase of {@code root}; {@code bufferBytes} is the run's {@code -b} size. */
    public static ResultData read(Path file, JsonNode root, long bufferBytes) throws BadInputException {
        JsonNode nvb = root.path("nvbandwidth");
        long size = bufferBytes;
        if (nvb.has("bufferSize")) {
            JsonNode mib = nvb.path("bufferSize");
            // In MiB; a value that is no whole number, or too large to be bytes, is refused as the size itself.
            size = mib.isIntegralNumber() && mib.canConvertToLong() && Math.abs(mib.asLong()) <= Sizes.MAX_RECORDED
                    ? mib.asLong() * Sizes.MIB : 0;
            String problem = Sizes.recordedSizeProblem(size);
            if (problem != null) {
                throw new BadInputException(file + ": nvbandwidth.bufferSize " + mib + " (MiB) is not a buffer size; "
                        + "expected a whole number of MiB from 1 to " + (Sizes.MAX_RECORDED / Sizes.MIB));
            }
        }
        JsonNode gpuList = nvb.path("GPU Device list");
        if (!gpuList.isMissingNode() && !gpuList.isArray() || gpuList.size() > TopologyJson.MAX_GPUS) {
            // Each listed GPU is a column of every matrix: a forged list would make a forged matrix look right.
            throw new BadInputException(file + ": nvbandwidth 'GPU Device list' " + (gpuList.isArray() ? "lists "
                    + gpuList.size() + " GPUs" : "is not a list") + "; expected one entry per GPU of the machine, "
                    + "at most " + TopologyJson.MAX_GPUS);
        }
        List<String> gpus = new ArrayList<>();
        for (JsonNode d : gpuList) {
            String s = d.asText();
            int colon = s.indexOf(": ");
            int paren = s.indexOf(" (", colon + 2);
            gpus.add(colon >= 0 && paren > colon ? s.substring(colon + 2, paren) : s);
        }
        String listed = ResultData.describeGpus(gpus);
        String machine = "nvbandwidth " + nvb.path("version").asText("?") + " on " + listed + ", driver "
                + nvb.path("Driver Version").asText("?");
        List<Measurement> out = new ArrayList<>();
        List<ResultData.NotMeasured> notMeasured = new ArrayList<>();
        Map<String, Measurement> seen = new LinkedHashMap<>();
        for (JsonNode tc : nvb.path("testcases")) {
            String name = tc.path("name").asText();
            String status = tc.path("status").asText();
            Mapping m = Mapping.of(name);
            if (!status.equals("Passed")) {
                notMeasured.add(new ResultData.NotMeasured(name, ResultData.Gap.FAILED_OR_OTHER,
                        status.toLowerCase(Locale.ROOT),
                        tc.path("error").asText("reported " + status + " by nvbandwidth"), false));
            } else if (m == null) {
                notMeasured.add(new ResultData.NotMeasured(name, ResultData.Gap.NOT_MAPPED, NOT_MAPPED,
                        "no p2pbench counterpart for this nvbandwidth testcase", false));
            } else {
                Map<String, Integer> skipped = new TreeMap<>();
                cells(file, tc, m, size, gpus.size(), machine, seen, skipped);
                if (!skipped.isEmpty()) {
                    List<String> parts = new ArrayList<>();
                    skipped.forEach((why, count) -> parts.add(count + " x " + why));
                    notMeasured.add(new ResultData.NotMeasured(name + " (some cells)", ResultData.Gap.SKIPPED,
                            Outcome.SKIPPED.text(),
                            "cells without a usable figure were skipped, never compared: " + String.join("; ", parts),
                            false));
                }
            }
        }
        out.addAll(seen.values());
        return new ResultData(file, file.getFileName().toString(), machine, "nvbandwidth " + nvb.path("version")
                .asText("?") + " (-b " + Sizes.format(size) + ")", null, null, List.copyOf(out),
                List.copyOf(notMeasured), Map.of(), null, ResultData.Tool.NVBANDWIDTH, listed);
    }

    /**
     * Maps one testcase's cells. Its matrix is N columns wide, N the GPUs the file lists ({@code listedGpus}), or,
     * where it lists none, at most {@link TopologyJson#MAX_GPUS}: a 300 x 300 matrix in a file of 8 GPUs made 90,000
     * pairs, and minutes of report.
     */
    private static void cells(Path file, JsonNode tc, Mapping m, long size, int listedGpus, String machine,
                              Map<String, Measurement> seen, Map<String, Integer> skipped) throws BadInputException {
        JsonNode matrix = tc.path("bandwidth_matrix");
        if (!matrix.isArray() || !matrix.isEmpty() && !matrix.get(0).isArray()) {
            throw new BadInputException(file + ": testcase " + m.testcase + " has no bandwidth_matrix list of rows; "
                    + shape(m, listedGpus));
        }
        int rows = matrix.size();
        int cols = rows == 0 ? 0 : matrix.get(0).size();
        boolean host = m.path.equals("host");
        boolean square = !host && m != Mapping.LOCAL;
        int expectedRows = expectedRows(m, listedGpus > 0 ? listedGpus : cols);
        boolean wide = listedGpus > 0 ? cols != listedGpus : cols > TopologyJson.MAX_GPUS;
        if (rows != expectedRows || cols == 0 || wide) {
            throw new BadInputException(file + ": testcase " + m.testcase + " has a " + rows + " x " + cols
                    + " matrix; " + shape(m, listedGpus));
        }
        for (int i = 0; i < rows; i++) {
            if (!matrix.get(i).isArray() || matrix.get(i).size() != cols) {
                throw new BadInputException(file + ": testcase " + m.testcase + " has a row of "
                        + (matrix.get(i).isArray() ? matrix.get(i).size() + " cells" : "no cells") + " (row " + i
                        + "); " + shape(m, listedGpus));
            }
        }
        for (int i = 0; i < (square ? cols : 1); i++) {
            for (int j = 0; j < cols; j++) {
                double first = value(matrix.get(i).get(j), skipped);
                int src = square && m.columnToRow ? j : i;
                int dst = square && m.columnToRow ? i : j;
                if (host) {
                    add(seen, machine, new Measurement.Key(Measurement.BANDWIDTH, Kind.HOST.label(), "PINNED LOCAL",
                            Route.host(HostMemory.PINNED), m.direction, new Endpoints.Host(j), size), false, m.testcase,
                            first);
                } else if (m == Mapping.LOCAL) {
                    add(seen, machine, new Measurement.Key(Measurement.BANDWIDTH, Kind.PEER.label(), m.path, m.route(),
                            m.direction, new Endpoints.Pair(new GpuPair(j, j)), size), true, m.testcase, first);
                } else {
                    add(seen, machine, new Measurement.Key(Measurement.BANDWIDTH, Kind.PEER.label(), m.path, m.route(),
                            m.direction, new Endpoints.Pair(new GpuPair(src, dst)), size), false, m.testcase, first);
                    if (m.bidirectional()) {
                        double total = value(matrix.get(2 * cols + i).get(j), skipped);
                        add(seen, machine, new Measurement.Key(Measurement.BANDWIDTH, Kind.PEER.label(), m.path,
                                m.route(), Lane.BOTH_WAYS, new Endpoints.Pair(new GpuPair(i, j)).unordered(), size),
                                false, m.testcase + " (total)", total);
                    }
                }
            }
        }
    }

    /** Rows of a testcase's matrix over {@code gpus} GPUs: one (host, local copy), N, or 3N (bidirectional). */
    private static int expectedRows(Mapping m, int gpus) {
        return m.path.equals("host") || m == Mapping.LOCAL ? 1 : m.bidirectional() ? 3 * gpus : gpus;
    }

    /** The matrix a testcase must have, in words, with what N is. */
    private static String shape(Mapping m, int listedGpus) {
        if (listedGpus > 0) {
            return "the file lists " + listedGpus + " GPUs (GPU Device list); expected " + expectedRows(m, listedGpus)
                    + " x " + listedGpus;
        }
        String rows = m.path.equals("host") || m == Mapping.LOCAL ? "1" : m.bidirectional() ? "3N" : "N";
        return "the file lists no GPU (GPU Device list); expected " + rows + " x N with N from 1 to "
                + TopologyJson.MAX_GPUS;
    }

    /** Keeps the first figure of a key (a bidirectional total appears once per ordered pair). */
    private static void add(Map<String, Measurement> seen, String machine, Measurement.Key key, boolean singleGpu,
                            String test, double value) {
        if (!Double.isNaN(value)) {
            seen.putIfAbsent(key.toString(), new Measurement(key, machine, "?", singleGpu, Combination.MATRIX_GROUP, test,
                    new double[] {value}, "nvbandwidth " + test + " (one value)"));
        }
    }

    /**
     * A cell's bandwidth, or NaN with the reason counted in {@code skipped}: nvbandwidth writes
     * {@code N/A} where it measured nothing (the diagonal of a peer matrix, an unsupported pair); a
     * zero, negative or non-numeric value is no bandwidth either, nor one above 0 but below
     * {@link Measurement#MIN_POSITIVE_GBPS} (5e-324), and a ratio against it would mean nothing.
     */
    private static double value(JsonNode cell, Map<String, Integer> skipped) {
        if (cell == null || cell.isNull()) {
            skipped.merge("null (no figure)", 1, Integer::sum);
            return Double.NaN;
        }
        String text = cell.asText().strip();
        double v;
        try {
            v = cell.isNumber() ? cell.asDouble() : Double.parseDouble(text);
        } catch (NumberFormatException notANumber) {
            skipped.merge(text.equalsIgnoreCase("N/A") ? "'N/A' (not measured by nvbandwidth)"
                    : "'" + text + "' (not a number)", 1, Integer::sum);
            return Double.NaN;
        }
        if (!(v > 0) || !Double.isFinite(v)) {
            skipped.merge("'" + text + "' (not a positive bandwidth)", 1, Integer::sum);
            return Double.NaN;
        }
        if (v < Measurement.MIN_POSITIVE_GBPS) {
            skipped.merge("'" + text + "' (below " + Measurement.MIN_POSITIVE_GBPS_TEXT
                    + " GB/s = 1 B/s: no copy is that slow)", 1, Integer::sum);
            return Double.NaN;
        }
        if (v > Measurement.MAX_GBPS) {
            skipped.merge("'" + text + "' (above " + (long) Measurement.MAX_GBPS + " GB/s: no GPU is that fast)", 1,
                    Integer::sum);
            return Double.NaN;
        }
        return v;
    }
}
