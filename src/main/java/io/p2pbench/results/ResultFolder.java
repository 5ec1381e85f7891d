package io.p2pbench.results;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.p2pbench.files.FileProblem;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One run's folder, {@code <root>/<fingerprint>/<UTC timestamp>/}, format {@code p2pbench-results/2}
 * ({@code docs/results-format.md}):
 * <pre>
 *   manifest.json          provenance and every planned benchmark's outcome (rewritten atomically)
 *   topology.json          the machine
 *   jmh/NNN-ID.json.gz     JMH's JSON for each ok benchmark, byte for byte as JMH wrote it, gzipped
 *   samples/ID.json.gz     per-batch device bandwidth of each bandwidth benchmark, compact JSON, gzipped
 *   logs/NNN-ID.log.gz     JMH's console output, kept only for benchmarks that did not finish ok
 * </pre>
 * There is no merged JMH file: {@link #jmhResultsJson()} builds the array jmh-visualizer reads. Folders
 * of format {@code p2pbench-results/1} (plain files and {@code jmh-results.json}) read the same way;
 * {@link ResultMigration} converts them.
 */
public final class ResultFolder {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // A size of 1.5 bytes was read as 1 and labelled so; a whole-number field takes a whole number.
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

    private final Path dir;

    private ResultFolder(Path dir) {
        this.dir = dir;
    }

    /** Creates a new folder for a run on {@code topology} under {@code root}. */
    public static ResultFolder create(Path root, Topology topology, Instant start) throws IOException {
        Path base = root.resolve(topology.fingerprint());
        Path dir = base.resolve(STAMP.format(start));
        for (int i = 2; Files.exists(dir); i++) {
            dir = base.resolve(STAMP.format(start) + "-" + i);
        }
        Files.createDirectories(dir);
        ResultFolder f = new ResultFolder(dir);
        AtomicFiles.write(dir.resolve("topology.json"), TopologyJson.write(topology));
        return f;
    }

    /** Opens an existing folder (for reading). */
    public static ResultFolder open(Path dir) {
        return new ResultFolder(dir);
    }

    /** The folder. */
    public Path dir() {
        return dir;
    }

    /** Absolute path of a file given relative to the folder. */
    public Path resolve(String relative) {
        return dir.resolve(relative);
    }

    /** Rewrites manifest.json atomically. */
    public void writeManifest(RunManifest manifest) throws IOException {
        AtomicFiles.write(dir.resolve("manifest.json"), MAPPER.writeValueAsString(manifest) + "\n");
    }

    /**
     * Reads manifest.json; a one-line message if it is missing, truncated or of another format, if
     * an entry is null or a file it names or its fingerprint would lead outside the folder, or if one of the
     * folder's own files is a link out of it ({@link ManifestPaths}), or if a value every reader relies on is
     * missing or out of range ({@link ManifestValues}).
     */
    public RunManifest readManifest() throws IOException {
        Path file = dir.resolve("manifest.json");
        String cannot = FileProblem.unreachable(file); // a folder it may not enter: not "no manifest.json"
        if (cannot != null) {
            throw new IOException(file + " cannot be read: " + cannot);
        }
        if (Files.isDirectory(dir)) {
            ManifestPaths.checkOwnFiles(dir); // topology.json, phases.json too: read by every command after this
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException(dir + " is not a p2pbench result folder (no manifest.json)");
        }
        RunManifest m;
        try {
            m = MAPPER.readValue(file.toFile(), RunManifest.class);
        } catch (JacksonException e) {
            if (e instanceof JsonMappingException bad && bad.getCause() instanceof Outcome.UnknownText unknown) {
                // A status or state none of the suite's words: refused, never read as some other outcome.
                throw new IOException(file + ": " + where(bad) + unknown.getMessage());
            }
            throw new IOException(file + " is not a readable p2pbench manifest: " + FileProblem.of(e));
        }
        if (m == null) {
            throw new IOException(file + " is not a p2pbench manifest (it holds JSON null, not an object)");
        }
        if (m.format() == null || !RunManifest.READABLE.contains(m.format())) {
            throw new IOException(file + (m.format() == null ? " has no \"format\" field" : " has result format "
                    + ManifestPaths.quote(m.format())) + "; this p2pbench reads '" + RunManifest.FORMAT_1 + "' and '"
                    + RunManifest.FORMAT + "'");
        }
        // Untrusted: a folder from elsewhere must not name files outside itself (ManifestPaths).
        ManifestPaths.check(dir, file, m);
        ManifestValues.check(file, m);
        return m;
    }

    /** Where in the manifest a value was refused, e.g. {@code entries[3].}, before the field the message names. */
    private static String where(JsonMappingException e) {
        List<JsonMappingException.Reference> path = e.getPath();
        String at = FileProblem.jsonPath(path.subList(0, Math.max(0, path.size() - 1)));
        return at.isEmpty() ? "" : at + ".";
    }

    /** Reads topology.json. */
    public Topology readTopology() throws IOException {
        return TopologyJson.read(dir.resolve("topology.json"));
    }

    /**
     * Stores the JSON file JMH wrote for one benchmark as {@code jmh/STEM.json.gz} (its bytes unchanged,
     * gzipped; written atomically) and deletes {@code jmhOutput}; returns the path relative to the folder.
     */
    public String storeJmh(Path jmhOutput, String stem) throws IOException {
        String rel = "jmh/" + stem + ".json.gz";
        AtomicFiles.writeGzip(dir.resolve(rel), Files.readAllBytes(jmhOutput));
        Files.delete(jmhOutput);
        return rel;
    }

    /**
     * Keeps a benchmark's JMH console log, given relative to the folder, as {@code LOG.gz} when
     * {@code keep} (a benchmark that did not finish ok), else deletes it: an ok benchmark's log is JMH's
     * progress lines and the figures its JSON holds. Returns the relative path kept, or null.
     */
    public String storeLog(String logRel, boolean keep) throws IOException {
        Path log = dir.resolve(logRel);
        if (!Files.isRegularFile(log)) {
            return null;
        }
        if (!keep) {
            Files.delete(log);
            return null;
        }
        String rel = logRel + ".gz";
        AtomicFiles.writeGzip(dir.resolve(rel), Files.readAllBytes(log));
        Files.delete(log);
        return rel;
    }

    /**
     * Every JMH result object of the run in one JSON array, run order, as jmh-visualizer reads it: format
     * 1's {@code jmh-results.json} as stored; for format 2 built from the ok entries' JMH files, exactly as
     * format 1 wrote {@code jmh-results.json}. Empty when no benchmark finished ok.
     */
    public Optional<byte[]> jmhResultsJson() throws IOException {
        RunManifest m = readManifest();
        if (RunManifest.FORMAT_1.equals(m.format())) {
            Path merged = dir.resolve("jmh-results.json");
            return Files.isRegularFile(merged) ? Optional.of(Files.readAllBytes(merged))
                    : Optional.empty();
        }
        List<byte[]> files = new ArrayList<>();
        for (RunManifest.Entry e : m.entries() == null ? List.<RunManifest.Entry>of() : m.entries()) {
            if (e.outcome() == Outcome.OK && e.jmhFile() != null) {
                files.add(readJmhFile(dir.resolve(e.jmhFile())));
            }
        }
        return files.isEmpty() ? Optional.empty() : Optional.of(mergeJmh(files));
    }

    /**
     * The bytes of one benchmark's JMH JSON file (gunzipped when named {@code .gz}), checked to be a
     * whole JSON array; else one line naming the file and what is wrong with it.
     */
    public static byte[] readJmhFile(Path file) throws IOException {
        byte[] bytes = AtomicFiles.read(file);
        try {
            if (!MAPPER.readTree(bytes).isArray()) {
                throw new IOException(file + " is not JMH JSON (expected an array of results)");
            }
        } catch (JacksonException e) {
            throw new IOException(file + " is not readable JMH JSON: " + FileProblem.of(e));
        }
        return bytes;
    }

    /** One JSON array of every result object of the given JMH JSON files (format 1's jmh-results.json). */
    public static byte[] mergeJmh(List<byte[]> jmhFiles) throws IOException {
        List<Object> all = new ArrayList<>();
        for (byte[] f : jmhFiles) {
            all.addAll(MAPPER.readValue(f, new TypeReference<List<Object>>() {}));
        }
        return (MAPPER.writeValueAsString(all) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Shared JSON configuration for result files. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
