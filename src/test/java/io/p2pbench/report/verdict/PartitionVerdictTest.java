package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.partition.Plan;
import io.p2pbench.report.Fixtures;
import io.p2pbench.report.Reporter;
import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.render.HtmlReport;
import io.p2pbench.report.render.PartitionSection;
import io.p2pbench.report.verdict.PartitionVerdict.Figure;
import io.p2pbench.report.verdict.PartitionVerdict.Row;
import io.p2pbench.transfer.SkipCause;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keep/reject logic of "Does splitting pay?" on fixture figures. */
class PartitionVerdictTest {
    private static Figure fig(String plan, String transport, boolean oneGpu, List<Double> tokens, List<Double> request,
                              double comm, double bus, String skip) {
        return new Figure("h200x8", "DENSE_8B", "DECODE", 8, true, Plan.valueOf(plan), transport, oneGpu ? "0,0" : "0,1", oneGpu, tokens, List.of(), request,
                comm, bus, skip);
    }

    /** A figure that did not run, for {@code cause}. */
    private static Figure skipped(String plan, SkipCause cause, String reason) {
        return new Figure("h200x8", "DENSE_8B", "DECODE", 8, true, Plan.valueOf(plan), "P2P", "0,1", false, List.of(),
                List.of(), List.of(), 0, 0, reason, cause);
    }

    private static Row only(List<Figure> figures) {
        List<Row> rows = PartitionVerdict.judge(figures, 400, "0-1, 2-3 (NV18)");
        assertEquals(1, rows.size());
        return rows.get(0);
    }

    @Test
    void keepsOnlyAGainBeyondTheFloor() {
        Figure single = fig("SINGLE", "P2P", false, List.of(1000.0, 1010.0), List.of(500e3, 505e3), 0, 0, null);
        Row gain = only(List.of(single, fig("TP", "P2P", false, List.of(1300.0, 1290.0), List.of(480e3, 470e3), 0.1, 300,
                null)));
        assertEquals(Verdict.KEEP, gain.verdict(), gain.why());
        Row small = only(List.of(single, fig("TP", "P2P", false, List.of(1050.0, 1060.0), List.of(490e3, 495e3), 0.1,
                300, null)));
        assertEquals(Verdict.REJECT, small.verdict(), small.why());
        // the request latency alone beyond its floor keeps the plan
        Row tail = only(List.of(single, fig("PP", "P2P_OFF", false, List.of(990.0, 1000.0), List.of(300e3, 310e3), 0.1,
                10, null)));
        assertEquals(Verdict.KEEP, tail.verdict(), tail.why());
    }

    @Test
    void theFloorRisesToTheSpreadBetweenRunsAndOneRunIsFlagged() {
        Figure single = fig("SINGLE", "P2P", false, List.of(1000.0, 1400.0), List.of(), 0, 0, null);
        Row noisy = only(List.of(single, fig("TP", "P2P", false, List.of(1500.0, 1500.0), List.of(), 0, 0, null)));
        assertEquals(Verdict.REJECT, noisy.verdict(), "1500 vs median 1200 is +25%, inside the 40% spread: " + noisy.why());
        Row one = only(List.of(fig("SINGLE", "P2P", false, List.of(1000.0), List.of(), 0, 0, null),
                fig("TP", "P2P", false, List.of(1500.0), List.of(), 0, 0, null)));
        assertEquals(Verdict.KEEP, one.verdict());
        assertTrue(one.why().contains("n too small"), one.why());
    }

    @Test
    void theSkipCauseDecidesNotTheWordsOfItsReason() {
        Figure tp = fig("TP", "P2P", false, List.of(100.0), List.of(), 0.2, 300, null);
        Row reworded = only(List.of(skipped("SINGLE", SkipCause.DOES_NOT_FIT,
                "weights and KV need 150.0 GiB on one GPU, which has 141.0 GiB"), tp));
        assertEquals(Verdict.KEEP, reworded.verdict(), reworded.why());
        assertTrue(reworded.why().contains("which has 141.0 GiB"), reworded.why());
        Row otherCause = only(List.of(skipped("SINGLE", SkipCause.DOES_NOT_DIVIDE,
                "does not fit the words a verdict once looked for"), tp));
        assertEquals(Verdict.NO_VERDICT, otherCause.verdict(), otherCause.why());
    }

