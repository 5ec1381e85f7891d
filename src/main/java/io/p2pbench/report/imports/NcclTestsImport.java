package io.p2pbench.report.imports;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.Group;
import io.p2pbench.files.OneLine;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.Route;
import io.p2pbench.spec.Kind;
import io.p2pbench.topology.TopologyJson;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests' JSON output ({@code all_reduce_perf -J out.json}; file version 2 of
 * {@code src/util.cu}) as a baseline: one record per size with out-of-place and in-place time,
 * {@code alg_bw} and {@code bus_bw}. The collective is named only by the program in
 * {@code args[0]}; its GPUs are {@code config.devices}. The out-of-place figures are used (in-place
 * where out-of-place is absent), mapped onto kind {@code nccl} with directions {@code bus} and
 * {@code alg}; bus bandwidth is nccl-tests' own (for all-reduce, algbw x 2(n-1)/n). Each figure is
 * an average over nccl-tests' iterations, one value, no samples.
 *
 * <p>Also reads the table nccl-tests prints ({@link #readText}): the {@code # Using devices} rank
 * lines give the GPUs, the column header names the columns, and each row's out-of-place time,
 * algbw and busbw are taken. The printed output does not always name its program: a program name
 * anywhere before the table (a pasted command line, {@code # Collective test starting: ...}) or
 * the caller's operation decides. A row with wrong elements ({@code #wrong} above 0) refuses the
 * file: a baseline whose data was wrong is no baseline.
 */
public final class NcclTestsImport {
    private NcclTestsImport() {}

    /** nccl-tests program names and the operation each measures. */
    private static final Map<String, String> OPERATIONS = Map.of(
            "all_reduce_perf", "ALL_REDUCE",
            "all_gather_perf", "ALL_GATHER",
            "reduce_scatter_perf", "REDUCE_SCATTER",
            "alltoall_perf", "ALL_TO_ALL");

    /**
     * Most ranks a file may list: 2,048 hosts of 8 GPUs, beyond any job a result is compared with. A run across hosts
     * lists every rank of every host; one process drives at most {@link Group#MAX_RANKS}, one machine's GPUs.
     */
    static final int MAX_RANKS = 16_384;

    /**
     * nccl-tests' type names ({@code -d}, as its rows print them), for telling a broken result row from a log line;
     * a row of the header's width with another type is still read.
     */
    private static final Set<String> TYPES = Set.of("int8", "uint8", "int32", "uint32", "int64", "uint64", "half",
            "float", "double", "bfloat16", "bf16", "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2");

    /** The GPU names of the ranks, one per GPU: ranks that share a GPU name it once. */
    private static List<String> perGpu(List<String> devices, List<String> names) {
        Map<String, String> byGpu = new LinkedHashMap<>();
        for (int i = 0; i < devices.size(); i++) {
            byGpu.putIfAbsent(devices.get(i), names.get(i));
        }
        return List.copyOf(byGpu.values());
    }

    /** Whether a parsed JSON document is nccl-tests'. */
    public static boolean recognises(JsonNode root) {
        return root.isObject() && root.has("results") && root.has("config") && root.has("args");
    }

    /** Maps every size of {@code root} onto bus and algorithm bandwidth measurements. */
    public static ResultData read(Path file, JsonNode root) throws BadInputException {
        String program = Path.of(root.path("args").path(0).asText("?")).getFileName().toString();
        String operation = OPERATIONS.get(program.replaceFirst("_mpi$", ""));
        if (operation == null) {
            throw new BadInputException(file + " is nccl-tests output of '" + program + "', which has no p2pbench "
                    + "counterpart; use one of " + String.join(", ", new TreeSet<>(OPERATIONS.keySet()))
                    + " (or their _mpi builds)");
        }
        refuseWrongData(file, root);
        JsonNode listedDevices = root.path("config").path("devices");
        if (!listedDevices.isArray() || listedDevices.isEmpty() || listedDevices.size() > MAX_RANKS) {
            // No rank is no group (new Group refused it as an internal error); more than any cluster's job, a forged
            // file whose every rank this reader would list.
            String problem = listedDevices.isMissingNode() ? "is absent" : !listedDevices.isArray() ? "is not a list"
                    : listedDevices.isEmpty() ? "is empty" : "lists " + listedDevices.size() + " ranks";
            throw new BadInputException(file + ": nccl-tests config.devices " + problem + "; expected the run's GPUs, "
                    + "one entry per rank (1 to " + MAX_RANKS + ")");
        }
        List<String> devices = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Set<String> hosts = new TreeSet<>();
        listedDevices.forEach(d -> hosts.add(d.path("hostname").asText("")));
        for (int i = 0; i < listedDevices.size(); i++) {
            JsonNode index = listedDevices.get(i).path("device");
            if (!index.isIntegralNumber() || !index.canConvertToInt() || index.asInt() < 0
                    || index.asInt() >= TopologyJson.MAX_GPUS) {
                // Absent, text or negative, it made ranks ",,," or "-3,-3" that no run of the suite can match.
                throw new BadInputException(file + ": nccl-tests config.devices[" + i + "].device "
                        + (index.isMissingNode() ? "(none)" : OneLine.shown(index.toString(), 40)) + " is not a GPU index; "
                        + "expected a whole number from 0 to " + (TopologyJson.MAX_GPUS - 1));
            }
        }
        for (JsonNode d : listedDevices) {
            // Across hosts a device number names a GPU only with its host, as in the printed output.
            devices.add((hosts.size() > 1 ? d.path("hostname").asText() + ":" : "") + d.path("device").asText());
            names.add(d.path("device_info").asText("?"));
        }
        // A single process driving N GPUs (-g N, -t T) lists only its first device in the JSON; nccl-tests
        // gives it the N x T devices that follow, so the group is inferred from there.
        long gpusPerThread = Math.max(1, root.path("config").path("ngpus").asLong(1));
        long threads = Math.max(1, root.path("config").path("nthreads").asLong(1));
        long perProcess = Math.min(gpusPerThread, Group.MAX_RANKS + 1) * Math.min(threads, Group.MAX_RANKS + 1);
        if (perProcess > Group.MAX_RANKS) {
            // Each is a rank this reader would list (and allocate); nccl-tests drives a few GPUs per process.
            throw new BadInputException(file + ": config.ngpus x config.nthreads is " + gpusPerThread + " x " + threads
                    + " GPUs per process; nccl-tests drives at most a machine's GPUs from one process, here at most "
                    + Group.MAX_RANKS);
        }
        String inferred = "";
        if (devices.size() == 1 && perProcess > 1 && devices.get(0).matches("\\d+")) {
            int first = Integer.parseInt(devices.get(0));
            for (int i = 1; i < perProcess; i++) {
                devices.add(Integer.toString(first + i));
                names.add(names.get(0));
            }
            inferred = "; group inferred from -g/-t: the JSON lists only device " + first + " of " + perProcess;
        }
        Endpoints.Ranks group = ranks(devices);
        String listed = ResultData.describeGpus(perGpu(devices, names));
        String machine = "nccl-tests " + program + " on " + listed + ", NCCL " + ncclVersion(root.path("nccl_version").asInt());
        List<Measurement> out = new ArrayList<>();
        for (JsonNode r : root.path("results")) {
            JsonNode figures = r.path("out_of_place").isObject() ? r.path("out_of_place") : r.path("in_place");
            String dtype = dtype(r.path("type").asText());
            String path = operation + " " + dtype;
            Route route = Route.collective(BusBandwidth.Operation.valueOf(operation), dtype, false);
            long size = size(file, r.path("size"), r.path("size").toString());
            add(file, out, machine, path, route, Lane.BUS, group, size, number(figures.path("bus_bw")),
                    figures.path("bus_bw").toString(), "nccl-tests bus_bw (one value" + inferred + ")");
            add(file, out, machine, path, route, Lane.ALG, group, size, number(figures.path("alg_bw")),
                    figures.path("alg_bw").toString(), "nccl-tests alg_bw (one value" + inferred + ")");
        }
        if (out.isEmpty()) {
            throw new BadInputException(file + " holds no nccl-tests results (is the run complete?)");
        }
        return new ResultData(file, file.getFileName().toString(), machine, "nccl-tests JSON v"
                + root.path("version").asText("?"), null, null, List.copyOf(out), List.of(), Map.of(), null,
                ResultData.Tool.NCCL_TESTS, listed);
    }

    /** nccl-tests found wrong data: a result's {@code nwrong} above 0, or out-of-bounds values. */
    private static void refuseWrongData(Path file, JsonNode root) throws BadInputException {
        for (JsonNode r : root.path("results")) {
            for (String place : List.of("out_of_place", "in_place")) {
                JsonNode wrong = r.path(place).path("nwrong");
                if (wrong.isNumber() && wrong.asDouble() > 0) {
                    throw new BadInputException(file + ": nccl-tests found " + wrong.asText() + " wrong elements ("
                            + place + " nwrong) at size " + r.path("size").asText() + "; a run with wrong data is no "
                            + "baseline (accepted: nwrong 0 everywhere)");
                }
            }
        }
        JsonNode bounds = root.path("out_of_bounds");
        if (bounds.path("count").asLong(0) > 0 || bounds.path("okay").asText("true").equals("false")) {
            throw new BadInputException(file + ": nccl-tests reports " + bounds.path("count").asText("?")
                    + " out-of-bounds values (out_of_bounds.okay " + bounds.path("okay").asText("?")
                    + "); a run with wrong data is no baseline (accepted: count 0)");
        }
    }

    /**
     * A result's size in bytes: from the JSON node {@code json}, or else the printed {@code text}; one line naming
     * the file and the value when it is no whole number, or beyond what a result can record (64 bits, and far
     * beyond any GPU's memory, {@link Sizes#recordedSizeProblem}).
     */
    private static long size(Path file, JsonNode json, String text) throws BadInputException {
        return size(file, json, text, "");
    }

    /** As {@link #size(Path, JsonNode, String)}; {@code where} ends the message (the printed row). */
    private static long size(Path file, JsonNode json, String text, String where) throws BadInputException {
        long bytes = 0;
        if (json != null ? json.isIntegralNumber() && json.canConvertToLong() : text.matches("\\d{1,19}")) {
            try {
                bytes = json != null ? json.asLong() : Long.parseLong(text);
            } catch (NumberFormatException beyond64Bits) {
                bytes = 0;
            }
        }
        String problem = Sizes.recordedSizeProblem(bytes);
        if (problem != null) {
            throw new BadInputException(file + ": nccl-tests size " + OneLine.shown(text, 40) + " is not a transfer size; "
                    + "expected a whole number of bytes from 1 to " + Sizes.MAX_RECORDED + " ("
                    + Sizes.format(Sizes.MAX_RECORDED) + ")" + where);
        }
        return bytes;
    }

    private static double number(JsonNode value) {
        return value.isNumber() ? value.asDouble() : Double.NaN;
    }

    private static void add(Path file, List<Measurement> out, String machine, String path, Route route,
                            Lane direction, Endpoints.Ranks group, long size, double value, String given,
                            String from) throws BadInputException {
        if (!Measurement.isBandwidth(value)) {
            // Not a number, negative, NaN, absent or too small to be a copy's: named, not dropped as if nccl-tests
            // had printed 0.00.
            throw new BadInputException(file + ": nccl-tests " + (direction == Lane.BUS ? "busbw" : "algbw") + " '"
                    + (given.isEmpty() ? "(none)" : OneLine.shown(given, 40)) + "' at size " + size + " is no bandwidth; "
                    + "expected a number of GB/s from 0 to " + (long) Measurement.MAX_GBPS + ": 0 (no figure) or at "
                    + "least " + Measurement.MIN_POSITIVE_GBPS_TEXT + " (1 B/s)");
        }
        // nccl-tests prints 0.00 bus bandwidth for one rank and for sizes too small to show: no figure to compare.
        if (Double.isFinite(value) && value > 0) {
            Measurement.Key key = new Measurement.Key(Measurement.BANDWIDTH, Kind.NCCL.label(), path, route, direction,
                    group, size);
            out.add(new Measurement(key, machine, "group of " + group.size(), singleGpu(group.ranks()),
                    "collective", "nccl-tests", new double[] {value}, from));
        }
    }

    /** The ranks' GPUs as the file names them: local indices, or {@code host:index} where they are not. */
    private static Endpoints.Ranks ranks(List<String> devices) {
        if (devices.isEmpty() || !devices.stream().allMatch(d -> d.matches("\\d{1,4}"))) {
            return Endpoints.Ranks.ofHosts(devices);
        }
        return Endpoints.Ranks.ofGpus(devices.stream().map(Integer::parseInt).toList());
    }

    /**
     * Whether the ranks' GPUs ({@code 0,0} or {@code hostA:0,hostB:0}) make no interconnect measurement, by the
     * rule the planner labels p2pbench's own NCCL groups with ({@link Group#measuresNoInterconnect()}): one rank,
     * or a GPU that two ranks share.
     */
    static boolean singleGpu(String group) {
        return singleGpu(List.of(group.split(",")));
    }

    private static boolean singleGpu(List<String> gpus) {
        List<String> distinct = gpus.stream().distinct().toList();
        return new Group(gpus.stream().map(distinct::indexOf).toList()).measuresNoInterconnect();
    }

    private static final Pattern RANK = Pattern.compile(
            "^#\\s*Rank\\s+(\\d+)\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+\\d+\\s+on\\s+(\\S+)\\s+device\\s+(\\d+)\\s+\\[[^\\]]*\\]\\s+(.+?)\\s*$");
    private static final Pattern NCCL_VERSION = Pattern.compile("NCCL version (\\d+\\.\\d+\\.\\d+)");
    private static final Pattern HEADER = Pattern.compile("^#\\s*size\\s+count\\s+type\\b.*");
    /** OpenMPI's {@code --tag-output} prefix, {@code [jobid,rank]<stdout>:}. */
    private static final Pattern MPI_TAG = Pattern.compile("^\\[\\d+,\\d+\\]<std(?:out|err)>:\\s?");
    /** nccl-tests' closing check, {@code # Out of bounds values : 3 FAILED}. */
    private static final Pattern OUT_OF_BOUNDS = Pattern.compile("^#\\s*Out of bounds values\\s*:\\s*(\\d+)\\s+(\\S+)");

    /** Lines without OpenMPI's output tags, stripped. */
    static List<String> untagged(String text) {
        return text.lines().map(l -> MPI_TAG.matcher(l).replaceFirst("").strip()).toList();
    }

    /** The file's text when it is small and not one JSON document; null otherwise. */
    public static String textOf(Path file) throws BadInputException {
        try {
            if (Files.size(file) > 16L << 20) {
                return null;
            }
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            return isJson(text) ? null : text;
        } catch (IOException e) {
            throw new BadInputException(file + " cannot be read: " + e.getMessage());
        }
    }

    /**
     * Whether {@code text} is one JSON document. Its first character is not enough: OpenMPI's
     * {@code --tag-output} starts every line with {@code [1,0]<stdout>:}, which opens like a JSON array.
     */
    static boolean isJson(String text) {
        String start = text.stripLeading();
        if (!start.startsWith("{") && !start.startsWith("[")) {
            return false;
        }
        try {
            JSON.readTree(start);
            return true;
        } catch (IOException notJson) {
            return false;
        }
    }

    private static final ObjectMapper JSON = new com.fasterxml.jackson.databind
            .ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Whether {@code text} is nccl-tests' printed output: its column header and at least one rank line. */
    public static boolean recognisesText(String text) {
        List<String> lines = untagged(text);
        return lines.stream().anyMatch(l -> HEADER.matcher(l).matches())
                && lines.stream().anyMatch(l -> RANK.matcher(l).matches());
    }

    /**
     * Maps the printed table onto bus and algorithm bandwidth measurements; {@code operation}
     * ({@code ALL_REDUCE}, ...) names the collective where the text does not, and must agree where it does.
     */
    public static ResultData readText(Path file, String text, String operation) throws BadInputException {
        List<String> lines = untagged(text);
        for (String line : lines) {
            Matcher oob = OUT_OF_BOUNDS.matcher(line);
            if (oob.find() && (Long.parseLong(oob.group(1)) > 0 || !oob.group(2).equals("OK"))) {
                throw new BadInputException(file + ": nccl-tests reports '" + line.substring(1).strip()
                        + "'; a run with wrong data is no baseline (accepted: Out of bounds values : 0 OK)");
            }
        }
        int header = -1;
        for (int i = 0; i < lines.size() && header < 0; i++) {
            if (HEADER.matcher(lines.get(i)).matches()) {
                header = i;
            }
        }
        String op = textOperation(file, lines.subList(0, header), operation);
        List<String> columns = List.of(lines.get(header).substring(1).trim().split("\\s+"));
        int size = columns.indexOf("size");
        int type = columns.indexOf("type");
        int alg = columns.indexOf("algbw");
        int bus = columns.indexOf("busbw");
        int wrong = columns.indexOf("#wrong");
        int wrongInPlace = columns.lastIndexOf("#wrong"); // out-of-place and in-place each have one
        // A row's tokens: one per column, but a "timestamp" column (nccl-tests' -Z) prints a date and a time.
        int width = columns.size() + (columns.get(columns.size() - 1).equals("timestamp") ? 1 : 0);
        if (size < 0 || type < 0 || alg < 0 || bus < 0) {
            throw new BadInputException(file + ": the nccl-tests column header lacks size, type, algbw or busbw: "
                    + lines.get(header));
        }
        Set<String> hosts = new TreeSet<>();
        List<String> devices = new ArrayList<>();
        List<String> names = new ArrayList<>();
        String version = "?";
        for (String line : lines.subList(0, header)) {
            Matcher m = RANK.matcher(line);
            if (m.matches()) {
                if (m.group(3).length() > 3 || Integer.parseInt(m.group(3)) >= TopologyJson.MAX_GPUS) {
                    throw new BadInputException(file + ": nccl-tests rank line '" + shown(line) + "' names device "
                            + m.group(3) + ", which is not a GPU index; expected a whole number from 0 to "
                            + (TopologyJson.MAX_GPUS - 1));
                }
                hosts.add(m.group(2));
                devices.add(m.group(2) + ":" + m.group(3));
                names.add(m.group(4));
            }
            Matcher v = NCCL_VERSION.matcher(line);
            if (v.find()) {
                version = v.group(1);
            }
        }
        if (devices.isEmpty() || devices.size() > MAX_RANKS) {
            throw new BadInputException(file + ": nccl-tests output lists " + (devices.isEmpty() ? "no rank"
                    : devices.size() + " ranks") + " before its table; expected '# Using devices' with one '#  Rank N "
                    + "... device D' line per rank (1 to " + MAX_RANKS + ")");
        }
        Endpoints.Ranks group = ranks(hosts.size() == 1
                ? devices.stream().map(d -> d.substring(d.lastIndexOf(':') + 1)).toList() : devices);
        String program = OPERATIONS.entrySet().stream().filter(e -> e.getValue().equals(op)).findFirst()
                .orElseThrow().getKey();
        String listed = ResultData.describeGpus(perGpu(devices, names))
                + (hosts.size() > 1 ? " (" + hosts.size() + " hosts)" : "");
        String machine = "nccl-tests " + program + " on " + listed + ", NCCL " + version;
        List<Measurement> out = new ArrayList<>();
        for (String line : lines.subList(header + 1, lines.size())) {
            String[] t = line.split("\\s+");
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            // A result row: a known type in the type column, with the header's width or a size that reads as a
            // number (-5, nan: no size, but no log line either). A row with a whole size is one too (as before).
            boolean typed = t.length > type && TYPES.contains(t[type].toLowerCase(Locale.ROOT));
            boolean row = typed && (t.length == width
                    || t.length > size && NUMBER_LIKE.matcher(t[size]).matches());
            boolean numbered = t[0].matches("\\d+") && t.length >= columns.size() / 2;
            if (!row && !numbered) {
                continue; // an interleaved log or warning line
            }
            if (t.length != width && (row || t.length <= Math.max(bus, wrong))) {
                throw new BadInputException(file + ": row '" + shown(line) + "' has " + t.length + " columns; the "
                        + "header has " + width + " (" + String.join(" ", columns) + ")");
            }
            for (int w : new int[] {wrong, wrongInPlace}) {
                if (w >= 0 && w < t.length && t[w].matches("\\d+") && !t[w].matches("0+")) {
                    throw new BadInputException(file + ": nccl-tests found " + t[w] + " wrong elements (#wrong) at "
                            + "size " + t[size] + "; a run with wrong data is no baseline (accepted: #wrong 0)");
                }
            }
            if (t.length != width) {
                continue; // an interleaved log or warning line that happens to start with a number
            }
            String dtype = dtype(t[type]);
            String path = op + " " + dtype;
            Route route = Route.collective(BusBandwidth.Operation.valueOf(op), dtype, false);
            long bytes = size(file, null, t[size], " (row '" + shown(line) + "')");
            add(file, out, machine, path, route, Lane.BUS, group, bytes, parse(t[bus]), t[bus],
                    "nccl-tests busbw, printed (one value)");
            add(file, out, machine, path, route, Lane.ALG, group, bytes, parse(t[alg]), t[alg],
                    "nccl-tests algbw, printed (one value)");
        }
        if (out.isEmpty()) {
            throw new BadInputException(file + " holds no nccl-tests result rows (is the run complete?)");
        }
        return new ResultData(file, file.getFileName().toString(), machine, "nccl-tests printed output", null, null,
                List.copyOf(out), List.of(), Map.of(), null, ResultData.Tool.NCCL_TESTS, listed);
    }

    /**
     * The collective {@code --nccl-tests-op} names ({@code all_reduce} reads as {@code ALL_REDUCE}); a
     * one-line {@link BadInputException} listing the accepted ones for anything else.
     */
    public static String operation(String given) throws BadInputException {
        String op = given.strip().toUpperCase(Locale.ROOT);
        if (!OPERATIONS.containsValue(op)) {
            throw new BadInputException("--nccl-tests-op '" + given + "' is not a collective nccl-tests measures; use "
                    + String.join(", ", new TreeSet<>(OPERATIONS.values())));
        }
        return op;
    }

    /** The collective: named in the text (a program name before the table), by the caller, or both in agreement. */
    private static String textOperation(Path file, List<String> before, String given) throws BadInputException {
        Set<String> named = new LinkedHashSet<>();
        for (String line : before) {
            for (Map.Entry<String, String> e : OPERATIONS.entrySet()) {
                if (line.contains(e.getKey())) {
                    named.add(e.getValue());
                }
            }
        }
        String choices = String.join(", ", new TreeSet<>(OPERATIONS.values()));
        if (given != null) {
            String op = operation(given);
            if (!named.isEmpty() && !named.equals(Set.of(op))) {
                throw new BadInputException(file + " is nccl-tests output of " + String.join(", ", named)
                        + ", not " + op);
            }
            return op;
        }
        if (named.size() != 1) {
            throw new BadInputException(file + " is nccl-tests output that " + (named.isEmpty()
                    ? "does not name its program" : "names several programs (" + String.join(", ", named) + ")")
                    + "; say which with --nccl-tests-op " + choices.replace(", ", "|"));
        }
        return named.iterator().next();
    }

    /** What a size column holding no whole number may still read as: a signed, decimal, nan or inf figure. */
    private static final Pattern NUMBER_LIKE = Pattern.compile(
            "[-+]?(?:\\d+\\.?\\d*(?:[eE][-+]?\\d+)?|\\.\\d+(?:[eE][-+]?\\d+)?|nan|inf(?:inity)?)",
            Pattern.CASE_INSENSITIVE);

    /** A printed row as a message shows it: at most 160 characters. */
    private static String shown(String line) {
        return OneLine.shown(line, 160);
    }

    private static double parse(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return Double.NaN;
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
