package io.p2pbench.report.render;

import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.report.verdict.PartitionVerdict.Figure;
import io.p2pbench.report.verdict.PartitionVerdict.MachineVerdicts;
import io.p2pbench.report.verdict.PartitionVerdict.Row;
import io.p2pbench.report.text.Markdown;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The report section "Does splitting pay?" as Markdown, from the verdicts {@link PartitionVerdict#judgeByMachine}
 * computed: one table per machine under a heading naming it, each followed by links to that machine's charts.
 */
public final class PartitionSection {
    private PartitionSection() {}

    /**
     * The section; empty when there are no verdicts.
     *
     * @param charts the charts written (others than this section's are ignored)
     * @param link the link text of a chart file, relative to the report
     */
    public static String section(List<MachineVerdicts> verdicts, List<Charts.ChartFile> charts, Function<Path, String> link) {
        if (verdicts.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("## Does splitting pay?\n\n");
        sb.append(String.format(Locale.ROOT, "Each plan against SINGLE (same machine, model, phase, batch, eager/graph). "
                + "Keep only if tokens/s or request latency improves by more than the noise floor, or if SINGLE does "
                + "not fit. Floors: tokens/s %.0f%%, request %.0f%% (stated; compare's floors between reruns of one host, "
                + "measured on H100 hosts, are 4%%: docs/compare.md), raised "
                + "to the spread between runs of either side; with one run per side they are assumed (n too small). "
                + "A step's figures are the median over its iteration; a request's the p50 ("
                + Statistics.PERCENTILE_ESTIMATOR + ") of its requests, one or two a round at quick timing (tail "
                + "latency: the serving study); a decode step or "
                + "request measured in rounds (three a run since 2026-12-07) gives each run its fastest round's "
                + "(docs/compare.md). "
                + "Communication-bound: exposed communication >= %.0f%% of the step.%n%n", 100 * PartitionVerdict.TOKENS_FLOOR,
                100 * PartitionVerdict.REQUEST_FLOOR, 100 * PartitionVerdict.COMM_BOUND_SHARE));
        for (MachineVerdicts v : verdicts) {
            String description = v.machine().description();
            sb.append("### Does splitting pay on ").append(description).append("?\n\n");
            sb.append(table(v));
            List<Charts.ChartFile> mine = charts.stream()
                    .filter(c -> PartitionVerdict.isChartOf(c, v.fingerprint(), verdicts.size())).toList();
            if (!mine.isEmpty()) {
                sb.append("Tokens/s and request latency per plan on ").append(description)
                        .append(", P2P on vs off side by side (SVG in this folder):\n\n");
                for (Charts.ChartFile c : mine) {
                    sb.append("![").append(c.title()).append("](").append(link.apply(c.svg())).append(")\n\n");
                }
            }
        }
        return sb.toString();
    }

    /** The verdict table of one machine, with a note when every plan ran over a repeated GPU. */
    static String table(MachineVerdicts v) {
        StringBuilder sb = new StringBuilder();
        String singleGpu = PartitionVerdict.SINGLE_GPU;
        if (v.oneGpu()) {
            sb.append("Every multi-rank plan here ran over a group that repeats a GPU (").append(singleGpu)
                    .append("): the code paths ran, but this machine cannot judge whether splitting pays.\n\n");
        }
        List<List<String>> table = new ArrayList<>();
        for (Row r : v.rows()) {
            Figure f = r.plan();
            table.add(List.of(f.scenario(), f.plan().name(), f.transport(), f.group() + (f.singleGpu() ? " (" + singleGpu + ")" : ""),
                    f.tokensPerSecond().isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f", PartitionVerdict.median(f.tokensPerSecond())),
                    f.requestUs().isEmpty() ? "-"
                            : String.format(Locale.ROOT, "%.1f", PartitionVerdict.median(f.requestUs()) / 1000),
                    Integer.toString(f.tokensPerSecond().size()), VerdictWords.word(r.verdict()), r.why()));
        }
        sb.append(Markdown.table(List.of("scenario", "plan", "transport", "GPUs", "tokens/s", "request ms (p50)", "runs",
                "verdict", "why"), table)).append('\n');
        return sb.toString();
    }
}
