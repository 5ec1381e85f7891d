package io.p2pbench.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Injects a known change into a COPY of a result folder, to measure what {@code compare} detects
 * ({@code tools/scale-results.sh}, {@code tools/compare-error-rates.sh}): every figure of the
 * chosen manifest entries is multiplied by a factor, bandwidth in {@code samples/ID.json[.gz]}
 * ({@code laneGBps} of every batch) and in the JMH file (every {@code *GBps} secondary metric),
 * latency in the JMH SampleTime histogram (every value, so p50 and every percentile move by the
 * factor). Never used by a benchmark run; the copy's manifest gets {@code "injectedChange"}.
 *
 * <p>Reads and writes both results formats the suite reads ({@link RunManifest#READABLE}): format
 * {@code p2pbench-results/2} (gzipped {@code jmh/} and {@code samples/} files) and format
 * {@code p2pbench-results/1} (plain files; its merged {@code jmh-results.json} is rebuilt from the
 * scaled {@code jmh/} files). A file is written back in the form it was read (gzipped when its name ends
 * in {@code .gz}), samples through {@link BenchmarkRecords}; any other format is refused with one line,
 * so a format change cannot be scaled silently wrong.
 */
public final class ScaleResults {
    private static final ObjectMapper MAPPER = ResultFolder.mapper();

    private ScaleResults() {}

    /**
     * Copies {@code source} to {@code target} and scales the figures of the entries {@code which}
     * accepts (given the combination's id and metric) by {@code factor}; returns the ids scaled.
     */
    public static List<String> scaledCopy(Path source, Path target, Predicate<JsonNode> which, double factor)
            throws IOException {
        if (!(factor > 0) || !Double.isFinite(factor)) {
            throw new BadInputException("factor " + factor + " is not a positive number, e.g. 0.9 or 1.25");
        }
        JsonNode manifest = readManifest(source);
        if (Files.exists(target)) {
            throw new BadInputException(target + " exists; give a new folder for the scaled copy");
        }
        copy(source, target);
        List<String> scaled = new ArrayList<>();
        for (JsonNode e : manifest.path("entries")) {
            JsonNode c = e.path("combination");
            if (!"ok".equals(e.path("status").asText()) || !which.test(c)) {
                continue;
            }
            boolean latency = c.path("metric").asText().equals(Measurement.LATENCY);
            // An entry measured in rounds: every round's files (the entry's own are its first round's).
            List<JsonNode> files = new ArrayList<>();
            e.path("rounds").forEach(files::add);
            if (files.isEmpty()) {
                files.add(e);
            }
            for (JsonNode one : files) {
                scaleFiles(target, one, latency, factor);
            }
            scaled.add(c.path("id").asText());
        }
        if (scaled.isEmpty()) {
            throw new BadInputException(source + " has no ok entry matching the selection; nothing was scaled");
        }
        Path merged = target.resolve("jmh-results.json");
        if (RunManifest.FORMAT_1.equals(manifest.path("format").asText()) && Files.isRegularFile(merged)) {
            // Format 1 keeps every JMH object twice; the merged copy must say what the jmh/ files now say.
            List<byte[]> okJmh = new ArrayList<>();
            for (JsonNode e : manifest.path("entries")) {
                if ("ok".equals(e.path("status").asText()) && e.hasNonNull("jmhFile")) {
                    okJmh.add(AtomicFiles.read(target.resolve(e.path("jmhFile").asText())));
                }
            }
            AtomicFiles.write(merged, ResultFolder.mergeJmh(okJmh));
        }
        ObjectNode m = (ObjectNode) readManifest(target);
        m.put("injectedChange", String.format(Locale.ROOT, "x%s on %s (tools/scale-results.sh; not a real run)",
                factor, String.join(", ", scaled)));
        AtomicFiles.write(target.resolve("manifest.json"), MAPPER.writeValueAsString(m) + "\n");
        return List.copyOf(scaled);
    }

    /** Scales the samples and JMH file that {@code e} (an entry or one of its rounds) names. */
    private static void scaleFiles(Path target, JsonNode e, boolean latency, double factor) throws IOException {
        if (e.hasNonNull("samplesFile") && !latency) {
            Path f = target.resolve(e.path("samplesFile").asText());
            write(f, BenchmarkRecords.samplesJson(scaled(BenchmarkRecords.readSamples(f), factor)));
        }
        if (!e.hasNonNull("jmhFile")) {
            return;
        }
        Path f = target.resolve(e.path("jmhFile").asText());
        ArrayNode results = (ArrayNode) MAPPER.readTree(AtomicFiles.read(f));
        for (JsonNode r : results) {
            if (latency) {
                ObjectNode primary = (ObjectNode) r.path("primaryMetric");
                for (JsonNode fork : primary.path("rawDataHistogram")) {
                    for (JsonNode iteration : fork) {
                        for (JsonNode bin : iteration) {
                            ((ArrayNode) bin).set(0, bin.get(0).asDouble() * factor);
                        }
                    }
                }
                scaleScore(primary, factor);
            } else {
                r.path("secondaryMetrics").properties().forEach(m -> {
                    if (m.getKey().endsWith("GBps")) {
                        scaleScore((ObjectNode) m.getValue(), factor);
                        for (JsonNode fork : m.getValue().path("rawData")) {
                            scaleArray((ArrayNode) fork, factor);
                        }
                    }
                });
            }
        }
        write(f, (MAPPER.writeValueAsString(results) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Selects one entry by combination id. */
    public static Predicate<JsonNode> entry(String id) {
        return c -> c.path("id").asText().equals(id);
    }

    /** Selects every entry of a metric ({@code bandwidth} or {@code latency}). */
    public static Predicate<JsonNode> metric(String metric) {
        return c -> c.path("metric").asText().equals(metric);
    }

    private static JsonNode readManifest(Path dir) throws IOException {
        Path f = dir.resolve("manifest.json");
        if (!Files.isRegularFile(f)) {
            throw new BadInputException(dir + " is not a p2pbench result folder (no manifest.json)");
        }
        JsonNode m = MAPPER.readTree(f.toFile());
        String format = m.path("format").asText("?");
        if (!RunManifest.READABLE.contains(format)) {
            throw new BadInputException(dir + " is results format '" + format + "'; this tool scales "
                    + RunManifest.FORMAT + " and " + RunManifest.FORMAT_1);
        }
        try {
            ResultFolder.open(dir).readManifest(); // refuses files named outside the folder, before any is written
        } catch (IOException e) {
            throw new BadInputException(e.getMessage());
        }
        return m;
    }

    /** The same samples with every lane value of every batch multiplied by {@code factor}. */
    private static BatchSamples scaled(BatchSamples s, double factor) {
        List<BatchSamples.Batch> batches = s.batches().stream().map(b -> new BatchSamples.Batch(b.gated(),
                b.laneGBps().stream().map(v -> v * factor).toList(),
                b.windowGBps() == null ? null : b.windowGBps() * factor)).toList();
        return new BatchSamples(s.id(), s.lanes(), s.bytesPerTransfer(), s.copiesPerBatch(), batches,
                s.bytesVerified());
    }

    /** Writes {@code bytes} in the form the file's name says: gzipped for {@code .gz}, plain otherwise. */
    private static void write(Path file, byte[] bytes) throws IOException {
        if (file.getFileName().toString().endsWith(".gz")) {
            AtomicFiles.writeGzip(file, bytes);
        } else {
            AtomicFiles.write(file, bytes);
        }
    }

    /** JMH's summary of a metric (score, error, confidence, percentiles) moves with its values. */
    private static void scaleScore(ObjectNode metric, double factor) {
        for (String field : List.of("score", "scoreError")) {
            if (metric.path(field).isNumber()) {
                metric.put(field, metric.path(field).asDouble() * factor);
            }
        }
        if (metric.path("scoreConfidence").isArray()) {
            scaleArray((ArrayNode) metric.path("scoreConfidence"), factor);
        }
        if (metric.path("scorePercentiles").isObject()) {
            ObjectNode p = (ObjectNode) metric.path("scorePercentiles");
            p.fieldNames().forEachRemaining(k -> {
                if (p.path(k).isNumber()) {
                    p.put(k, p.path(k).asDouble() * factor);
                }
            });
        }
    }

    private static void scaleArray(ArrayNode values, double factor) {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i).isNumber()) {
                values.set(i, values.get(i).asDouble() * factor);
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t);
                }
            }
        }
    }

    /**
     * {@code ScaleResults SOURCE TARGET FACTOR (--entry ID | --metric bandwidth|latency)}: writes the
     * scaled copy and prints the ids scaled; exit 2 with one line for bad input.
     */
    public static void main(String[] args) {
        try {
            if (args.length != 5 || !(args[3].equals("--entry") || args[3].equals("--metric"))) {
                throw new BadInputException("usage: ScaleResults SOURCE TARGET FACTOR (--entry ID | --metric "
                        + "bandwidth|latency)");
            }
            double factor;
            try {
                factor = Double.parseDouble(args[2]);
            } catch (NumberFormatException e) {
                throw new BadInputException("factor '" + args[2] + "' is not a number, e.g. 0.9 or 1.25");
            }
            if (args[3].equals("--metric") && !List.of("bandwidth", "latency").contains(args[4])) {
                throw new BadInputException("--metric '" + args[4] + "' is not bandwidth or latency");
            }
            Predicate<JsonNode> which = args[3].equals("--entry") ? entry(args[4]) : metric(args[4]);
            scaledCopy(Path.of(args[0]), Path.of(args[1]), which, factor).forEach(System.out::println);
        } catch (IOException e) {
            System.err.println("scale-results: " + e.getMessage());
            System.exit(2);
        }
    }
}
