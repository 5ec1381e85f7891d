package io.p2pbench.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a benchmark fork writes beside JMH's own output, into the run folder the orchestrator
 * names with {@code -Dp2pbench.run.dir} and {@code -Dp2pbench.combination}: per-batch samples, the
 * bytes verified over the trial and, when the benchmark cannot run here, the reason it was skipped. Outside an orchestrated run
 * (plain JMH), nothing is written.
 */
public final class BenchmarkRecords {
    /** System property: the run folder. */
    public static final String RUN_DIR = "p2pbench.run.dir";
    /** System property: the combination id. */
    public static final String COMBINATION = "p2pbench.combination";
    // Compact: samples are the bulk of a result folder (one decimal double per batch and lane).
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private BenchmarkRecords() {}

    /** The run folder and combination id of this fork, if it is part of a p2pbench run. */
    public static Optional<Target> target() {
        String dir = System.getProperty(RUN_DIR);
        String id = System.getProperty(COMBINATION);
        return dir == null || id == null ? Optional.empty() : Optional.of(new Target(Path.of(dir), id));
    }

    /** Where a fork's records go. */
    public record Target(Path runDir, String id) {
        /** The samples file of this combination (compact JSON, gzipped). */
        public Path samplesFile() {
            return runDir.resolve("samples").resolve(id + ".json.gz");
        }

        /** The skip-reason file of this combination. */
        public Path skipFile() {
            return runDir.resolve("skips").resolve(id + ".txt");
        }

        /** The file holding how many bytes this combination's fork verified. */
        public Path verifiedFile() {
            return runDir.resolve("verified").resolve(id + ".txt");
        }
    }

    /** Records how many bytes this fork checked and found right over the trial (no-op outside a run). */
    public static void writeVerified(long bytes) {
        target().ifPresent(t -> {
            try {
                AtomicFiles.write(t.verifiedFile(), bytes + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Reads {@link #writeVerified}'s count; null when the file is missing or does not hold a count. */
    public static Long readVerified(Path file) throws IOException {
        if (!java.nio.file.Files.isRegularFile(file)) {
            return null;
        }
        try {
            return Long.parseLong(java.nio.file.Files.readString(file).strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Writes the samples of this fork's combination (no-op outside a run). */
    public static void writeSamples(BatchSamples samples) {
        target().ifPresent(t -> {
            try {
                AtomicFiles.writeGzip(t.samplesFile(), samplesJson(samples));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Records why this fork's combination is skipped (no-op outside a run). */
    public static void writeSkip(String reason) {
        target().ifPresent(t -> {
            try {
                AtomicFiles.write(t.skipFile(), reason.strip() + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The bytes {@link #writeSamples} compresses: compact JSON and a newline. */
    public static byte[] samplesJson(BatchSamples samples) throws IOException {
        return (MAPPER.writeValueAsString(samples) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Reads samples written by {@link #writeSamples} ({@code .json.gz}), or format 1's plain {@code .json}. */
    public static BatchSamples readSamples(Path file) throws IOException {
        return MAPPER.readValue(AtomicFiles.read(file), BatchSamples.class);
    }
}
