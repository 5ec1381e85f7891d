package io.p2pbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The synthetic fixtures under src/test/resources/fixtures (made by generator/make_fixtures.py; no
 * GPU ran for them) and ways to damage or change copies of them.
 */
public final class Fixtures {
    /** One H200, quick preset: sweep on pair 0-0, host rows, a failed entry, an unknown kind. */
    public static final Path X1 = Path.of("src/test/resources/fixtures/results/synthetic-h200x1");
    /** Eight H200 over NV18: sweep on 0-0 and 0-1, the 8 x 8 matrix with 3-5 and 5-3 skipped, collectives. */
    public static final Path X8 = Path.of("src/test/resources/fixtures/results/synthetic-h200x8");
    /** nvbandwidth v0.8 -j output for the same eight GPUs (run with -b 256). */
    public static final Path NVBANDWIDTH =
            Path.of("src/test/resources/fixtures/nvbandwidth/synthetic-h200x8-nvbandwidth-v0.8.json");
    /** nccl-tests all_reduce_perf -J output for the same eight GPUs, 1 MiB to 256 MiB. */
    public static final Path NCCL_TESTS =
            Path.of("src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf.json");
    /** The same run as nccl-tests prints it (the table), without the program's name. */
    public static final Path NCCL_TESTS_TEXT =
            Path.of("src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf.txt");

    /** The NVBANDWIDTH run with the testcases p2pbench has no counterpart for that a plain run lists. */
    public static final Path NVBANDWIDTH_UNMAPPED = Path.of(
            "src/test/resources/fixtures/nvbandwidth/synthetic-h200x8-nvbandwidth-v0.8-unmapped-testcases.json");
    /**
     * nccl-tests all_reduce_perf_mpi, two ranks on GPU 0 of one H200, as {@code mpirun --tag-output} writes it
     * (every line tagged, the first one too), 1 MiB to 256 MiB; written by hand.
     */
    public static final Path NCCL_TESTS_TWO_RANKS_ONE_GPU = Path.of(
            "src/test/resources/fixtures/nccl-tests/synthetic-h200x1-all_reduce_perf_mpi-2ranks-1gpu-tag-output.txt");

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Fixtures() {}

    /** Copies a fixture folder into {@code target} (created). */
    public static Path copy(Path fixture, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(fixture)) {
            for (Path f : files.toList()) {
                Path to = target.resolve(fixture.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        return target;
    }

    /** Multiplies every bandwidth figure of a result folder copy (samples and JMH GB/s metrics) by {@code factor}. */
    public static void scaleBandwidth(Path dir, double factor) throws IOException {
        for (Path f : list(dir.resolve("samples"))) {
            ObjectNode s = (ObjectNode) MAPPER.readTree(f.toFile());
            for (JsonNode batch : s.path("batches")) {
                ArrayNode lanes = (ArrayNode) batch.path("laneGBps");
                for (int i = 0; i < lanes.size(); i++) {
                    lanes.set(i, lanes.get(i).asDouble() * factor);
                }
            }
            MAPPER.writeValue(f.toFile(), s);
        }
        for (Path f : list(dir.resolve("jmh"))) {
            ArrayNode results = (ArrayNode) MAPPER.readTree(f.toFile());
            for (JsonNode r : results) {
                r.path("secondaryMetrics").properties().forEach(e -> {
                    if (e.getKey().endsWith("GBps")) {
                        for (JsonNode fork : e.getValue().path("rawData")) {
                            for (int i = 0; i < fork.size(); i++) {
                                ((ArrayNode) fork).set(i, fork.get(i).asDouble() * factor);
                            }
                        }
                    }
                });
            }
            MAPPER.writeValue(f.toFile(), results);
        }
    }

    /** Cuts a file in half, as an interrupted copy would. */
    public static void truncate(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    }

    /** Sets one top-level field of a copy's manifest.json. */
    public static void setManifestField(Path dir, String field, String value) throws IOException {
        Path manifest = dir.resolve("manifest.json");
        ObjectNode m = (ObjectNode) MAPPER.readTree(manifest.toFile());
        m.put(field, value);
        MAPPER.writeValue(manifest.toFile(), m);
    }

    /** The first file under {@code dir} whose name contains {@code part}. */
    public static Path find(Path dir, String part) {
        return list(dir).stream().filter(f -> f.getFileName().toString().contains(part)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no file with '" + part + "' in " + dir));
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
