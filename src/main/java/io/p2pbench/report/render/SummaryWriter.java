package io.p2pbench.report.render;

import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.chart.ServingCharts;
import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.RunEntry;
import io.p2pbench.report.stats.HockneyFit;
import io.p2pbench.report.stats.LinkRates;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.results.PercentileReach;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.spec.Kind;
import io.p2pbench.results.RunStatus;
import io.p2pbench.topology.HostInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyPrinter;
import io.p2pbench.transfer.Sizes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The report step: {@code summary.md}, small enough for a CI job summary (under 1 MiB), with the
 * machine, nvbandwidth-style matrices, the alpha-beta table, the charts, what was not measured and
 * why, and per-size statistics while they fit; {@code statistics.md} always holds every per-size table.
 */
public final class SummaryWriter {
    /** GitHub's limit for one step's job summary. */
    public static final int LIMIT_BYTES = 1 << 20;
    /** Name of the full per-size statistics file the summary points to (the reporter writes it). */
    public static final String STATISTICS = "statistics.md";
    /** What the summary may use, leaving room for the lines that say what was left out. */
    private static final int BUDGET_BYTES = LIMIT_BYTES - 8 * 1024;

    private SummaryWriter() {}

    /** A row of the headline's transfer table: a link class, path and lane, every pair of the class. */
    private record Transfer(String link, String path, Lane lane) {}

    /** A row of the headline's collective table: one collective on one group, alg and bus. */
    private record Collective(String kind, String path, Endpoints group) {}

    /** A row of the skipped-and-failed table. */
    private record Unmeasured(String machine, String status, String reason) {}

    /**
     * The documents.
     *
     * @param summary summary.md
     * @param statistics statistics.md
     * @param page the blocks summary.md was written from, for report.html ({@link HtmlReport})
     */
    public record Documents(String summary, String statistics, List<Block> page) {}

    /** Renders both documents; chart and export paths are written relative to {@code outDir}. */
    public static Documents render(ReportContent r, Path outDir) {
        List<Block> page = new ArrayList<>();
        page.add(new Block.Heading(1, "p2pbench report: " + r.sources().stream().map(ResultData::machine).distinct()
                .collect(Collectors.joining(", "))));
        page.addAll(headline(r));
        page.add(new Block.Paragraph("The same as one page with the charts inline: `" + HtmlReport.FILE + "`."));
        page.add(new Block.Heading(1, "Details"));
        page.addAll(runs(r));
        for (ResultData machine : machines(r)) {
            page.addAll(machine(machine, r.measurementsOf(machine.machine()), r));
        }
        page.addAll(fits(r));
        page.add(new Block.MarkdownText(VerdictSections.render(r, outDir, svg -> relative(outDir, svg))));
        page.addAll(charts(r.charts().stream().filter(c -> !PartitionVerdict.isChart(c) && !ServingCharts.isChart(c))
                .toList(), outDir));
        page.addAll(notMeasured(r));
        page.addAll(method(r));
        page.add(new Block.Paragraph("Per-size statistics (median, mean, interval, CV, n, efficiency; latency "
                + "percentiles) of every figure: see `" + STATISTICS + "` next to this file."));
        String statistics = "# p2pbench statistics per size\n\n" + Block.markdown(method(r)) + statistics(r);
        String markdown = Block.markdown(page);
        String summary = markdown.substring(0, markdown.length() - 1); // the file ends with its last line
        if (bytes(summary) > BUDGET_BYTES) {
            summary = summary.substring(0, BUDGET_BYTES / 2) + "\n\n(cut here to stay under 1 MiB, a CI job summary's "
                    + "limit: see `" + STATISTICS + "`)\n";
            page = List.of(new Block.MarkdownText(summary));
        }
        return new Documents(summary, statistics, page);
    }

