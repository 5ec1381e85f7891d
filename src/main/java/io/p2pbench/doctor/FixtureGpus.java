package io.p2pbench.doctor;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.p2pbench.cuda.Nvml;
import io.p2pbench.files.FileProblem;
import io.p2pbench.files.OneLine;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.LinkClassifier;
import io.p2pbench.topology.PairInfo;
import io.p2pbench.topology.TopologyJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The driver's answers of a recorded machine: {@code gpus.json} of a fixture folder (the format is
 * in docs/doctor.md). The file is untrusted: every value is checked before use, and a bad one is
 * one line naming the file, the field and what would be accepted. Link classes are not written in
 * the file; they come from the NVLinks and NVML's common-ancestor level as {@link LinkClassifier}
 * derives them on a live machine.
 */
final class FixtureGpus {
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private FixtureGpus() {}

    record File(String problem, String driverVersion, List<Gpu> gpus, Pair pairDefaults, List<Pair> pairs) {}

    record Gpu(Integer index, String name, String pciBusId, Long memoryBytes, Integer pcieGenCurrent, Integer pcieGenMax,
               Integer pcieWidthCurrent, Integer pcieWidthMax, Integer numaNode, List<Link> nvlinks, String nvlinkNote,
               Long bar1TotalBytes, String bar1Problem, Boolean persistenceMode, String persistenceProblem,
               List<Errors> nvlinkErrors, String nvlinkErrorsProblem) {}

    record Link(Integer link, Boolean active, Integer version, String remotePciBusId, String remoteType) {}

    record Errors(Integer link, Long replay, Long recovery, Long crcFlit, Long crcData) {}

    record Pair(Integer src, Integer dst, Boolean canAccessPeer, Boolean accessSupported, Boolean nativeAtomics,
                Integer performanceRank, Integer nvmlAncestor) {}

    /** {@code node} with every control character of its texts (line breaks included) replaced by {@code ?}. */
    private static JsonNode withoutControlCharacters(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (node.isTextual() && node.asText().codePoints().anyMatch(Character::isISOControl)) {
            return TextNode.valueOf(OneLine.printable(node.asText()));
        }
        if (node instanceof ArrayNode a) {
            for (int k = 0; k < a.size(); k++) {
                a.set(k, withoutControlCharacters(a.get(k)));
            }
        } else if (node instanceof ObjectNode o) {
            for (Map.Entry<String, JsonNode> field : (Iterable<Map.Entry<String, JsonNode>>) o::fields) {
                field.setValue(withoutControlCharacters(field.getValue()));
            }
        }
        return node;
    }

