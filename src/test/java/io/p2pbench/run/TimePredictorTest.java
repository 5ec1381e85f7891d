package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The calibrated predictor against measured runs: every committed run of one H200 (quick,
 * standard and full presets, including the four quick-preset A/A reruns of 16:50Z, the collective sweep
 * of 17:50Z with the check on every core, and the whole standard preset of 2026-12-04, grouped). For each
 * run the combinations it planned to run are predicted again from the manifest (kind, parameters, size,
 * the run's timing), summed, and compared with the run's wall time (finishedAt - startedAt). The
 * diagnostic runs the grouped-mode constants were fitted to were removed from the tree after f0dd06e
 * (results/h200x1-single-r580/README.md); this test held all 54 runs of that commit.
 */
class TimePredictorTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Path COMMITTED = Path.of("results", "h200x1-single-r580");
    /**
     * Serving runs whose capacity search judged points on latency alone: today's search also stops where the queue
     * grows ({@code serving.Stability}), so it runs other points, and its predicted time is not that run's.
     */
    private static final java.util.Set<String> SEARCHED_ON_LATENCY_ALONE = java.util.Set.of("2026-12-04T16-02-39Z");

    private static Preset.Timing timing(JsonNode t) {
        return new Preset.Timing(t.get("warmupIterations").asInt(), t.get("warmupMillis").asInt(),
                t.get("measurementMillis").asInt());
    }

    /**
     * Predicted seconds of the run's planned combinations, and its wall seconds. The run's settings say how
     * it ran: {@code forkMode} and the CPU cross-check's {@code crossCheckFullBytes} and {@code
     * crossCheckPieceBytes}; without them it ran before fork groups ({@link TimePredictor.RunShape#BEFORE_FORK_GROUPS}).
     */
    private static double[] predictedAndWall(Path manifest) throws IOException {
        JsonNode m = MAPPER.readTree(manifest.toFile());
        Preset.Timing bandwidth = timing(m.at("/settings/bandwidthTiming"));
        Preset.Timing latency = timing(m.at("/settings/latencyTiming"));
        JsonNode s = m.get("settings");
        // Group JVMs reset the GPUs' contexts between combinations on 2026-12-03 (settings.groupContextReset) and
        // reuse their streams since 2026-12-04 (settings.groupContexts).
        TimePredictor.RunShape shape = s.has("forkMode")
                ? new TimePredictor.RunShape(ForkGroups.Mode.valueOf(s.get("forkMode").asText()),
                        s.get("crossCheckFullBytes").asLong(), s.get("crossCheckPieceBytes").asLong(),
                        TimePredictor.RunShape.current().forkSeconds(), TimePredictor.RunShape.current().runStartSeconds(),
                        contexts(s), s.has("groupWarmupMillis") ? s.get("groupWarmupMillis").asInt()
                                : ForkGroups.WARM_WARMUP_MILLIS_BEFORE)
                : TimePredictor.RunShape.BEFORE_FORK_GROUPS;
        List<io.p2pbench.spec.Combination> plan = io.p2pbench.results.ResultFolder.open(manifest.getParent())
                .readManifest().entries().stream().map(io.p2pbench.results.RunManifest.Entry::combination).toList();
        double predicted = TimePredictor.run(plan, Preset.QUICK.withTimings(bandwidth, latency), shape, c -> null)[0];
        double wall = Duration.between(Instant.parse(m.get("startedAt").asText()),
                Instant.parse(m.get("finishedAt").asText())).toMillis() / 1000.0;
        return new double[] {predicted, wall};
    }

    private static List<Path> measuredRuns() throws IOException {
        List<Path> runs = new ArrayList<>();
        try (Stream<Path> s = Files.list(COMMITTED)) {
            s.filter(p -> p.getFileName().toString().startsWith("2026-"))
                    .filter(p -> !SEARCHED_ON_LATENCY_ALONE.contains(p.getFileName().toString()))
                    .map(p -> p.resolve("manifest.json"))
                    .filter(Files::isRegularFile).filter(TimePredictorTest::notAJob).sorted().forEach(runs::add);
        }
        return runs;
    }

    /**
     * A job of several processes ({@code settings.job}: docs/multiprocess.md) is planned and timed by its launcher,
     * not by this predictor.
     */
    private static boolean notAJob(Path manifest) {
        try {
            return !MAPPER.readTree(manifest.toFile()).path("settings").has("job");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void calibratedPredictionIsWithinFifteenPercentOfEveryMeasuredRun() /* plus 2 s under a minute */ throws IOException {
        List<Path> runs = measuredRuns();
        assertTrue(runs.size() >= 15, "expected the 15 committed runs, found " + runs);
        StringBuilder report = new StringBuilder();
        boolean allWithin = true;
        for (Path run : runs) {
            double[] pw = predictedAndWall(run);
            double error = pw[0] / pw[1] - 1;
            report.append(String.format(Locale.ROOT, "%s: predicted %.1f s, wall %.1f s (%+.1f%%)%n",
                    run.getParent().getFileName(), pw[0], pw[1], 100 * error));
            // Both ends of the wall time are whole seconds: runs under a minute get those 2 s on top. A serving run
            // gets 25%: its step model leaves out communication (TP and host-staged sweeps run longer than
            // predicted, 18-16-33Z -10%, 18-37-02Z -13%) and a sweep whose modelled search fills its budget stops
            // on the node before its next point would overrun it (the seven sweeps of 18-23-49Z, +21%); what
            // bounds a serving run is its budget, checked below.
            double allowed = (servingOnly(run) ? 0.25 : 0.15) * pw[1] + (pw[1] < 60 ? 2.0 : 0.0);
            allWithin &= Math.abs(pw[0] - pw[1]) <= allowed;
        }
        io.p2pbench.TestNotes.write("TimePredictorTest-runs", report);
        assertTrue(allWithin, report.toString());
    }

    /**
     * Runs in rounds, on the H100 80GB node (no H200 has run in rounds): 16 quick runs on four hosts, three serving
     * sweeps and five runs of the partition study on two more, which the constants were fitted to (-9.2% to +5.0%),
     * and four quick runs and a partition run on a host held out from the fit (+8.2% to +11.6%, -2.4%: quick runs of
     * 63-74 s between hosts); their wall times (manifests) in
     * {@code src/test/resources/predictor/h100-80gb-hbm3x1-single-r580/runs.tsv}. Each is planned again from its
     * command on the node's topology and predicted as this version runs it (shared JVMs, 4 rounds, the H100's {@link
     * PartitionRates}); each within 15%, the bound of the runs before rounds. Before, a shared JVM's later combination
     * was priced as a grouped one (0.08 s: quick 1m31s for 63-74 s) and the partition study at the H200's rates (2m16s
     * for 169-185 s).
     */
    @Test
    void runsInRoundsOnTheH100NodeArePredictedWithinFifteenPercent() throws IOException {
        Path dir = Path.of("src", "test", "resources", "predictor", "h100-80gb-hbm3x1-single-r580");
        io.p2pbench.topology.Topology t = io.p2pbench.topology.TopologyJson.read(dir.resolve("topology.json"));
        assertEquals(PartitionRates.H100, PartitionRates.of(t));
        TimePredictor.RunShape shape = TimePredictor.RunShape.current().with(PartitionRates.of(t));
        io.p2pbench.collective.Group g = io.p2pbench.collective.Group.parse("0,0");
        Map<String, RunPlanner.Request> requests = Map.of(
                "quick", new RunPlanner.Request(Preset.QUICK, null, null, null),
                "PARTITION", new RunPlanner.Request(Preset.QUICK, null, null, java.util.Set.of(RunPlanner.PARTITION), g,
                        null, null),
                "SERVING", new RunPlanner.Request(Preset.QUICK, null, null, java.util.Set.of(RunPlanner.SERVING), g,
                        "DENSE_8B", java.util.Set.of(io.p2pbench.partition.Plan.SINGLE)));
        Map<String, Double> predicted = new HashMap<>();
        requests.forEach((k, r) -> predicted.put(k, TimePredictor.run(RunPlanner.plan(t, r), Preset.QUICK, shape,
                c -> null)[0]));
        StringBuilder report = new StringBuilder();
        boolean allWithin = true;
        int runs = 0;
        for (String line : Files.readAllLines(dir.resolve("runs.tsv"))) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            double p = predicted.get(f[3]);
            double wall = Double.parseDouble(f[4]);
            report.append(String.format(Locale.ROOT, "%s %s %s: predicted %.1f s, wall %.0f s (%+.1f%%)%n", f[0], f[2],
                    f[3], p, wall, 100 * (p / wall - 1)));
            allWithin &= Math.abs(p / wall - 1) <= 0.15;
            runs++;
        }
        io.p2pbench.TestNotes.write("TimePredictorTest-h100", report);
        assertEquals(29, runs, report.toString());
        assertTrue(allWithin, report.toString());
    }

    /** The partition profile by the GPU's name: the H100's for any H100, the H200's for the rest and for none. */
    @Test
    void partitionRatesGoByTheGpusName() throws IOException {
        assertEquals(PartitionRates.H100, PartitionRates.ofName("NVIDIA H100 80GB HBM3"));
        assertEquals(PartitionRates.H100, PartitionRates.ofName("NVIDIA H100 NVL"));
        assertEquals(PartitionRates.H200, PartitionRates.ofName("NVIDIA H200"));
        assertEquals(PartitionRates.H200, PartitionRates.ofName("NVIDIA L40S"));
        assertEquals(PartitionRates.H200, PartitionRates.ofName(null));
        io.p2pbench.topology.Topology h200 = io.p2pbench.topology.SyntheticTopologies.singleH200();
        assertEquals(PartitionRates.H200, PartitionRates.of(h200));
        // The planner's prediction of a combination (its fork's limit) takes the GPU's rates too.
        io.p2pbench.topology.Topology h100 = io.p2pbench.topology.TopologyJson.read(Path.of("src", "test", "resources",
                "predictor", "h100-80gb-hbm3x1-single-r580", "topology.json"));
        RunPlanner.Request study = new RunPlanner.Request(Preset.QUICK, null, null,
                java.util.Set.of(RunPlanner.PARTITION), io.p2pbench.collective.Group.parse("0,0"), null, null);
        Map<String, Double> onH200 = new HashMap<>();
        RunPlanner.plan(h200, study).forEach(c -> onH200.put(c.id(), c.predictedSeconds()));
        List<io.p2pbench.spec.Combination> onH100 = RunPlanner.plan(h100, study);
        assertTrue(onH100.stream().anyMatch(c -> c.id().startsWith("part-request-")));
        for (io.p2pbench.spec.Combination c : onH100) {
            if (!c.plannedSkip()) {
                assertTrue(c.predictedSeconds() > onH200.get(c.id()), c.id() + ": " + c.predictedSeconds());
            }
        }
    }

    /**
     * A host-staged step adds its boundary bytes at 28 GB/s (DENSE_8B TP prefill: 64 all-reduces of 128 MiB, 0.307 s),
     * scaled steps keep the model's ratio, and a request verifies two steps an iteration.
     */
    @Test
    void stagedBoundariesScaledStepsAndARequestsTwoChecks() {
        var tp = new io.p2pbench.partition.PartitionSpec(io.p2pbench.collective.ModelShape.DENSE_8B,
                io.p2pbench.partition.Plan.TP, 2, io.p2pbench.partition.Phase.PREFILL, 8, 2048, 4096);
        PartitionRates r = PartitionRates.H100;
        double staged = TimePredictor.stepSeconds(tp, 1, io.p2pbench.partition.Transport.HOST_STAGED, r);
        double p2p = TimePredictor.stepSeconds(tp, 1, io.p2pbench.partition.Transport.P2P, r);
        assertEquals(64.0 * (128 << 20) / 28e9, staged - p2p, 1e-9);
        assertEquals(TimePredictor.partitionStepSeconds(tp, 1) * 1.04, p2p, 1e-12);
        Preset.Timing timing = new Preset.Timing(1, 100, 300);
        double request = TimePredictor.partition(timing, 0.6, true, r);
        double step = TimePredictor.partition(timing, 0.6, false, r);
        assertEquals(2 * 0.15, request - step, 1e-12, "two iterations, one more check each");
    }

    /** Whether every combination of the run is a serving sweep. */
    private static boolean servingOnly(Path manifest) throws IOException {
        return io.p2pbench.results.ResultFolder.open(manifest.getParent()).readManifest().entries().stream()
                .allMatch(e -> io.p2pbench.spec.WorkloadSpec.of(e.combination()) instanceof io.p2pbench.spec.Serving);
    }

    @Test
    void everyServingRunOfOneModelFinishedWithinItsBudgetAndTenMinutes() throws IOException {
        int serving = 0;
        for (Path run : measuredRuns()) {
            if (!servingOnly(run)) {
                continue;
            }
            serving++;
            double wall = predictedAndWall(run)[1];
            int sweeps = io.p2pbench.results.ResultFolder.open(run.getParent()).readManifest().entries().size();
            // the quick preset's 450 s for every sweep of one model, a point cut at its cap overrunning by up to
            // 10 s per sweep, and each sweep's own fork, setup, warm-up and checks (ServingPlanner.overheadSeconds)
            double bound = ServingPlanner.budgetSeconds(Preset.QUICK) + sweeps * (10 + ServingPlanner.overheadSeconds());
            assertTrue(wall <= Math.min(bound, 600), run.getParent().getFileName() + ": " + wall + " s for " + sweeps
                    + " sweeps, bound " + bound + " s and 10 minutes");
        }
        assertTrue(serving >= 4, "expected the committed serving runs, found " + serving);
    }

    @Test
    void theQuickPresetAaRerunsArePredictedWithinFifteenPercent() throws IOException {
        // the other two of the four (16-54-38Z, 16-56-32Z) are kept in git at 40c1b4f, not in the tree
        for (String run : List.of("2026-12-02T16-50-50Z", "2026-12-02T16-52-40Z")) {
            double[] pw = predictedAndWall(COMMITTED.resolve(run).resolve("manifest.json"));
            assertEquals(pw[1], pw[0], 0.15 * pw[1], run);
        }
    }

    @Test
    void theCheckTermGrowsWithElementsAndRanksAndTransfersPayOnlyTheirHostSide() {
        Preset.Timing t = new Preset.Timing(1, 100, 300);
        double small = TimePredictor.collective(t, 1L << 20, io.p2pbench.cuda.Nccl.DataType.FLOAT32, 4, false);
        double large = TimePredictor.collective(t, 1L << 30, io.p2pbench.cuda.Nccl.DataType.FLOAT32, 4, false);
        double eight = TimePredictor.collective(t, 1L << 30, io.p2pbench.cuda.Nccl.DataType.FLOAT32, 8, false);
        assertEquals(2 * (large - small), eight - small, 0.05);
        assertEquals(TimePredictor.NCCL_INIT_SECONDS,
                TimePredictor.collective(t, 1L << 20, io.p2pbench.cuda.Nccl.DataType.FLOAT32, 4, true) - small, 1e-12);
        assertEquals(TimePredictor.transfer(io.p2pbench.spec.Kind.PEER, t, 4096, false),
                TimePredictor.transfer(io.p2pbench.spec.Kind.PEER, t, 1L << 30, false), 1e-12);
        assertTrue(TimePredictor.transfer(io.p2pbench.spec.Kind.HOST, t, 1L << 30, true)
                > TimePredictor.transfer(io.p2pbench.spec.Kind.HOST, t, 1L << 30, false));
    }

    /**
     * The step estimate against the forward step's measured device time on the H200 node
     * (docs/notes/forward-step.md, device call 2): prefill 0.410 s (DENSE_8B) and 0.694 s (MOE_8X_TOP2),
     * decode 5.78 ms and 23.6 ms (graphs), within 15%.
     */
    @Test
    void partitionStepEstimateMatchesTheMeasuredSteps() {
        record Case(io.p2pbench.collective.ModelShape model, io.p2pbench.partition.Phase phase, double measured) {}
        for (Case c : List.of(
                new Case(io.p2pbench.collective.ModelShape.DENSE_8B, io.p2pbench.partition.Phase.PREFILL, 0.410),
                new Case(io.p2pbench.collective.ModelShape.MOE_8X_TOP2, io.p2pbench.partition.Phase.PREFILL, 0.694),
                new Case(io.p2pbench.collective.ModelShape.DENSE_8B, io.p2pbench.partition.Phase.DECODE, 0.00578),
                new Case(io.p2pbench.collective.ModelShape.MOE_8X_TOP2, io.p2pbench.partition.Phase.DECODE, 0.0236))) {
            var spec = new io.p2pbench.partition.PartitionSpec(c.model(), io.p2pbench.partition.Plan.SINGLE, 1, c.phase(),
                    8, 2048, 4096);
            double est = TimePredictor.partitionStepSeconds(spec, 1);
            assertTrue(Math.abs(est / c.measured() - 1) < 0.15, c + ": estimated " + est + " s");
        }
    }

    private static ForkGroupMain.Contexts contexts(JsonNode settings) {
        if (settings.has("groupContexts")) {
            return ForkGroupMain.Contexts.of(settings.get("groupContexts").asText());
        }
        return settings.has("groupContextReset") && settings.get("groupContextReset").asBoolean()
                ? ForkGroupMain.Contexts.RESET : ForkGroupMain.Contexts.KEEP;
    }
}