    /**
     * What fits on one screen: the machine, per link class the bandwidth at the largest size measured against
     * the link's theoretical rate (and an imported nvbandwidth figure where one was given), the collectives at
     * their largest size, and warnings; every figure names its run.
     */
    private static List<Block> headline(ReportContent r) {
        List<Block> out = new ArrayList<>(List.of(new Block.Heading(2, "Headline")));
        for (ResultData d : machines(r)) {
            if (!d.isRun()) {
                continue;
            }
            Topology t = d.topology();
            HostInfo h = t == null ? null : t.host();
            out.add(new Block.Paragraph("**" + d.machineDescription() + "**" + (h == null ? "" : ": driver "
                    + h.driverVersion() + " (CUDA " + h.cudaDriver() + "), NCCL " + h.nccl() + ", " + h.cpuModel()) + "."));
            List<Measurement> ms = r.measurementsOf(d.machine());
            List<Measurement> nvbw = r.measurements().stream().filter(m -> r.sources().stream()
                    .anyMatch(s -> s.tool() == ResultData.Tool.NVBANDWIDTH && s.machine().equals(m.machine())
                            && s.measurements().contains(m))).toList();
            List<List<String>> rows = new ArrayList<>();
            Map<Transfer, List<Measurement>> transfers = new LinkedHashMap<>();
            for (Measurement m : ms) {
                boolean peer = m.key().is(Kind.PEER) && m.key().lane() == Lane.ONE_WAY;
                boolean host = m.key().is(Kind.HOST) && m.key().lane().isHostOneWay();
                if (m.key().biggerIsBetter() && (peer || host)) {
                    String link = host ? "host " + hostLink(m, t) : m.link();
                    transfers.computeIfAbsent(new Transfer(link, m.key().path(), m.key().lane()),
                            k -> new ArrayList<>()).add(m);
                }
            }
            transfers.forEach((k, list) -> {
                long largest = list.stream().mapToLong(m -> m.key().sizeBytes()).max().orElse(0);
                // The slowest pair of the class at its largest size: what a job spread over that class gets.
                Measurement worst = list.stream().filter(m -> m.key().sizeBytes() == largest)
                        .min(Comparator.comparingDouble(m -> Statistics.bandwidth(m.samples()).median())).orElseThrow();
                long pairs = list.stream().filter(m -> m.key().sizeBytes() == largest).count();
                double median = Statistics.bandwidth(worst.samples()).median();
                LinkRates.Reference ref = LinkRates.of(worst, t);
                rows.add(List.of(k.link() + (worst.singleGpu() ? " (single GPU)" : ""), k.path() + " " + k.lane().label(),
                        Sizes.format(largest), Markdown.number(median) + (pairs > 1 ? " (slowest of " + pairs + " pairs)"
                                : ""),
                        ref.known() ? Markdown.percent(ref.efficiency(median)) + " of " + Markdown.number(ref.gbps())
                                + " (" + ref.assumption() + ")" : "n/a",
                        nvbandwidth(worst, nvbw), "`" + r.run(worst) + "`"));
            });
            if (!rows.isEmpty()) {
                out.add(new Block.Table(List.of("link", "path, direction", "size", "median GB/s",
                        "of theoretical rate", "nvbandwidth", "run"), rows));
            }
            List<List<String>> coll = new ArrayList<>();
            Map<Collective, List<Measurement>> collectives = new LinkedHashMap<>();
            for (Measurement m : ms) {
                if (m.key().isCollective() && m.key().biggerIsBetter()
                        && m.key().lane().isBusOrAlg()) {
                    collectives.computeIfAbsent(new Collective(m.key().kind(), m.key().path(), m.key().ends()),
                            k -> new ArrayList<>()).add(m);
                }
            }
            collectives.forEach((k, list) -> {
                long largest = list.stream().mapToLong(m -> m.key().sizeBytes()).max().orElse(0);
                Measurement bus = list.stream().filter(m -> m.key().sizeBytes() == largest
                        && m.key().lane() == Lane.BUS).findFirst().orElse(null);
                Measurement alg = list.stream().filter(m -> m.key().sizeBytes() == largest
                        && m.key().lane() == Lane.ALG).findFirst().orElse(null);
                Measurement any = bus != null ? bus : alg;
                boolean oneRank = any.key().ends() instanceof Endpoints.Ranks g && g.size() == 1;
                coll.add(List.of(any.key().kind(), any.key().path(), any.key().pair()
                                + (any.singleGpu() ? " (single GPU)" : ""), Sizes.format(largest),
                        alg == null ? "n/a" : Markdown.number(Statistics.bandwidth(alg.samples()).median()),
                        bus == null ? "n/a" : oneRank ? "0 (one rank)"
                                : Markdown.number(Statistics.bandwidth(bus.samples()).median()),
                        "`" + r.run(any) + "`"));
            });
            if (!coll.isEmpty()) {
                out.add(new Block.Table(List.of("collective", "operation", "GPUs", "size", "algbw GB/s", "busbw GB/s",
                        "run"), coll));
            }
        }
        List<String> warnings = warnings(r);
        if (!warnings.isEmpty()) {
            out.addAll(List.of(new Block.Paragraph("Warnings:"), new Block.BulletList(warnings)));
        }
        return out;
    }