    /** Parses and checks {@code text}, read from {@code name}. */
    static GpuAnswers parse(String name, String text) throws IOException {
        if (text.isBlank()) {
            throw new IOException(name + " is empty; expected an object with \"gpus\" and \"pairs\"");
        }
        File f;
        try {
            // Control characters shown as ?, as the terminal writer shows a GPU name's: a line break in a driver
            // version split the doctor's "ok GPUs:" line in two, and reached its JSON as it was.
            f = STRICT.treeToValue(withoutControlCharacters(STRICT.readTree(text)), File.class);
        } catch (JacksonException e) {
            throw new IOException(name + " is not a doctor gpus.json: " + FileProblem.of(e));
        }
        if (f == null) {
            throw new IOException(name + " holds JSON null; expected an object with \"gpus\" and \"pairs\"");
        }
        if (f.problem() != null && !f.problem().isBlank()) {
            return GpuAnswers.unreadable(f.problem());
        }
        if (f.gpus() == null || f.gpus().isEmpty()) {
            throw new IOException(name + ": \"gpus\" is missing or empty; list at least one GPU, or give \"problem\" "
                    + "(why the driver could not be read)");
        }
        int n = f.gpus().size();
        if (n > TopologyJson.MAX_GPUS) {
            throw new IOException(name + ": \"gpus\" lists " + n + " GPUs; p2pbench reads machines of up to "
                    + TopologyJson.MAX_GPUS + " GPUs, as it plans for (a doctor report of that many is "
                    + TopologyJson.MAX_GPUS * (TopologyJson.MAX_GPUS - 1) + " pairs already)");
        }
        List<GpuInfo> infos = new ArrayList<>();
        List<GpuAnswers.Gpu> gpus = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Gpu g = f.gpus().get(i);
            String at = name + ": gpus[" + i + "]";
            if (g == null || g.index() == null || g.index() != i) {
                throw new IOException(at + " must have \"index\": " + i + " (indices 0.." + (n - 1) + " in order)");
            }
            if (g.pciBusId() == null || !PciTree.BUS_ID.matcher(g.pciBusId()).matches()) {
                throw new IOException(at + ".pciBusId " + quote(g.pciBusId()) + " is not a PCI bus id (expected e.g. "
                        + "0000:18:00.0, lower case)");
            }
            require(g.name() != null, at + ".name is missing");
            require(g.memoryBytes() != null && g.memoryBytes() > 0, at + ".memoryBytes must be a byte count above 0");
            range(g.pcieGenCurrent(), 1, 6, at + ".pcieGenCurrent");
            range(g.pcieGenMax(), 1, 6, at + ".pcieGenMax");
            range(g.pcieWidthCurrent(), 1, 32, at + ".pcieWidthCurrent");
            range(g.pcieWidthMax(), 1, 32, at + ".pcieWidthMax");
            range(g.numaNode(), -1, 1023, at + ".numaNode");
            require(g.bar1TotalBytes() == null || g.bar1TotalBytes() > 0, at + ".bar1TotalBytes must be above 0");
            infos.add(new GpuInfo(i, g.name(), null, g.pciBusId(), "?", g.memoryBytes(), 0, 0, g.pcieGenCurrent(),
                    g.pcieGenMax(), g.pcieWidthCurrent(), g.pcieWidthMax(), g.numaNode(), null, links(at, g.nvlinks()),
                    g.nvlinkNote()));
            gpus.add(new GpuAnswers.Gpu(infos.get(i), Answer.ofNullable(g.bar1TotalBytes(), g.bar1Problem()),
                    Answer.ofNullable(g.persistenceMode(), g.persistenceProblem()),
                    Answer.ofNullable(errors(at, g.nvlinkErrors()), g.nvlinkErrorsProblem())));
        }
        return new GpuAnswers("", f.driverVersion(), gpus, pairs(name, f, infos));
    }

    private static List<GpuInfo.NvLinkInfo> links(String at, List<Link> links) throws IOException {
        List<GpuInfo.NvLinkInfo> out = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (Link l : links == null ? List.<Link>of() : links) {
            require(l != null && l.link() != null && l.link() >= 0 && l.link() < 18 && seen.add(l.link()),
                    at + ".nvlinks: each entry needs a \"link\" from 0 to 17, each once");
            require(l.active() != null, at + ".nvlinks link " + l.link() + " needs \"active\": true or false");
            range(l.version(), 1, 9, at + ".nvlinks link " + l.link() + " version");
            require(l.remotePciBusId() == null || PciTree.BUS_ID.matcher(l.remotePciBusId()).matches(),
                    at + ".nvlinks link " + l.link() + " remotePciBusId " + quote(l.remotePciBusId())
                    + " is not a PCI bus id");
            require(l.remoteType() == null || List.of(Nvml.REMOTE_GPU, Nvml.REMOTE_SWITCH, "other").contains(l.remoteType()),
                    at + ".nvlinks link " + l.link() + " remoteType " + quote(l.remoteType()) + " is not gpu, switch or "
                    + "other");
            out.add(new GpuInfo.NvLinkInfo(l.link(), l.active(), l.version(), l.remotePciBusId(), l.remoteType()));
        }
        return out;
    }

    private static List<Nvml.NvLinkErrors> errors(String at, List<Errors> errors) throws IOException {
        if (errors == null) {
            return null;
        }
        List<Nvml.NvLinkErrors> out = new ArrayList<>();
        for (Errors e : errors) {
            require(e != null && e.link() != null && e.link() >= 0 && e.link() < 18, at + ".nvlinkErrors: each entry "
                    + "needs a \"link\" from 0 to 17");
            for (Long v : new Long[] {e.replay(), e.recovery(), e.crcFlit(), e.crcData()}) {
                require(v != null && v >= 0, at + ".nvlinkErrors link " + e.link() + ": replay, recovery, crcFlit and "
                        + "crcData must each be a count of 0 or more");
            }
            out.add(new Nvml.NvLinkErrors(e.link(), e.replay(), e.recovery(), e.crcFlit(), e.crcData()));
        }
        return out;
    }

    private static List<PairInfo> pairs(String name, File f, List<GpuInfo> gpus) throws IOException {
        int n = gpus.size();
        Pair[][] given = new Pair[n][n];
        List<Pair> listed = f.pairs() == null ? List.of() : f.pairs();
        for (int i = 0; i < listed.size(); i++) {
            Pair p = listed.get(i);
            String at = name + ": pairs[" + i + "]";
            require(p != null && p.src() != null && p.dst() != null && p.src() >= 0 && p.src() < n && p.dst() >= 0
                    && p.dst() < n && !p.src().equals(p.dst()), at + " needs \"src\" and \"dst\": two different GPUs of "
                    + "0.." + (n - 1));
            require(given[p.src()][p.dst()] == null, at + ": pair " + p.src() + "-" + p.dst() + " is listed twice");
            given[p.src()][p.dst()] = p;
        }
        Pair d = f.pairDefaults() == null ? new Pair(null, null, null, null, null, null, null) : f.pairDefaults();
        List<PairInfo> out = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            for (int t = 0; t < n; t++) {
                if (s == t) {
                    continue;
                }
                Pair p = given[s][t] == null ? d : given[s][t];
                Boolean can = or(p.canAccessPeer(), d.canAccessPeer());
                require(can != null, name + ": pair " + s + "-" + t + " has no canAccessPeer (give it in \"pairDefaults\" "
                        + "or \"pairs\")");
                Integer ancestor = or(p.nvmlAncestor(), d.nvmlAncestor());
                require(ancestor == null || List.of(0, 10, 20, 30, 40, 50).contains(ancestor), name + ": pair " + s + "-"
                        + t + " nvmlAncestor " + ancestor + " is not an NVML topology level (0, 10, 20, 30, 40 or 50)");
                out.add(new PairInfo(s, t, can, or(p.performanceRank(), d.performanceRank()),
                        or(p.accessSupported(), d.accessSupported()), or(p.nativeAtomics(), d.nativeAtomics()),
                        LinkClassifier.classify(gpus.get(s), gpus.get(t), ancestor), ancestor));
            }
        }
        return out;
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }

    private static void range(Integer v, int min, int max, String what) throws IOException {
        require(v == null || v >= min && v <= max, what + " " + v + " is outside " + min + ".." + max);
    }

    private static void require(boolean ok, String message) throws IOException {
        if (!ok) {
            throw new IOException(message);
        }
    }

    private static String quote(String s) {
        return s == null ? "(missing)" : "'" + PciTree.shorten(s) + "'";
    }
}