    @Test
    void keepsWhenSingleDoesNotFitAndJudgesNothingOnOneGpu() {
        Row capacity = only(List.of(skipped("SINGLE", SkipCause.DOES_NOT_FIT,
                "does not fit: DENSE_70B SINGLE over 1 GPU needs 150.0 GiB"),
                fig("TP", "P2P", false, List.of(100.0), List.of(), 0.2, 300, null)));
        assertEquals(Verdict.KEEP, capacity.verdict());
        assertTrue(capacity.why().contains("needed for capacity"), capacity.why());
        Row oneGpu = only(List.of(fig("SINGLE", "P2P", true, List.of(1000.0), List.of(), 0, 0, null),
                fig("TP", "P2P", true, List.of(2000.0), List.of(), 0.1, 100, null)));
        assertEquals(Verdict.UNJUDGED, oneGpu.verdict());
        assertTrue(oneGpu.why().startsWith(PartitionVerdict.SINGLE_GPU), oneGpu.why());
        String section = PartitionSection.section(PartitionVerdict.judgeByMachine(List.of(fig("SINGLE", "P2P", true,
                List.of(1000.0), List.of(), 0, 0, null), fig("TP", "P2P", true, List.of(900.0), List.of(), 0.1, 100, null)),
                Map.of("h200x8", new PartitionVerdict.Machine("h200x8 (8x NVIDIA H200)", 400, ""))), List.of(),
                Path::toString);
        assertTrue(section.contains("cannot judge whether splitting pays"), section);
        assertTrue(section.contains("### Does splitting pay on h200x8 (8x NVIDIA H200)?"), section);
    }

    @Test
    void namesWhatToTryWhenCommunicationBound() {
        Figure single = fig("SINGLE", "P2P", false, List.of(1000.0), List.of(), 0, 0, null);
        Row fast = only(List.of(single, fig("TP", "P2P", false, List.of(900.0), List.of(), 0.45, 350, null)));
        assertTrue(fast.why().contains("although its copies are fast"), fast.why());
        assertTrue(fast.why().contains("PP instead of TP"), fast.why());
        assertTrue(fast.why().contains("0-1, 2-3 (NV18)"), fast.why());
        Row slow = only(List.of(single, fig("TP", "P2P_OFF", false, List.of(600.0), List.of(), 0.6, 20, null)));
        assertTrue(slow.why().contains("try a placement on the best-linked pairs 0-1, 2-3 (NV18)"), slow.why());
        Row computeBound = only(List.of(single, fig("TP", "P2P", false, List.of(900.0), List.of(), 0.1, 350, null)));
        assertTrue(!computeBound.why().contains("communication-bound"), computeBound.why());
    }

    @Test
    void chartsPutTransportsSideBySidePerPlanAndSingleAsItsOwnBar() {
        List<Figure> fs = List.of(fig("SINGLE", "P2P", false, List.of(1000.0), List.of(400e3), 0, 0, null),
                fig("TP", "P2P", false, List.of(1500.0), List.of(300e3), 0.2, 300, null),
                fig("TP", "P2P_OFF", false, List.of(1100.0), List.of(350e3), 0.4, 20, null),
                fig("EP", "P2P", false, List.of(), List.of(), 0, 0, "plan EP needs experts"));
        List<String> series = List.of(PartitionVerdict.NO_EXCHANGES, "P2P", "P2P_OFF");
        double[][] v = PartitionCharts.values(fs, List.of(Plan.SINGLE, Plan.TP), series, false);
        assertEquals(1000.0, v[0][0]);
        assertTrue(Double.isNaN(v[1][0]), "SINGLE exchanges nothing: no P2P bar");
        assertEquals(1500.0, v[1][1]);
        assertEquals(1100.0, v[2][1]);
        assertEquals(300.0, PartitionCharts.values(fs, List.of(Plan.SINGLE, Plan.TP), series, true)[1][1]);
        List<PartitionCharts.Chart> charts = PartitionCharts.charts(fs, Map.of());
        assertEquals(List.of("partition-tokens-dense_8b-decode-batch-8-graph.svg",
                "partition-request-dense_8b-decode-batch-8-graph.svg"), charts.stream().map(PartitionCharts.Chart::file).toList());
        for (PartitionCharts.Chart c : charts) {
            assertTrue(c.svg().startsWith("<svg"), c.file());
            for (String text : List.of("on h200x8", "TP over GPUs 0,1", ">P2P_OFF<", "not measured: EP")) {
                assertTrue(c.svg().contains(text), c.file() + " lacks " + text);
            }
            assertFalse(c.svg().contains(PartitionVerdict.SINGLE_GPU), c.file() + ": GPUs 0,1 are two GPUs");
        }
    }

