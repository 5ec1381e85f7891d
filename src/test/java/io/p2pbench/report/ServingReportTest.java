package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.Plan;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.report.verdict.ServingVerdict;
import io.p2pbench.report.verdict.Verdict;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.spec.Combination;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.run.Preset;
import io.p2pbench.run.RunPlanner;
import io.p2pbench.serving.CapacitySearch;
import io.p2pbench.serving.KvCapacity;
import io.p2pbench.serving.ModelStepExecutor;
import io.p2pbench.serving.ServingPrediction;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.serving.ServingSession;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.StepCostModel;
import io.p2pbench.serving.StepExecutor;
import io.p2pbench.serving.StepShape;
import io.p2pbench.serving.VirtualClock;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole serving report from a result folder: the planner's sweeps, each served on the step model (a
 * transport's slowdown standing in for its exchanges), its samples written as the benchmark writes them,
 * then read, judged and drawn. No GPU.
 */
class ServingReportTest {
    private static final Path TOPOLOGIES = Path.of("src/test/resources/topologies");

    /** One sweep served on the step model, slowed by {@code slowdown}. */
    static ServingSamples simulate(Combination c, double slowdown, ServingSamples.Breakdown breakdown) {
        ServingSweep sweep = ServingSweep.parse(c.params().get("sweep"));
        Plan plan = Plan.valueOf(c.params().get("plan"));
        Group g = Group.parse(c.params().get("group"));
        ModelShape m = ModelShape.named(c.params().get("model"));
        int ranks = plan == Plan.SINGLE ? 1 : g.size();
        StepCostModel cost = new StepCostModel(m, plan, ranks, plan == Plan.SINGLE ? 1 : g.distinctDevices().length);
        VirtualClock clock = new VirtualClock();
        StepExecutor.StepLimits limits = new StepExecutor.StepLimits(sweep.policy().maxSequences(),
                sweep.workload().maxContextTokens(), sweep.policy().stepTokens());
        KvCapacity kv = ServingPrediction.plannedCapacity(m, plan, g, sweep);
        ServingSession session = new ServingSession(sweep, new ModelStepExecutor(s -> Math.round(cost.nanos(s) * slowdown),
                clock, limits), clock, kv.tokens());
        CapacitySearch.Outcome o = session.search();
        return ServingSamples.of(sweep, "model executor (test fixture)", session.policy(), kv, sweep.plannedGpuBytes(), o,
                breakdown, 4096);
    }

    /** A result folder of the planned serving sweeps over {@code group}, served on the model. */
    static Path folder(Path root, String topology, String group) throws Exception {
        Topology t = TopologyJson.read(TOPOLOGIES.resolve(topology + ".json"));
        List<Combination> plan = RunPlanner.plan(t, new RunPlanner.Request(Preset.QUICK, null, null,
                Set.of(RunPlanner.SERVING), Group.parse(group), null, Set.of(Plan.SINGLE, Plan.TP)));
        ResultFolder folder = ResultFolder.create(root, t, Instant.parse("2026-12-04T12:00:00Z"));
        List<RunManifest.Entry> entries = new ArrayList<>();
        for (Combination c : plan) {
            if (c.plannedSkip()) {
                entries.add(RunManifest.Entry.planned(c));
                continue;
            }
            String transport = c.params().get("transport");
            double slowdown = c.params().get("plan").equals("SINGLE") ? 1 : transport.equals("HOST_STAGED") ? 2.5 : 1;
            ServingSamples.Breakdown b = c.params().get("plan").equals("SINGLE") ? null
                    : new ServingSamples.Breakdown(new StepShape(64, 64L * 600, 0, 0, 0), 9000, 5000,
                    transport.equals("HOST_STAGED") ? 4000 : 300, 0);
            String rel = "samples/" + c.id() + ".json.gz";
            AtomicFiles.writeGzip(folder.resolve(rel), simulate(c, slowdown, b).json());
            entries.add(new RunManifest.Entry(c, "ok", null, null, rel, null, 60.0, "fixture", 4096L));
        }
        folder.writeManifest(new RunManifest(RunManifest.FORMAT, io.p2pbench.topology.TopologyProbe.SUITE_VERSION, null,
                "p2pbench run --paths SERVING", "quick", t.fingerprint(), "2026-12-04T12:00:00Z", "2026-12-04T12:07:00Z",
                "complete", Map.of(), entries));
        return folder.dir();
    }