    /** The GPU's PCIe link for a host row, e.g. {@code PCIe Gen5 x16}. */
    private static String hostLink(Measurement m, Topology t) {
        String ref = LinkRates.of(m, t).assumption();
        int colon = ref.indexOf(':');
        return colon > 0 ? ref.substring(0, colon) : "PCIe";
    }

    /** The imported nvbandwidth figure of the same path, direction, pair and size, or a dash. */
    private static String nvbandwidth(Measurement m, List<Measurement> nvbw) {
        return nvbw.stream().filter(n -> n.key().equals(m.key())).findFirst()
                .map(n -> Markdown.number(Statistics.bandwidth(n.samples()).median())).orElse("—");
    }

    private static List<String> warnings(ReportContent r) {
        List<String> out = new ArrayList<>();
        if (r.measurements().stream().anyMatch(Measurement::singleGpu)) {
            out.add("Figures marked single GPU ran every code path on one GPU: " + Measurement.SINGLE_GPU + ".");
        }
        for (ResultData d : r.sources()) {
            if (d.isRun() && d.manifest().runStatus() != RunStatus.COMPLETE) {
                out.add("`" + d.label() + "` is " + d.manifest().state() + ".");
            }
            long failed = d.notMeasured().stream().filter(n -> n.gap() != ResultData.Gap.SKIPPED).count();
            if (failed > 0) {
                out.add("`" + d.label() + "`: " + failed + " combination(s) failed or did not finish (see below).");
            }
        }
        if (r.superseded() > 0) {
            out.add(r.superseded() + " figure(s) were measured in more than one run; the run started last is used, "
                    + "and every table names its run.");
        }
        if (r.sources().stream().noneMatch(s -> s.tool() == ResultData.Tool.NVBANDWIDTH)) {
            out.add("No nvbandwidth reference was given: run `p2pbench compare NVBANDWIDTH.json RESULT` to compare "
                    + "against one.");
        }
        return out;
    }

    private static List<Block> runs(ReportContent r) {
        List<List<String>> rows = new ArrayList<>();
        for (ResultData d : r.sources()) {
            long ok = d.entries().stream().filter(RunEntry::ok).count();
            long skipped = d.notMeasured().stream().filter(n -> n.gap() == ResultData.Gap.SKIPPED).count();
            long other = d.notMeasured().size() - skipped;
            rows.add(List.of("`" + d.label() + "`", d.origin(),
                    d.isRun() ? d.manifest().preset() : "", d.isRun() ? d.manifest().startedAt() : "",
                    d.isRun() ? d.manifest().state() : "", String.valueOf(ok), String.valueOf(skipped),
                    String.valueOf(other), verified(d)));
        }
        List<Block> out = new ArrayList<>(List.of(new Block.Heading(2, "Runs"), new Block.Table(List.of("result",
                "written by", "preset", "started (UTC)", "state", "ok", "skipped", "failed or other", "bytes verified"),
                rows)));
        if (r.superseded() > 0) {
            out.add(new Block.Paragraph(r.superseded() + " measurement(s) appear in more than one run of the same "
                    + "machine; the figures of the run started last are used."));
        }
        return out;
    }

    /** Bytes the ok benchmarks of a run verified, or why there is no figure. */
    private static String verified(ResultData d) {
        if (!d.isRun()) {
            return "n/a (imported)";
        }
        List<RunEntry> ok = d.entries().stream().filter(RunEntry::ok).toList();
        if (ok.isEmpty()) {
            return "0";
        }
        if (ok.stream().anyMatch(e -> e.bytesVerified() == null)) {
            return "not recorded (older suite)";
        }
        return Sizes.format(ok.stream().mapToLong(RunEntry::bytesVerified).sum());
    }

