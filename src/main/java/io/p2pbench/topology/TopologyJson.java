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
            if (t.gpus() == null || t.pairs() == null || t.host() == null) {
                throw new IOException(file + " is not a p2pbench topology (no gpus, pairs or host)");
            }
            return t;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is not a p2pbench topology JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
    }

    /** The shared mapper configuration, for other JSON written next to a topology. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
