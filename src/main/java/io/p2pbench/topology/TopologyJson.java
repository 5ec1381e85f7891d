package io.p2pbench.topology;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads and writes {@link Topology} as JSON. */
public final class TopologyJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private TopologyJson() {}

    /** The JSON text of {@code t}. */
    public static String write(Topology t) {
        try {
            return MAPPER.writeValueAsString(t) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise topology", e);
        }
    }

    /** Parses a topology written by {@link #write}; a one-line message on bad input. */
    public static Topology read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + " is not a file");
        }
        try {
            Topology t = MAPPER.readValue(file.toFile(), Topology.class);
            if (t == null) {
                throw new IOException(file + " is not a p2pbench topology (it holds JSON null, not an object)");
            }
            if (t.gpus() == null || t.pairs() == null || t.host() == null) {
                throw new IOException(file + " is not a p2pbench topology (no gpus, pairs or host)");
            }
            String problem = problem(t);
            if (problem != null) {
                throw new IOException(file + " is not a usable p2pbench topology: " + problem);
            }
            return t;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is not a p2pbench topology JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
    }

    /**
     * What makes a parsed topology unusable, or null: every GPU present with indices 0..n-1 once
     * each, and every ordered pair of them listed exactly once with its link class.
     */
    static String problem(Topology t) {
        int n = t.gpus().size();
        if (n == 0) {
            return "\"gpus\" is empty; a topology lists at least one GPU";
        }
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            GpuInfo g = t.gpus().get(i);
            if (g == null) {
                return "gpus[" + i + "] is null";
            }
            if (g.index() < 0 || g.index() >= n || seen[g.index()]) {
                return "gpus[" + i + "] has index " + g.index() + "; the " + n + " GPUs must have indices 0.." + (n - 1)
                        + ", each once";
            }
            seen[g.index()] = true;
            if (g.pciBusId() == null || g.nvlinks() == null || g.nvlinks().contains(null)) {
                return "GPU " + g.index() + " has no " + (g.pciBusId() == null ? "pciBusId" : "nvlinks list");
            }
        }
        if (t.pairs().size() != (long) n * n) {
            return t.pairs().size() + " pairs for " + n + " GPU(s); expected every ordered pair once, " + n * n + " pairs";
        }
        boolean[][] listed = new boolean[n][n];
        for (int i = 0; i < t.pairs().size(); i++) {
            PairInfo p = t.pairs().get(i);
            if (p == null) {
                return "pairs[" + i + "] is null";
            }
            if (p.src() < 0 || p.src() >= n || p.dst() < 0 || p.dst() >= n) {
                return "pairs[" + i + "] is " + p.src() + "-" + p.dst() + ", but the GPUs are 0.." + (n - 1);
            }
            if (listed[p.src()][p.dst()]) {
                return "pair " + p.src() + "-" + p.dst() + " is listed twice";
            }
            listed[p.src()][p.dst()] = true;
            if (p.link() == null) {
                return "pair " + p.src() + "-" + p.dst() + " has no link class (\"link\" is null or missing)";
            }
        }
        return null;
    }

    /** The shared mapper configuration, for other JSON written next to a topology. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
