package io.p2pbench.report.render;

import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.chart.ServingCharts;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.report.verdict.ServingVerdict;
import io.p2pbench.serving.BatchPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The report section "Does splitting pay at a request rate?" as Markdown, from the verdicts
 * {@link ServingVerdict#judgeByMachine} computed: per machine a verdict table, its charts and every point's figures
 * ({@link ServingTables}).
 */
public final class ServingSection {
    private ServingSection() {}

    /**
     * The section; empty without verdicts.
     *
     * @param charts the charts written (others than this section's are ignored)
     * @param link the link text of a chart file, relative to the report
     */
    public static String section(List<ServingVerdict.MachineVerdicts> verdicts, List<Charts.ChartFile> charts,
                          Function<Path, String> link) {
        if (verdicts.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("## Does splitting pay at a request rate?\n\n");
        sb.append(String.format(Locale.ROOT, "Serving sweeps: %s. Each plan against SINGLE on the same machine and "
                + "workload, at the same offered rate (the same requests at the same times) and by capacity (the highest "
                + "rate meeting the target). Keep only if a p99 latency falls by more than the floor at that rate (none "
                + "rising by more), or the knee rises by more than the capacity floor, or SINGLE does not fit. Floors: "
                + "latency %.0f%%, capacity %.0f%% (set from A/A reruns of the same sweeps on the H200 node: the capacity "
                + "floor above one step of the knee search's grid, by which a knee moved between reruns), raised to the "
                + "spread between runs of either side; a higher knee counts only where the plan met the target at a rate at "
                + "which SINGLE broke it (a knee is known to within its bracket); with one run per side the floors are "
                + "those defaults, not this machine's own spread (n too small). Communication-bound: exposed "
                + "communication >= %.0f%% of an instrumented step at the knee's mean shape. Warm-up requests (the first of each point) and cool-down requests (after "
                + "the measured ones) are excluded from every figure.%n%n", BatchPolicy.DESCRIPTION,
                100 * PartitionVerdict.P99_FLOOR, 100 * ServingVerdict.CAPACITY_FLOOR, 100 * PartitionVerdict.COMM_BOUND_SHARE));
        for (ServingVerdict.MachineVerdicts v : verdicts) {
            sb.append("### Does splitting pay at a request rate on ").append(v.machine().description()).append("?\n\n");
            sb.append(ServingTables.verdict(v));
            List<Charts.ChartFile> mine = charts.stream()
                    .filter(c -> ServingCharts.isChartOf(c, v.fingerprint(), verdicts.size())).toList();
            for (Charts.ChartFile c : mine) {
                sb.append("![").append(c.title()).append("](").append(link.apply(c.svg())).append(")\n\n");
            }
            sb.append(ServingTables.points(v.sweeps()));
        }
        return sb.toString();
    }
}