    public static List<ResultData> machines(ReportContent r) {
        Map<String, ResultData> out = new LinkedHashMap<>();
        r.sources().forEach(d -> out.putIfAbsent(d.machine(), d));
        return new ArrayList<>(out.values());
    }

    private static List<Block> machine(ResultData d, List<Measurement> ms, ReportContent r) {
        List<Block> out = new ArrayList<>(List.of(new Block.Heading(2, "Machine " + d.machine())));
        Topology t = d.topology();
        if (t != null) {
            HostInfo h = t.host();
            out.add(new Block.Paragraph(String.format(Locale.ROOT, "%s; driver %s (CUDA %s), CUDA runtime %s, NCCL %s. "
                            + "Host: %s, %d socket(s), %d NUMA node(s), IOMMU %s, virtualisation %s.",
                    d.machineDescription(), h.driverVersion(), h.cudaDriver(), h.cudaRuntime(), h.nccl(), h.cpuModel(),
                    h.sockets(), h.numaNodes(), h.iommu(), h.virtualization())));
            out.add(new Block.Code(TopologyPrinter.gpuTable(t) + '\n' + TopologyPrinter.linkMatrix(t) + '\n'
                    + TopologyPrinter.p2pMatrix(t)));
            out.add(new Block.MarkdownText(VerdictSections.diagnosis(d, ms)));
        }
        String peer = TextMatrices.peer(ms, t);
        if (!peer.isEmpty()) {
            out.addAll(List.of(new Block.Heading(3, "Bandwidth matrices (nvbandwidth style)"), new Block.Code(peer)));
            runsOf(r, TextMatrices.matrixCells(ms)).ifPresent(out::add);
        }
        String host = TextMatrices.host(ms, t);
        if (!host.isEmpty()) {
            out.addAll(List.of(new Block.Heading(3, "Host-device bandwidth"), new Block.Code(host)));
            runsOf(r, ms.stream().filter(m -> m.key().is(Kind.HOST)).toList()).ifPresent(out::add);
        }
        return out;
    }

