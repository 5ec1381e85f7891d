package io.p2pbench.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * One run's folder, {@code <root>/<fingerprint>/<UTC timestamp>/}:
 * <pre>
 *   manifest.json        provenance and every planned benchmark's outcome (rewritten atomically)
 *   topology.json        the machine
 *   jmh/NNN-ID.json      JMH's JSON for each benchmark, as JMH wrote it
 *   jmh-results.json     all of them in one JSON array (for jmh-visualizer and similar tools)
 *   samples/ID.json      per-batch device bandwidth of each bandwidth benchmark
 *   skips/ID.txt         reasons written by forks that found they cannot run here
 *   logs/NNN-ID.log      JMH's console output of each benchmark
 * </pre>
 */
public final class ResultFolder {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

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

    /** Reads manifest.json; a one-line message if it is missing, truncated or of another format. */
    public RunManifest readManifest() throws IOException {
        Path file = dir.resolve("manifest.json");
        if (!Files.isRegularFile(file)) {
            throw new IOException(dir + " is not a p2pbench result folder (no manifest.json)");
        }
        RunManifest m;
        try {
            m = MAPPER.readValue(file.toFile(), RunManifest.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is not a readable p2pbench manifest: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        if (m == null) {
            throw new IOException(file + " is not a p2pbench manifest (it holds JSON null, not an object)");
        }
        if (!RunManifest.FORMAT.equals(m.format())) {
            throw new IOException(file + " has result format '" + m.format() + "'; this p2pbench reads '"
                    + RunManifest.FORMAT + "'");
        }
        return m;
    }

    /** Reads topology.json. */
    public Topology readTopology() throws IOException {
        return TopologyJson.read(dir.resolve("topology.json"));
    }

    /** Rewrites jmh-results.json as one array of every JMH result object of the listed files. */
    public void mergeJmhResults(List<String> jmhFiles) throws IOException {
        List<Object> all = new ArrayList<>();
        for (String f : jmhFiles) {
            all.addAll(MAPPER.readValue(dir.resolve(f).toFile(), List.class));
        }
        AtomicFiles.write(dir.resolve("jmh-results.json"), MAPPER.writeValueAsString(all) + "\n");
    }

    /** Shared JSON configuration for result files. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