    @Test
    void chartsOfARepeatedGpuSaySoAndAreWrittenAsFiles(@TempDir Path dir) throws Exception {
        List<Figure> fs = List.of(fig("SINGLE", "P2P", true, List.of(1000.0), List.of(), 0, 0, null),
                fig("TP", "P2P", true, List.of(900.0), List.of(), 0.1, 100, null),
                fig("TP", "P2P_OFF", true, List.of(800.0), List.of(), 0.1, 100, null));
        List<Charts.ChartFile> files = PartitionVerdict.writeCharts(fs, Map.of("h200x8", "h200x1"), dir);
        assertEquals(1, files.size(), "no request figures: no request chart");
        String svg = Files.readString(files.get(0).svg());
        assertEquals(dir.resolve("partition-tokens-dense_8b-decode-batch-8-graph.svg"), files.get(0).svg());
        assertTrue(svg.contains("on h200x1; " + PartitionVerdict.SINGLE_GPU), svg);
        assertTrue(PartitionVerdict.isChart(files.get(0)));
        assertTrue(PartitionVerdict.writeCharts(List.of(), Map.of(), dir.resolve("none")).isEmpty());
    }

    /** The committed one-GPU partition run: its charts are written, linked from the section and inlined in report.html. */
    @Test
    void reportOfTheCommittedPartitionRunWritesLinksAndInlinesTheCharts(@TempDir Path out) throws Exception {
        Path run = Path.of("results/h200x1-single-r580/2026-12-02T18-05-20Z");
        Assumptions.assumeTrue(Files.isDirectory(run), run + " is not committed here");
        String md = Files.readString(Reporter.render(List.of(run), out));
        String section = md.substring(md.indexOf("## Does splitting pay?"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        List<String> links = section.lines().filter(l -> l.startsWith("![")).toList();
        assertEquals(5, links.size(), "tokens/s of 4 scenarios + the decode graph requests: " + links);
        // the request figure is named for what it is: a p50 of a run's one or two requests, no p99
        assertTrue(section.contains("| tokens/s | request ms (p50) | runs |") && !section.contains("p99 request"),
                section);
        assertTrue(links.stream().anyMatch(l -> l.startsWith("![Request latency per plan, P2P on vs off: DENSE_8B "
                + "DECODE batch 8 graph")), links.toString());
        assertFalse(md.contains("`partition` in"), "partition figures are reported, so not listed as a kind the "
                + "report does not know");
        try (var files = Files.list(out)) {
            assertEquals(5, files.filter(f -> f.getFileName().toString().startsWith("partition-")).count());
        }
        String html = Files.readString(out.resolve(HtmlReport.FILE));
        for (String link : links) {
            String file = link.substring(link.indexOf("](") + 2, link.length() - 1);
            String svg = Files.readString(out.resolve(file));
            assertTrue(svg.contains(PartitionVerdict.SINGLE_GPU), file);
            assertTrue(html.contains(svg), file + " is not inline in report.html");
            assertEquals(1, md.split(java.util.regex.Pattern.quote("](" + file + ")"), -1).length - 1,
                    file + " is linked once, from its section");
        }
    }

    @Test
    void aReportWithoutPartitionFiguresWritesNoPartitionChart(@TempDir Path out) throws Exception {
        String md = Files.readString(Reporter.render(List.of(Fixtures.X8), out));
        assertFalse(md.contains("partition-"));
        try (var files = Files.list(out)) {
            assertEquals(0, files.filter(f -> f.getFileName().toString().startsWith("partition-")).count());
        }
    }

    @Test
    void theVerdictsOfEachMachineCarryTheDecisionWithoutRendering() {
        Figure single = fig("SINGLE", "P2P", false, List.of(1000.0), List.of(), 0, 0, null);
        Figure tp = fig("TP", "P2P", false, List.of(1500.0), List.of(), 0.1, 300, null);
        Figure oneGpuSingle = onMachine("h100x1", fig("SINGLE", "P2P", true, List.of(1000.0), List.of(), 0, 0, null));
        Figure oneGpuTp = onMachine("h100x1", fig("TP", "P2P", true, List.of(2000.0), List.of(), 0.1, 100, null));
        List<PartitionVerdict.MachineVerdicts> verdicts = PartitionVerdict.judgeByMachine(
                List.of(single, tp, oneGpuSingle, oneGpuTp, skipped("PP", SkipCause.OTHER, "does not divide")),
                Map.of("h200x8", new PartitionVerdict.Machine("h200x8 (8x NVIDIA H200)", 400, "0-1 (NV18)")));
        assertEquals(List.of("h200x8", "h100x1"), verdicts.stream().map(PartitionVerdict.MachineVerdicts::fingerprint)
                .toList());
        PartitionVerdict.MachineVerdicts eight = verdicts.get(0);
        assertEquals("h200x8 (8x NVIDIA H200)", eight.machine().description());
        assertFalse(eight.oneGpu());
        assertEquals(List.of(Verdict.KEEP, Verdict.NOT_MEASURED), eight.rows().stream().map(Row::verdict).toList());
        assertEquals(tp, eight.rows().get(0).plan());
        assertEquals(single, eight.rows().get(0).single());
        assertEquals("does not divide", eight.rows().get(1).why());
        PartitionVerdict.MachineVerdicts one = verdicts.get(1);
        assertEquals("h100x1", one.machine().description(), "a machine not described is named by its fingerprint");
        assertTrue(one.oneGpu());
        assertEquals(List.of(Verdict.UNJUDGED), one.rows().stream().map(Row::verdict).toList());
        assertEquals(oneGpuSingle, one.rows().get(0).single());
    }

    @Test
    void aPlanIsJudgedOnlyAgainstSingleOfItsOwnMachine() {
        Figure singleA = fig("SINGLE", "P2P", false, List.of(1000.0), List.of(), 0, 0, null);
        Figure tpA = fig("TP", "P2P", false, List.of(1500.0), List.of(), 0.1, 300, null);
        Figure singleB = onMachine("h100x8", fig("SINGLE", "P2P", false, List.of(3000.0), List.of(), 0, 0, null));
        Figure tpB = onMachine("h100x8", fig("TP", "P2P", false, List.of(1500.0), List.of(), 0.1, 300, null));
        List<Row> rows = PartitionVerdict.judge(List.of(singleA, tpA, singleB, tpB), 400, "");
        assertEquals(2, rows.size());
        assertEquals(singleA, rows.get(0).single());
        assertEquals(Verdict.KEEP, rows.get(0).verdict(), rows.get(0).why());
        assertEquals(singleB, rows.get(1).single());
        assertEquals(Verdict.REJECT, rows.get(1).verdict(), rows.get(1).why());
        List<PartitionCharts.Chart> charts = PartitionCharts.charts(List.of(singleA, tpA, singleB, tpB),
                Map.of("h200x8", "h200x8 (8x NVIDIA H200)"));
        assertEquals(List.of("h200x8-partition-tokens-dense_8b-decode-batch-8-graph.svg",
                "h100x8-partition-tokens-dense_8b-decode-batch-8-graph.svg"),
                charts.stream().map(PartitionCharts.Chart::file).toList());
        assertTrue(charts.get(0).svg().contains("on h200x8 (8x NVIDIA H200)"), charts.get(0).svg());
        assertTrue(charts.get(1).svg().contains("on h100x8<") || charts.get(1).svg().contains("on h100x8 "),
                "a machine without a description is named by its fingerprint: " + charts.get(1).svg());
        assertFalse(charts.get(1).svg().contains("h200x8"), charts.get(1).svg());
    }

    private static Figure onMachine(String machine, Figure f) {
        return new Figure(machine, f.model(), f.phase(), f.batch(), f.graph(), f.plan(), f.transport(), f.group(),
                f.singleGpu(), f.tokensPerSecond(), f.stepUs(), f.requestUs(), f.commShare(), f.busGBps(), f.skipReason());
    }

    /**
     * Two copies of the committed partition run under two fingerprints: one table and one set of charts per
     * machine, each naming its machine, and no figure of one machine merged into or compared with the other's.
     */
    @Test
    void partitionRunsOfTwoMachinesGiveOneTableAndOneChartSetEach(@TempDir Path tmp) throws Exception {
        Path run = Path.of("results/h200x1-single-r580/2026-12-02T18-05-20Z");
        Assumptions.assumeTrue(Files.isDirectory(run), run + " is not committed here");
        String a = "h200x1-single-r580";
        String b = "h200x1-other-r580";
        Path runA = copy(run, tmp.resolve(a).resolve(run.getFileName().toString()));
        Path runB = copy(run, tmp.resolve(b).resolve(run.getFileName().toString()));
        for (String file : List.of("manifest.json", "topology.json")) {
            Path f = runB.resolve(file);
            String text = Files.readString(f);
            assertTrue(text.contains("\"" + a + "\""), file + " names the fingerprint");
            Files.writeString(f, text.replace("\"" + a + "\"", "\"" + b + "\""));
        }
        Path out = tmp.resolve("out");
        String md = Files.readString(Reporter.render(List.of(runA, runB), out));
        String section = md.substring(md.indexOf("## Does splitting pay?"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        List<String> headings = section.lines().filter(l -> l.startsWith("### ")).toList();
        assertEquals(List.of("### Does splitting pay on " + a + " (1x NVIDIA H200)?",
                "### Does splitting pay on " + b + " (1x NVIDIA H200)?"), headings);
        String partA = section.substring(section.indexOf(headings.get(0)), section.indexOf(headings.get(1)));
        String partB = section.substring(section.indexOf(headings.get(1)));

        // The same tables as a report of either run alone: one run per row, nothing merged across machines.
        String alone = Files.readString(Reporter.render(List.of(run), tmp.resolve("alone")));
        String aloneSection = alone.substring(alone.indexOf("## Does splitting pay?"));
        aloneSection = aloneSection.substring(0, aloneSection.indexOf("\n## ", 1));
        List<String> aloneRows = tableRows(aloneSection);
        assertFalse(aloneRows.isEmpty());
        assertEquals(aloneRows, tableRows(partA));
        assertEquals(aloneRows, tableRows(partB));

        List<String> linksA = partA.lines().filter(l -> l.startsWith("![")).toList();
        List<String> linksB = partB.lines().filter(l -> l.startsWith("![")).toList();
        assertEquals(5, linksA.size(), partA);
        assertEquals(5, linksB.size(), partB);
        try (var files = Files.list(out)) {
            List<String> names = files.map(f -> f.getFileName().toString()).filter(n -> n.contains("partition-"))
                    .sorted().toList();
            assertEquals(10, names.size(), names.toString());
            assertEquals(5, names.stream().filter(n -> n.startsWith(a + "-partition-")).count(), names.toString());
            assertEquals(5, names.stream().filter(n -> n.startsWith(b + "-partition-")).count(), names.toString());
        }
        for (String link : linksA) {
            assertTrue(link.contains("](" + a + "-partition-"), link);
            String svg = Files.readString(out.resolve(link.substring(link.indexOf("](") + 2, link.length() - 1)));
            assertTrue(svg.contains("on " + a + " (1x NVIDIA H200)"), link);
            assertFalse(svg.contains(b), link);
        }
        for (String link : linksB) {
            assertTrue(link.contains("](" + b + "-partition-"), link);
            String svg = Files.readString(out.resolve(link.substring(link.indexOf("](") + 2, link.length() - 1)));
            assertTrue(svg.contains("on " + b + " (1x NVIDIA H200)"), link);
            assertFalse(svg.contains(a), link);
        }
        // The other charts of the report are not mistaken for partition charts, nor linked twice.
        assertEquals(0, md.substring(0, md.indexOf("## Does splitting pay?")).lines()
                .filter(l -> l.startsWith("![") && l.contains("partition-")).count());
    }

    /** The rows of the markdown tables in {@code md}, without the header and separator. */
    private static List<String> tableRows(String md) {
        return md.lines().filter(l -> l.startsWith("|") && !l.startsWith("| scenario") && !l.startsWith("|--")
                && !l.startsWith("| --") && !l.startsWith("|:")).toList();
    }

    private static Path copy(Path from, Path to) throws java.io.IOException {
        try (var walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }
}
