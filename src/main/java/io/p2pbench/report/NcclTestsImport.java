package io.p2pbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads nccl-tests' JSON output ({@code all_reduce_perf -J out.json}; file version 2 of
 * {@code src/util.cu}) as a baseline: one record per size with out-of-place and in-place time,
 * {@code alg_bw} and {@code bus_bw}. The collective is named only by the program in
 * {@code args[0]}; its GPUs are {@code config.devices}. The out-of-place figures are used (in-place
 * where out-of-place is absent), mapped onto kind {@code nccl} with directions {@code bus} and
 * {@code alg}; bus bandwidth is nccl-tests' own (for all-reduce, algbw x 2(n-1)/n). Each figure is
 * an average over nccl-tests' iterations, one value, no samples.
 */
final class NcclTestsImport {
    private NcclTestsImport() {}

    /** nccl-tests program names and the operation each measures. */
    private static final Map<String, String> OPERATIONS = Map.of(
            "all_reduce_perf", "ALL_REDUCE",
            "all_gather_perf", "ALL_GATHER",
            "reduce_scatter_perf", "REDUCE_SCATTER",
            "alltoall_perf", "ALL_TO_ALL");

    /** Whether a parsed JSON document is nccl-tests'. */
    static boolean recognises(JsonNode root) {
        return root.isObject() && root.has("results") && root.has("config") && root.has("args");
    }

    /** Maps every size of {@code root} onto bus and algorithm bandwidth measurements. */
    static ResultData read(Path file, JsonNode root) throws BadInputException {
        String program = Path.of(root.path("args").path(0).asText("?")).getFileName().toString();
        String operation = OPERATIONS.get(program);
        if (operation == null) {
            throw new BadInputException(file + " is nccl-tests output of '" + program + "', which has no p2pbench "
                    + "counterpart; use one of " + String.join(", ", new java.util.TreeSet<>(OPERATIONS.keySet())));
        }
        List<String> devices = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (JsonNode d : root.path("config").path("devices")) {
            devices.add(d.path("device").asText());
            names.add(d.path("device_info").asText("?"));
        }
        String group = String.join(",", devices);
        String machine = "nccl-tests " + program + " on " + NvbandwidthImport.describe(names) + ", NCCL "
                + ncclVersion(root.path("nccl_version").asInt());
        List<Measurement> out = new ArrayList<>();
        for (JsonNode r : root.path("results")) {
            JsonNode figures = r.path("out_of_place").isObject() ? r.path("out_of_place") : r.path("in_place");
            String path = operation + " " + dtype(r.path("type").asText());
            long size = r.path("size").asLong();
            add(out, machine, path, "bus", group, size, figures.path("bus_bw"));
            add(out, machine, path, "alg", group, size, figures.path("alg_bw"));
        }
        if (out.isEmpty()) {
            throw new BadInputException(file + " holds no nccl-tests results (is the run complete?)");
        }
        return new ResultData(file, file.getFileName().toString(), machine, "nccl-tests JSON v"
                + root.path("version").asText("?"), null, null, List.copyOf(out), List.of(), Map.of(), null);
    }

    private static void add(List<Measurement> out, String machine, String path, String direction, String group,
                            long size, JsonNode value) {
        if (value.isNumber() && Double.isFinite(value.asDouble())) {
            Measurement.Key key = new Measurement.Key(Measurement.BANDWIDTH, "nccl", path, direction, group, size);
            out.add(new Measurement(key, machine, "group of " + group.split(",").length, !group.contains(","),
                    "collective", "nccl-tests", new double[] {value.asDouble()},
                    "nccl-tests " + direction + "_bw (one value)"));
        }
    }

    /** nccl-tests' type names in p2pbench's spelling: {@code float} is {@code FLOAT32}, and so on. */
    static String dtype(String ncclTestsType) {
        return switch (ncclTestsType.toLowerCase(Locale.ROOT)) {
            case "float" -> "FLOAT32";
            case "half" -> "FLOAT16";
            case "double" -> "FLOAT64";
            default -> ncclTestsType.toUpperCase(Locale.ROOT);
        };
    }

    /** NCCL's version code (e.g. 22803) as {@code 2.28.3}. */
    static String ncclVersion(int code) {
        return code <= 0 ? "?" : code / 10000 + "." + code % 10000 / 100 + "." + code % 100;
    }
}