    @Test
    void oneGpuRendersTheSectionItsChartsAndCannotJudge(@TempDir Path tmp) throws Exception {
        Path run = folder(tmp.resolve("results"), "h200x1-single-r580", "0,0");
        Path out = tmp.resolve("report");
        Path summary = Reporter.render(List.of(run), out);
        String md = Files.readString(summary);
        assertTrue(md.contains("## Does splitting pay at a request rate?"), md);
        assertTrue(md.contains("cannot judge"), md);
        assertTrue(md.contains("this machine cannot judge whether splitting pays"), md);
        for (String chart : new String[] {"serving-ttft-dense_8b.svg", "serving-tpot-dense_8b.svg",
            "serving-capacity-dense_8b.svg"}) {
            Path svg = out.resolve(chart);
            assertTrue(Files.isRegularFile(svg), chart);
            DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile()); // well-formed XML
            assertTrue(md.contains("](" + chart + ")"), "the summary links " + chart);
            assertTrue(Files.readString(svg).contains(PartitionVerdict.SINGLE_GPU), chart);
        }
        assertTrue(Files.readString(out.resolve("serving-ttft-dense_8b.svg")).contains("target 2 s"));
        // the generic chart list does not repeat the serving charts
        assertEquals(1, md.split("serving-ttft-dense_8b.svg", -1).length - 1, md);
    }

    @Test
    void twoGpusJudgeEachTransportAndNameTheRemediesWhereCommunicationIsExposed(@TempDir Path tmp) throws Exception {
        Path run = folder(tmp.resolve("results"), "h200x8-nv18-r580", "0,1");
        List<ServingResults.Sweep> sweeps = ServingResults.read(List.of(ResultReader.read(run)));
        assertEquals(4, sweeps.size(), "SINGLE and TP over three transports");
        List<ServingVerdict.Row> rows = ServingVerdict.judge(sweeps, new PartitionVerdict.Machine("h200x8", 380,
                "0-1 (NV18)"));
        assertEquals(3, rows.size());
        ServingVerdict.Row p2p = rows.stream().filter(r -> r.plan().transport().equals("P2P")).findFirst().orElseThrow();
        ServingVerdict.Row staged = rows.stream().filter(r -> r.plan().transport().equals("HOST_STAGED")).findFirst()
                .orElseThrow();
        // TP over two GPUs halves each step: faster at SINGLE's rate and a higher knee
        assertEquals(Verdict.KEEP, p2p.verdict(), p2p.why());
        // host-staged: 2.5 times slower steps and 44% of a step exposed
        assertEquals(Verdict.REJECT, staged.verdict(), staged.why());
        assertTrue(staged.why().contains("communication-bound: 44% of the step is exposed communication"), staged.why());
        assertTrue(staged.why().contains("0-1 (NV18)") && staged.why().contains("PP instead of TP"), staged.why());
        assertEquals(p2p.ratePerSecond(), staged.ratePerSecond(), "every transport is compared at one rate");
        for (ServingResults.Sweep s : sweeps) {
            for (ServingResults.Point p : s.runs().get(0).points()) {
                assertEquals(200, p.stats().ttft().n());
            }
        }
    }

    @Test
    void aSamplesFileOutsideItsFolderOrWithBadValuesIsOneLine(@TempDir Path tmp) throws Exception {
        Path run = folder(tmp.resolve("results"), "h200x1-single-r580", "0,0");
        Path manifest = run.resolve("manifest.json");
        String original = Files.readString(manifest);
        Files.writeString(manifest, original.replaceFirst("\"samplesFile\"\\s*:\\s*\"samples/",
                "\"samplesFile\" : \"../../"));
        BadInputException outside = assertThrows(BadInputException.class,
                () -> ServingResults.read(List.of(ResultReader.read(run))));
        assertTrue(outside.getMessage().contains("samplesFile") && outside.getMessage().contains("leads out of the folder"), outside.getMessage());
        Files.writeString(manifest, original);
        Path samples;
        try (var s = Files.list(run.resolve("samples"))) {
            samples = s.findFirst().orElseThrow();
        }
        String json = new String(AtomicFiles.read(samples), java.nio.charset.StandardCharsets.UTF_8);
        AtomicFiles.writeGzip(samples, json.replaceFirst("\"windowTokens\":[0-9]+", "\"windowTokens\":-5")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        BadInputException bad = assertThrows(BadInputException.class,
                () -> ServingResults.read(List.of(ResultReader.read(run))));
        assertTrue(bad.getMessage().contains("serving samples with a bad value") && !bad.getMessage().contains("\n"),
                bad.getMessage());
    }
}