    /** {@code Figures from run A (12), run B (3).} for the measurements a table shows. */
    private static Optional<Block> runsOf(ReportContent r, List<Measurement> shown) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        shown.forEach(m -> counts.merge(r.run(m), 1, Integer::sum));
        if (counts.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Block.Paragraph("Figures from " + counts.entrySet().stream().map(e -> "`" + e.getKey()
                + "`" + (counts.size() > 1 ? " (" + e.getValue() + ")" : "")).collect(Collectors.joining(", ")) + "."));
    }

    private static List<Block> fits(ReportContent r) {
        List<HockneyFit.Fit> fits = r.fits();
        if (fits.isEmpty()) {
            return List.of();
        }
        List<List<String>> rows = new ArrayList<>();
        for (HockneyFit.Fit f : fits) {
            Measurement m = f.series();
            rows.add(List.of(m.machine(), m.key().kind(), m.pairWithLink(), m.key().path(), m.key().direction(),
                    f.fittedOn(), f.sizes() + " (" + Sizes.format(m.key().sizeBytes()) + " .. " + Sizes.format(f.maxSizeBytes())
                            + ")",
                    Markdown.number(f.alphaMicros()) + " ± " + Markdown.number(f.alphaError()),
                    Markdown.number(f.betaGBps()) + " ± " + Markdown.number(f.betaError()),
                    f.physical() ? Sizes.format(Math.round(f.halfBytes())) + " ± " + Sizes.format(Math.round(f.halfError()))
                            : "n/a (model does not fit)",
                    Markdown.percent(f.rmsRelative()), "`" + r.run(m) + "`"));
        }
        return List.of(new Block.Heading(2, "Latency-bandwidth fit (alpha-beta, Hockney): t = α + n / β"),
                new Block.Paragraph("α: startup latency; β: asymptotic bandwidth; n½ = α·β, the size reaching half of β. "
                        + "Least squares on relative residuals; ± one standard error (n½ by the delta method)."),
                new Block.Table(List.of("machine", "kind", "pair (link)", "path", "direction", "fitted on", "sizes",
                        "α (µs)", "β (GB/s)", "n½", "rms relative residual", "run (of the smallest size)"), rows));
    }

    private static List<Block> charts(List<Charts.ChartFile> charts, Path outDir) {
        if (charts.isEmpty()) {
            return List.of();
        }
        List<Block> out = new ArrayList<>(List.of(new Block.Heading(2, "Charts"), new Block.Paragraph("SVG, text as "
                + "text, in this folder; `report.html` shows them inline with every table.")));
        charts.forEach(c -> out.add(new Block.Image(c.title(), relative(outDir, c.svg()))));
        return out;
    }

    private static List<Block> notMeasured(ReportContent r) {
        List<Block> out = new ArrayList<>();
        Map<Unmeasured, List<ResultData.NotMeasured>> groups = new LinkedHashMap<>();
        for (ResultData d : r.sources()) {
            for (ResultData.NotMeasured n : d.notMeasured()) {
                String reason = n.reason() == null ? "no reason recorded" : n.reason();
                groups.computeIfAbsent(new Unmeasured(d.machine(), n.status(), reason), k -> new ArrayList<>()).add(n);
            }
        }
        if (!groups.isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            groups.forEach((k, list) -> {
                boolean allLocal = list.stream().allMatch(ResultData.NotMeasured::singleGpu);
                // The same combination skipped in several runs of one machine is one combination.
                List<String> distinct = list.stream().map(ResultData.NotMeasured::id).distinct().toList();
                String ids = distinct.stream().limit(4).map(id -> "`" + id + "`").collect(Collectors.joining(", "))
                        + (distinct.size() > 4 ? " and " + (distinct.size() - 4) + " more" : "");
                String count = distinct.size() == list.size() ? String.valueOf(list.size())
                        : distinct.size() + " (" + list.size() + " times in these runs)";
                rows.add(List.of(k.machine(), k.status(), k.reason() + (allLocal ? " (" + Measurement.SINGLE_GPU + ")" : ""),
                        count, ids));
            });
            out.add(new Block.Heading(2, "Skipped and failed combinations"));
            out.add(new Block.Table(List.of("machine", "status", "reason", "count", "combinations"), rows));
        }
        List<String> unknown = new ArrayList<>();
        for (ResultData d : r.sources()) {
            d.unknownKinds().forEach((kind, count) -> unknown.add("`" + kind + "` in `" + d.label() + "`: " + count
                    + " result(s)"));
        }
        if (!unknown.isEmpty()) {
            out.addAll(List.of(new Block.Heading(2, "Not reported"), new Block.Paragraph("Kinds this version of the "
                    + "report does not know (their JMH JSON is exported untouched):"), new Block.BulletList(unknown)));
        }
        return out;
    }

    private static List<Block> method(ReportContent r) {
        List<String> items = new ArrayList<>(List.of("Bandwidth: decimal GB/s (10^9 bytes/s), device-timed per batch; "
                        + "the headline is the median over batches. Interval: " + Statistics.BANDWIDTH_INTERVAL
                        + " (the batches of a run share its state, its CUDA contexts and the host's load: the spread "
                        + "within the run, not between runs, which can be wider; compare judges changes by rounds and "
                        + "runs, docs/compare.md). CV: coefficient of variation, sample standard deviation / mean.",
                "Latency: host-observed µs per transfer; percentiles p50, p90, p99, p99.9 by "
                        + Statistics.PERCENTILE_ESTIMATOR + " (numpy's default estimator), each where the samples "
                        + "reach it (p99 from " + Statistics.minSamples(99) + ", p99.9 from "
                        + Statistics.minSamples(99.9) + ").",
                "Efficiency: median / the link's theoretical rate per direction (twice that for both-ways sums); "
                        + "every table names the rate it assumed.",
                "Sizes are binary (KiB, MiB, GiB)."));
        items.addAll(r.exports());
        return List.of(new Block.Heading(2, "Method and exports"), new Block.BulletList(items));
    }

    /** Per machine and pair: bandwidth and latency per size, then collectives. */
    private static String statistics(ReportContent r) {
        StringBuilder sb = new StringBuilder("## Statistics per size\n\n");
        for (ResultData d : machines(r)) {
            Map<String, List<Measurement>> groups = new LinkedHashMap<>();
            List<Measurement> sorted = new ArrayList<>(r.measurementsOf(d.machine()));
            sorted.sort(Comparator.comparing((Measurement m) -> m.key().path()).thenComparing(m -> m.key().direction())
                    .thenComparingLong(m -> m.key().sizeBytes()));
            for (Measurement m : sorted) {
                groups.computeIfAbsent(m.key().kind() + " " + m.pairWithLink(), k -> new ArrayList<>()).add(m);
            }
            for (Map.Entry<String, List<Measurement>> g : groups.entrySet()) {
                sb.append("### ").append(d.machine()).append(": ").append(g.getKey()).append("\n\n");
                List<Measurement> bw = g.getValue().stream().filter(m -> m.key().biggerIsBetter()).toList();
                List<Measurement> lat = g.getValue().stream().filter(m -> !m.key().biggerIsBetter()).toList();
                if (!bw.isEmpty()) {
                    sb.append(bandwidthTable(bw, d.topology(), r));
                }
                if (!lat.isEmpty()) {
                    sb.append(latencyTable(lat, r));
                }
            }
        }
        return sb.toString();
    }

    private static String bandwidthTable(List<Measurement> ms, Topology t, ReportContent r) {
        Map<String, String> references = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        for (Measurement m : ms) {
            Statistics.Bandwidth b = Statistics.bandwidth(m.samples());
            LinkRates.Reference ref = LinkRates.of(m, t);
            String label = references.computeIfAbsent(ref.known() ? Markdown.number(ref.gbps()) + " GB/s: "
                    + ref.assumption() : ref.assumption(), k -> "R" + (references.size() + 1));
            rows.add(List.of(m.key().path(), m.key().direction(), Sizes.format(m.key().sizeBytes()),
                    Markdown.number(b.median()), Markdown.number(b.mean()),
                    b.hasInterval() ? "[" + Markdown.number(b.ciLow()) + ", " + Markdown.number(b.ciHigh()) + "]" : "n/a",
                    Markdown.percent(b.cv()), String.valueOf(b.n()), m.samplesFrom(),
                    (ref.known() ? Markdown.percent(ref.efficiency(b.median())) + " of " + label : "n/a (" + label + ")"),
                    "`" + r.run(m) + "`"));
        }
        StringBuilder sb = new StringBuilder(Markdown.table(List.of("path", "direction", "size", "median GB/s",
                "mean GB/s", "95% t-interval of mean", "CV", "n", "samples", "efficiency (reference)", "run"), rows));
        sb.append('\n');
        references.forEach((text, label) -> sb.append(label).append(": ").append(text).append("  \n"));
        return sb.append('\n').toString();
    }

    private static String latencyTable(List<Measurement> ms, ReportContent r) {
        List<List<String>> rows = new ArrayList<>();
        for (Measurement m : ms) {
            Statistics.Latency l = Statistics.latency(m.samples());
            rows.add(List.of(m.key().path(), m.key().direction(), Sizes.format(m.key().sizeBytes()),
                    Markdown.number(l.p50()), reached(l, 90, l.p90()), reached(l, 99, l.p99()),
                    reached(l, 99.9, l.p999()), Markdown.number(l.mean()), String.valueOf(l.n()),
                    "`" + r.run(m) + "`"));
        }
        return "Latency, µs per transfer, percentiles by " + Statistics.PERCENTILE_ESTIMATOR + "; a percentile where "
                + "the samples reach it (p90 from " + Statistics.minSamples(90) + ", p99 from "
                + Statistics.minSamples(99)
                + ", p99.9 from " + Statistics.minSamples(99.9) + " samples), else " + NOT_REACHED + " ("
                + PercentileReach.WHY + "):\n\n"
                + Markdown.table(List.of("path", "direction", "size", "p50", "p90", "p99", "p99.9", "mean", "samples", "run"),
                rows) + "\n";
    }

    /** What a latency table shows for a percentile its samples do not reach. */
    static final String NOT_REACHED = "—";

    /** {@code value} as a cell where {@code l}'s samples reach percentile {@code q}, else {@link #NOT_REACHED}. */
    private static String reached(Statistics.Latency l, double q, double value) {
        return l.reaches(q) ? Markdown.number(value) : NOT_REACHED;
    }

    private static String relative(Path outDir, Path file) {
        return outDir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize()).toString()
                .replace('\\', '/');
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
