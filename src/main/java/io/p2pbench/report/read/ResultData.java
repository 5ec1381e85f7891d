package io.p2pbench.report.read;

import io.p2pbench.results.Outcome;
import io.p2pbench.results.RunManifest;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything read from one source: a p2pbench result folder, or a baseline imported from NVIDIA's
 * tools (nvbandwidth, nccl-tests), which have no manifest or topology.
 *
 * @param source the folder or file read
 * @param label short name for tables and legends, e.g. {@code FINGERPRINT/UTC-TIME} (the run folder's last two names)
 * @param machine the machine's fingerprint (or, for imports, the GPUs the file lists)
 * @param origin what wrote it, e.g. {@code p2pbench 0.1.0}, {@code nvbandwidth v0.8}
 * @param topology the machine, or null for imports
 * @param manifest the run's manifest, or null for imports
 * @param entries the run's planned combinations, typed, in the manifest's order ({@link ResultReader}); empty for
 *     imports
 * @param measurements every figure read
 * @param notMeasured what was planned or listed but has no figure, with the reason
 * @param unknownKinds kinds this version does not report, with how many results each has
 * @param jmhResults the run's {@code jmh-results.json} (format 1 only), or null; for the JMH JSON of a run of
 *     either format use {@code ResultFolder.jmhResultsJson()}
 * @param tool what wrote it, typed ({@code origin} is its text for the report)
 * @param listedGpus for imports, the GPUs the file lists as {@link #describeGpus} writes them (with the number of
 *     hosts where there are several); null for runs (their topology describes them)
 * @param hostSeconds the host's CPU work of a run: its JVM starts and exits in seconds ({@code phases.json}, launch +
 *     jvm + exit over every benchmark JVM), the same work for every build of one plan; NaN where not known (imports,
 *     a run without a readable {@code phases.json})
 */
public record ResultData(Path source, String label, String machine, String origin, Topology topology,
                         RunManifest manifest, List<RunEntry> entries, List<Measurement> measurements,
                         List<NotMeasured> notMeasured, Map<String, Integer> unknownKinds, Path jmhResults, Tool tool,
                         String listedGpus, double hostSeconds) {

    /** What wrote a source. */
    public enum Tool {
        /** A p2pbench run (a result folder). */
        P2PBENCH,
        /** NVIDIA's nvbandwidth (its JSON output). */
        NVBANDWIDTH,
        /** NVIDIA's nccl-tests (its JSON or printed output). */
        NCCL_TESTS,
        /** A source built without naming its tool (tests, hand-made data). */
        UNNAMED
    }

    /** A source without typed entries: an import, or figures built by hand. */
    public ResultData(Path source, String label, String machine, String origin, Topology topology,
                      RunManifest manifest, List<Measurement> measurements, List<NotMeasured> notMeasured,
                      Map<String, Integer> unknownKinds, Path jmhResults, Tool tool, String listedGpus) {
        this(source, label, machine, origin, topology, manifest, List.of(), measurements, notMeasured, unknownKinds,
                jmhResults, tool, listedGpus, Double.NaN);
    }

    /** A source that does not name its tool: a run where it has a manifest, else {@link Tool#UNNAMED}. */
    public ResultData(Path source, String label, String machine, String origin, Topology topology,
                      RunManifest manifest, List<Measurement> measurements, List<NotMeasured> notMeasured,
                      Map<String, Integer> unknownKinds, Path jmhResults) {
        this(source, label, machine, origin, topology, manifest, measurements, notMeasured, unknownKinds, jmhResults,
                manifest != null ? Tool.P2PBENCH : Tool.UNNAMED, null);
    }

    /** The machine as titles and legends name it, e.g. {@code h200x8-nv18-r580 (8x NVIDIA H200)}. */
    public String machineDescription() {
        return topology == null ? machine : machine + " (" + gpuDescription() + ")";
    }

    /**
     * Which physical GPUs ran it: their UUIDs (sorted, comma-joined) from the run's topology; empty for imports and
     * runs whose topology has none. Runs of one fingerprint on other GPUs are other hosts of the same kind.
     */
    public String host() {
        return topology == null ? "" : String.join(",", topology.gpus().stream().map(g -> g.uuid())
                .filter(u -> u != null && !u.isBlank()).sorted().toList());
    }

    /** The GPUs by model, e.g. {@code 8x NVIDIA H200}; empty for imports. */
    public String gpuDescription() {
        return topology == null ? "" : describeGpus(topology.gpus().stream().map(g -> g.name()).toList());
    }

    /** {@code 8x NVIDIA H200}: GPUs by model, as {@link #gpuDescription()} and the imports write them. */
    public static String describeGpus(List<String> gpus) {
        Map<String, Integer> models = new TreeMap<>();
        gpus.forEach(g -> models.merge(g, 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        models.forEach((name, count) -> parts.add(count + "x " + name));
        return parts.isEmpty() ? "unknown GPUs" : String.join(" + ", parts);
    }

    /**
     * The first combination not measured that is a peer copy of {@code path} ({@code CE_P2P_READ}, ...) and
     * {@code pair}, one way or both ways, found by its spec; empty for imports.
     */
    public Optional<NotMeasured> notMeasuredCopy(String path, GpuPair pair) {
        Map<String, WorkloadSpec> byId = new HashMap<>();
        entries.forEach(e -> {
            if (!byId.containsKey(e.id())) {
                byId.put(e.id(), e.spec());
            }
        });
        return notMeasured.stream().filter(n -> copies(byId.get(n.id()), path, pair)).findFirst();
    }

    private static boolean copies(WorkloadSpec spec, String path, GpuPair pair) {
        return spec != null && spec.peerRoute().filter(r -> r.path().name().equals(path) && r.pair().equals(pair))
                .isPresent();
    }

    /** Whether this came from a p2pbench run (rather than an imported baseline). */
    public boolean isRun() {
        return manifest != null;
    }

    /**
     * A planned or listed combination without a figure.
     *
     * @param id the combination id or test name
     * @param gap what became of it, as a type: what the report and compare decide on
     * @param status the same in words, as recorded, for people: {@code skipped}, {@code failed}, {@code timeout},
     *     {@code interrupted}, {@code pending}, nvbandwidth's {@code waived}, ...
     * @param reason why, as recorded
     * @param singleGpu whether the combination measured no interconnect
     */
    public record NotMeasured(String id, Gap gap, String status, String reason, boolean singleGpu) {
        /** A planned combination of a p2pbench run that did not end {@link Outcome#OK}. */
        public static NotMeasured of(String id, Outcome outcome, String reason, boolean singleGpu) {
            return new NotMeasured(id, outcome == Outcome.SKIPPED ? Gap.SKIPPED : Gap.FAILED_OR_OTHER,
                    outcome == null ? null : outcome.text(), reason, singleGpu);
        }

        /**
         * As the record printed itself before it held its gap (which its status words say for people): the form
         * the committed runs' recorded figures were taken of ({@code CommittedResultsTest}).
         */
        @Override
        public String toString() {
            return "NotMeasured[id=" + id + ", status=" + status + ", reason=" + reason + ", singleGpu=" + singleGpu
                    + "]";
        }
    }

    /** Why a listed combination has no figure. */
    public enum Gap {
        /** Not run here, for a cause the run recorded (or cells nvbandwidth gave no usable figure for). */
        SKIPPED,
        /** An nvbandwidth testcase with no p2pbench counterpart. */
        NOT_MAPPED,
        /** Failed, timed out, interrupted or never reached; for nvbandwidth, any status but Passed. */
        FAILED_OR_OTHER
    }
}
