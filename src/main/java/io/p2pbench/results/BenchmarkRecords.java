package io.p2pbench.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.spec.Skip;
import io.p2pbench.transfer.SkipCause;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where and how a benchmark fork's records lie beside JMH's own output in a run folder: per-batch samples,
 * the bytes verified over the trial and, when the benchmark cannot run here, the reason it was skipped.
 * The fork writes them through {@code io.p2pbench.fork.ForkChannel}; the executor and the report read them here.
 */
public final class BenchmarkRecords {
    // Compact: samples are the bulk of a result folder (one decimal double per batch and lane).
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private BenchmarkRecords() {}

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

    /** Reads the count of bytes a fork verified; null when the file is missing or does not hold a count. */
    public static Long readVerified(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The text of a skip file: the cause's name on the first line, the reason after it. */
    public static String skipText(SkipCause cause, String reason) {
        return cause.name() + "\n" + reason.strip() + "\n";
    }

    /**
     * Reads a skip file written by {@link #skipText}; a first line that names no cause (a file this suite did not
     * write) reads as {@link SkipCause#OTHER} with the whole text as the reason.
     */
    public static Skip readSkip(Path file) throws IOException {
        String text = Files.readString(file).strip();
        int nl = text.indexOf('\n');
        if (nl > 0) {
            for (SkipCause c : SkipCause.values()) {
                if (c.name().equals(text.substring(0, nl).strip())) {
                    return new Skip(c, text.substring(nl + 1).strip());
                }
            }
        }
        return new Skip(SkipCause.OTHER, text);
    }

    /** The bytes of a samples file before compression: compact JSON and a newline. */
    public static byte[] samplesJson(BatchSamples samples) throws IOException {
        return (MAPPER.writeValueAsString(samples) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Reads a samples file ({@code .json.gz}), or format 1's plain {@code .json}. */
    public static BatchSamples readSamples(Path file) throws IOException {
        return MAPPER.readValue(AtomicFiles.read(file), BatchSamples.class);
    }
}
