package io.p2pbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How much a figure moves between reruns of the same build on the same machine: the noise floor
 * below which {@code compare} calls no change. A floor is kept per row class (metric x kind and
 * memory x size band, {@link #classOf}) as the largest change |run_a / run_b - 1| of a run-level
 * figure (median over batches; latency: p50) seen between any two runs that share the row.
 *
 * <p>Two sources: the baseline's own runs when it holds two or more ({@link #learn}), and the
 * committed default table {@code noise-floors-h200x1.json} learned from the older committed reruns
 * of the H200 node (regenerate: {@code tools/learn-noise-floors.sh}). Classes the table lacks fall
 * back to the largest floor of the same metric in the table.
 *
 * @param name what the floors were learned from, for the output
 * @param machine the machine they were learned on
 * @param floors floor per class, as a fraction (0.05 = 5%)
 * @param pairs run pairs behind each class
 */
public record NoiseFloors(String name, String machine, Map<String, Double> floors, Map<String, Integer> pairs) {
    /** Resource name of the committed default table. */
    public static final String DEFAULT_RESOURCE = "/io/p2pbench/report/noise-floors-h200x1.json";

    /** The committed default table. */
    public static NoiseFloors defaults() {
        try (InputStream in = NoiseFloors.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + DEFAULT_RESOURCE + " is missing from the build");
            }
            return fromJson(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The row class of a measurement: metric, kind (host: and memory; bidirectional lanes apart), size band. */
    public static String classOf(Measurement.Key k) {
        String kind = k.kind();
        boolean bidir = k.direction().contains("running") || k.direction().contains("(sum)")
                || k.direction().contains("concurrent");
        if (kind.equals("host")) {
            kind = (bidir ? "host-bidir " : "host ") + k.path().split(" ")[0];
        } else if (kind.equals("peer") && bidir) {
            kind = "peer-bidir";
        }
        return k.metric() + " | " + kind + " | " + sizeBand(k.sizeBytes());
    }

    /** Size bands: up to 64 KiB (launch and enqueue bound), up to 16 MiB, above. */
    static String sizeBand(long bytes) {
        if (bytes <= 64 * Sizes.KIB) {
            return "<= 64 KiB";
        }
        return bytes <= 16 * Sizes.MIB ? "64 KiB - 16 MiB" : "> 16 MiB";
    }

    /** The floor of a class (a fraction), with where it came from; NaN when nothing is known of the metric. */
    public Floor floorOf(Measurement.Key k) {
        String c = classOf(k);
        Double f = floors.get(c);
        if (f != null) {
            return new Floor(f, name + ", class " + c);
        }
        double widest = floors.entrySet().stream().filter(e -> e.getKey().startsWith(k.metric() + " |"))
                .mapToDouble(Map.Entry::getValue).max().orElse(Double.NaN);
        return new Floor(widest, name + ", no class " + c + ": widest " + k.metric() + " floor");
    }

    /**
     * A floor and its source.
     *
     * @param fraction the floor, 0.05 = 5%; NaN when unknown
     * @param source where it comes from
     */
    public record Floor(double fraction, String source) {}

    /** Floors learned from reruns: every pair of runs, every row they share. */
    public static NoiseFloors learn(String name, List<ResultData> runs) {
        Map<String, Double> floors = new TreeMap<>();
        Map<String, Integer> pairs = new TreeMap<>();
        List<Map<String, Measurement>> indexed = new ArrayList<>();
        for (ResultData r : runs) {
            Map<String, Measurement> byKey = new LinkedHashMap<>();
            r.measurements().forEach(m -> byKey.put(m.key().toString(), m));
            indexed.add(byKey);
        }
        for (int a = 0; a < runs.size(); a++) {
            for (int b = a + 1; b < runs.size(); b++) {
                java.util.Set<String> classes = new java.util.HashSet<>();
                for (Map.Entry<String, Measurement> e : indexed.get(a).entrySet()) {
                    Measurement other = indexed.get(b).get(e.getKey());
                    if (other == null) {
                        continue;
                    }
                    double x = Comparison.runFigure(e.getValue());
                    double y = Comparison.runFigure(other);
                    if (!(x > 0 && y > 0)) {
                        continue;
                    }
                    String c = classOf(e.getValue().key());
                    double change = Math.max(x / y, y / x) - 1;
                    floors.merge(c, change, Math::max);
                    classes.add(c);
                }
                classes.forEach(c -> pairs.merge(c, 1, Integer::sum));
            }
        }
        String machine = runs.isEmpty() ? "?" : runs.get(0).machine();
        return new NoiseFloors(name, machine, floors, pairs);
    }

    /** As JSON, for the committed table. */
    public ObjectNode toJson(List<String> learnedFrom) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("name", name);
        root.put("machine", machine);
        root.put("method", "per row class (metric | kind | size band): the largest |a/b - 1| of a run-level figure "
                + "(median over batches; latency p50, R-7) between any two runs sharing the row");
        ArrayNode from = root.putArray("learnedFrom");
        learnedFrom.forEach(from::add);
        ArrayNode classes = root.putArray("classes");
        floors.forEach((c, f) -> classes.addObject().put("class", c).put("floor", Math.ceil(f * 1e4) / 1e4)
                .put("runPairs", pairs.getOrDefault(c, 0)));
        return root;
    }

    static NoiseFloors fromJson(JsonNode root) {
        Map<String, Double> floors = new TreeMap<>();
        Map<String, Integer> pairs = new TreeMap<>();
        for (JsonNode c : root.path("classes")) {
            floors.put(c.path("class").asText(), c.path("floor").asDouble());
            pairs.put(c.path("class").asText(), c.path("runPairs").asInt());
        }
        return new NoiseFloors(root.path("name").asText("?"), root.path("machine").asText("?"), floors, pairs);
    }

    /**
     * Learns a table from result folders and writes it as JSON: {@code NoiseFloors OUT.json NAME RUN...}.
     * The committed default is made by {@code tools/learn-noise-floors.sh}.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println("usage: NoiseFloors OUT.json NAME RESULT_DIR RESULT_DIR...");
            System.exit(2);
        }
        List<ResultData> runs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            runs.add(ResultReader.read(Path.of(args[i])));
            names.add(args[i]);
        }
        NoiseFloors table = learn(args[1], runs);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(Path.of(args[0]).toFile(),
                table.toJson(names));
    }
}
