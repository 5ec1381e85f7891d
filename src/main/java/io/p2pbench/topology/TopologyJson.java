package io.p2pbench.topology;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.p2pbench.files.FileProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads and writes {@link Topology} as JSON. */
public final class TopologyJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // 1.5 GPUs, an index of 0.5: refused, not rounded (the message names the field).
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

    private TopologyJson() {}

    /** The JSON text of {@code t}. */
    public static String write(Topology t) {
        try {
            return MAPPER.writeValueAsString(t) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise topology", e);
        }
    }

    /**
     * Parses a topology written by {@link #write}; a one-line message on bad input, naming the field and
     * its value: a topology file may come from anywhere (another machine, a hand edit), so every value
     * the suite uses is checked before it is used ({@link #problem}).
     */
    public static Topology read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + " is not a file");
        }
        String unusable = file + " is not a usable p2pbench topology: ";
        try {
            JsonNode root = MAPPER.readTree(file.toFile());
            if (root == null || root.isNull()) {
                throw new IOException(file + " is not a p2pbench topology (it holds JSON null, not an object)");
            }
            if (!root.isObject() || !root.path("gpus").isArray() || !root.path("pairs").isArray()
                    || !root.path("host").isObject()) {
                throw new IOException(file + " is not a p2pbench topology (no gpus, pairs or host)");
            }
            String problem = treeProblem(root);
            if (problem != null) {
                throw new IOException(unusable + problem);
            }
            Topology t = MAPPER.treeToValue(root, Topology.class);
            problem = problem(t);
            if (problem != null) {
                throw new IOException(unusable + problem);
            }
            return t;
        } catch (JsonMappingException e) {
            String at = FileProblem.jsonPath(e.getPath());
            throw new IOException(at.isEmpty() ? file + " is not a p2pbench topology JSON: " + FileProblem.of(e)
                    : unusable + at + ": " + withoutJacksonHint(firstLine(e)) + expected(e));
        } catch (JacksonException e) {
            throw new IOException(file + " is not a p2pbench topology JSON: " + FileProblem.of(e));
        }
    }

    /** Most GPUs a topology may list: one machine's; every ordered pair is planned and looked up. */
    public static final int MAX_GPUS = 256;

    /** What the JSON tree has that would not survive the mapping to records unnoticed, or null. */
    private static String treeProblem(JsonNode root) {
        JsonNode gpus = root.path("gpus");
        if (gpus.size() > MAX_GPUS) {
            return gpus.size() + " GPUs; p2pbench plans for one machine of up to " + MAX_GPUS + " GPUs (its pair matrix "
                    + "alone would be " + ((long) gpus.size() * gpus.size()) + " pairs)";
        }
        for (int i = 0; i < gpus.size(); i++) {
            JsonNode g = gpus.get(i);
            if (g == null || g.isNull()) {
                return "gpus[" + i + "] is null";
            }
            if (!isWholeNumber(g.get("index"))) {
                return "gpus[" + i + "] has index " + g.get("index") + "; expected a whole number, the CUDA device index";
            }
            JsonNode memory = g.get("memoryBytes");
            if (memory == null || memory.isNull()) {
                return "gpus[" + i + "] has no memoryBytes; expected the GPU's memory in bytes, a whole number above 0";
            }
            if (!memory.isIntegralNumber() || !memory.canConvertToLong() || memory.asLong() <= 0) {
                return "gpus[" + i + "].memoryBytes " + memory + " is not a memory size; expected a whole number of "
                        + "bytes above 0, e.g. 150754820096";
            }
        }
        JsonNode pairs = root.path("pairs");
        for (int i = 0; i < pairs.size(); i++) {
            JsonNode p = pairs.get(i);
            if (p != null && !p.isNull() && !(isWholeNumber(p.get("src")) && isWholeNumber(p.get("dst")))) {
                return "pairs[" + i + "] has src " + p.get("src") + " and dst " + p.get("dst")
                        + "; expected two whole numbers, GPU indices";
            }
            if (p != null && !p.isNull() && !(p.get("canAccessPeer") != null && p.get("canAccessPeer").isBoolean())) {
                // Absent or null was read as false: the plan dropped the pair's P2P benchmarks without a word.
                return "pairs[" + i + "] has canAccessPeer " + p.get("canAccessPeer") + "; expected true or false, "
                        + "what cudaDeviceCanAccessPeer said";
            }
        }
        return null;
    }

    private static boolean isWholeNumber(JsonNode n) {
        return n != null && n.isIntegralNumber() && n.canConvertToInt();
    }

    /** Jackson's message without its advice to reconfigure Jackson, which is no use to the user. */
    private static String withoutJacksonHint(String message) {
        for (String hint : new String[] {" (but could if", " (set DeserializationConfig"}) {
            int at = message.indexOf(hint);
            if (at > 0) {
                message = message.substring(0, at);
            }
        }
        return message;
    }

    /** "; expected a whole number" for the type a field wanted, where Jackson says which. */
    private static String expected(JsonMappingException e) {
        if (!(e instanceof MismatchedInputException m) || m.getTargetType() == null) {
            return "";
        }
        Class<?> type = m.getTargetType();
        if (type == int.class || type == long.class || type == Integer.class || type == Long.class) {
            return "; expected a whole number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "; expected true or false";
        }
        return "; expected " + (type == String.class ? "a string" : "a " + type.getSimpleName());
    }

    private static String firstLine(JacksonException e) {
        return e.getOriginalMessage().lines().findFirst().orElse("");
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
            if (g.name() == null) {
                return "GPU " + g.index() + " has no name; expected its model, e.g. \"NVIDIA H200\"";
            }
            if (g.pciBusId() == null || g.nvlinks() == null || g.nvlinks().contains(null)) {
                return "GPU " + g.index() + " has no " + (g.pciBusId() == null ? "pciBusId" : "nvlinks list");
            }
            String value = gpuValueProblem(g);
            if (value != null) {
                return "gpus[" + i + "]." + value;
            }
        }
        if (t.host().sockets() < 1 || t.host().numaNodes() < 1) {
            return "host." + (t.host().sockets() < 1 ? "sockets " + t.host().sockets() : "numaNodes " + t.host().numaNodes())
                    + " is not a count; expected a whole number of 1 or more";
        }
        if (t.fingerprint() != null && Fingerprint.plainNameProblem(t.fingerprint()) != null) {
            return "fingerprint '" + t.fingerprint() + "' " + Fingerprint.plainNameProblem(t.fingerprint());
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

    /** What is wrong with one GPU's numbers ({@code memoryBytes 0 is ...}), or null. */
    private static String gpuValueProblem(GpuInfo g) {
        if (g.memoryBytes() <= 0) {
            return "memoryBytes " + g.memoryBytes() + " is not a memory size; expected a whole number of bytes above 0";
        }
        if (g.smCount() < 0 || g.copyEngines() < 0) {
            return (g.smCount() < 0 ? "smCount " + g.smCount() : "copyEngines " + g.copyEngines())
                    + " is negative; expected a count of 0 or more";
        }
        String[] names = {"pcieGenCurrent", "pcieGenMax", "pcieWidthCurrent", "pcieWidthMax"};
        Integer[] values = {g.pcieGenCurrent(), g.pcieGenMax(), g.pcieWidthCurrent(), g.pcieWidthMax()};
        for (int k = 0; k < names.length; k++) {
            if (values[k] != null && values[k] < 1) {
                return names[k] + " " + values[k] + " is not a PCIe generation or width; expected 1 or more, or null "
                        + "where unknown";
            }
        }
        if (g.numaNode() != null && g.numaNode() < -1) {
            return "numaNode " + g.numaNode() + " is not a NUMA node; expected 0 or more, or -1 where unknown";
        }
        return null;
    }

    /** The shared mapper configuration, for other JSON written next to a topology. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
