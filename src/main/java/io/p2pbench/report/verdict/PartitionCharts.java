package io.p2pbench.report.verdict;

import static io.p2pbench.report.verdict.PartitionVerdict.NO_EXCHANGES;
import static io.p2pbench.report.verdict.PartitionVerdict.SINGLE_GPU;
import static io.p2pbench.report.verdict.PartitionVerdict.machines;
import static io.p2pbench.report.verdict.PartitionVerdict.median;
import static io.p2pbench.report.verdict.PartitionVerdict.of;

import io.p2pbench.partition.Plan;
import io.p2pbench.report.verdict.PartitionVerdict.Figure;
import io.p2pbench.report.chart.ChartData;
import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.chart.FileNames;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The charts of "Does splitting pay?" ({@link PartitionVerdict}): tokens/s and request latency per plan,
 * transports side by side, one chart per machine and scenario.
 */
final class PartitionCharts {
    private PartitionCharts() {}

    private static final List<String> TRANSPORT_ORDER = List.of("P2P", "P2P_OFF", "HOST_STAGED");

    /**
     * One chart of the section.
     *
     * @param machine the fingerprint of the machine it shows
     * @param file file name, {@code partition-tokens-<scenario>.svg} or {@code partition-request-<scenario>.svg}, after
     *     {@link PartitionVerdict#prefix} of its machine when the report has more than one
     * @param title the chart's title, also the image's alt text
     * @param data what it shows
     */
    public record Chart(String machine, String file, String title, ChartData.Bars data) {
        /** The chart as SVG text. */
        public String svg() {
            return data.svg();
        }
    }

    /**
     * Tokens/s and request latency per plan, transports side by side (SINGLE, which exchanges
     * nothing, as its own bar), one chart per machine and scenario that has figures; the subtitle names
     * the machine, and charts over a group that repeats a GPU say {@link #SINGLE_GPU} there too.
     *
     * @param descriptions per fingerprint the machine as the subtitle names it (the fingerprint if missing)
     */
    public static List<Chart> charts(List<Figure> figures, Map<String, String> descriptions) {
        List<Chart> out = new ArrayList<>();
        List<String> names = machines(figures);
        for (String name : names) {
            out.addAll(charts(of(figures, name), name, descriptions.getOrDefault(name, name), names.size()));
        }
        return out;
    }

    private static List<Chart> charts(List<Figure> figures, String name, String machine, int machines) {
        List<Chart> out = new ArrayList<>();
        String prefix = PartitionVerdict.prefix(name, machines);
        String onMachine = machines > 1 ? " on " + name : "";
        Map<String, List<Figure>> byScenario = figures.stream().filter(f -> f.skipReason() == null)
                .collect(Collectors.groupingBy(Figure::scenario, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<String, List<Figure>> e : byScenario.entrySet()) {
            List<Figure> fs = e.getValue();
            List<Plan> plans = fs.stream().map(Figure::plan).distinct().sorted().toList();
            List<String> transports = ordered(fs.stream().map(PartitionCharts::series).toList(),
                    concat(List.of(NO_EXCHANGES), TRANSPORT_ORDER));
            boolean oneGpu = fs.stream().anyMatch(Figure::singleGpu);
            List<String> parts = new ArrayList<>();
            if (!machine.isEmpty()) {
                parts.add("on " + machine);
            }
            if (oneGpu) {
                parts.add(SINGLE_GPU);
            }
            String subtitle = String.join("; ", parts);
            int runs = fs.stream().mapToInt(f -> f.tokensPerSecond().size()).max().orElse(0);
            List<String> skipped = figures.stream().filter(f -> f.skipReason() != null && f.scenario().equals(e.getKey()))
                    .map(f -> f.plan().name()).distinct().toList();
            String notMeasured = skipped.isEmpty() ? "" : "; not measured: " + String.join(", ", skipped)
                    + " (see the table)";
            List<String> labels = plans.stream().map(plan -> fs.stream().filter(f -> f.plan().equals(plan))
                    .map(f -> plan == Plan.SINGLE ? plan.name() : plan + " over GPUs " + f.group()).findFirst()
                    .orElse(plan.name()))
                    .toList();
            String slug = Charts.stem(e.getKey().toLowerCase(Locale.ROOT));
            String tokensTitle = "Tokens/s per plan, P2P on vs off: " + e.getKey() + onMachine;
            out.add(new Chart(name, prefix + "partition-tokens-" + slug + ".svg", tokensTitle, new ChartData.Bars(tokensTitle,
                    subtitle, List.of("Step benchmark's tokens/s, " + runsText(runs)
                            + "; higher is better" + notMeasured),
                    "tokens/s", labels, transports, values(fs, plans, transports, false),
                    zeros(transports.size(), plans.size()), "%.0f")));
            if (fs.stream().anyMatch(f -> !f.requestUs().isEmpty())) {
                String requestTitle = "Request latency per plan, P2P on vs off: " + e.getKey() + onMachine;
                out.add(new Chart(name, prefix + "partition-request-" + slug + ".svg", requestTitle,
                        new ChartData.Bars(requestTitle, subtitle, List.of("A request: prefill of the prompt + the "
                                + "decode steps, host clock; p50 by " + Statistics.PERCENTILE_ESTIMATOR
                                + " (one or two requests a round at quick timing; tail latency: the serving study), "
                                + runsText(fs.stream().mapToInt(f -> f.requestUs().size()).max().orElse(0))
                                + "; lower is better" + notMeasured),
                        "request latency (ms)", labels, transports, values(fs, plans, transports, true),
                        zeros(transports.size(), plans.size()), "%.1f")));
            }
        }
        return out;
    }

    /** Writes {@link #charts} into {@code dir}; the files written, in order. */
    static List<Charts.ChartFile> writeCharts(List<Figure> figures, Map<String, String> descriptions, Path dir)
            throws IOException {
        List<Charts.ChartFile> out = new ArrayList<>();
        for (Chart c : charts(figures, descriptions)) {
            Path file = FileNames.fresh(dir, c.file().substring(0, c.file().length() - ".svg".length()), ".svg");
            AtomicFiles.write(file, c.svg());
            out.add(new Charts.ChartFile(c.title(), file, c.data()));
        }
        return out;
    }

    private static final Pattern CHART = Pattern.compile("(.+-)?partition-(tokens|request)-.+\\.svg");

    /** Whether {@code c} is one of this section's charts. */
    static boolean isChart(Charts.ChartFile c) {
        return CHART.matcher(c.svg().getFileName().toString()).matches();
    }

    /** Whether {@code c} is one of this section's charts of {@code machine}, in a report over {@code machines} machines. */
    static boolean isChartOf(Charts.ChartFile c, String machine, int machines) {
        String name = c.svg().getFileName().toString();
        return isChart(c) && name.startsWith(PartitionVerdict.prefix(machine, machines) + "partition-");
    }

    private static String runsText(int runs) {
        return runs == 1 ? "1 run" : "median of " + runs + " runs";
    }

    private static String series(Figure f) {
        return f.plan() == Plan.SINGLE ? NO_EXCHANGES : f.transport();
    }

    /** The distinct {@code names}, those in {@code order} first in that order, then the rest sorted. */
    private static List<String> ordered(List<String> names, List<String> order) {
        TreeSet<String> rest = new TreeSet<>(names);
        List<String> out = new ArrayList<>();
        for (String o : order) {
            if (rest.remove(o)) {
                out.add(o);
            }
        }
        out.addAll(rest);
        return out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** {@code [series][plan]}, NaN where a plan has no figure for a series (a transport, or SINGLE's own). */
    static double[][] values(List<Figure> fs, List<Plan> plans, List<String> series, boolean request) {
        double[][] v = new double[series.size()][plans.size()];
        for (double[] row : v) {
            Arrays.fill(row, Double.NaN);
        }
        for (Figure f : fs) {
            List<Double> x = request ? f.requestUs() : f.tokensPerSecond();
            int i = series.indexOf(series(f));
            if (!x.isEmpty() && i >= 0) {
                v[i][plans.indexOf(f.plan())] = request ? median(x) / 1000 : median(x);
            }
        }
        return v;
    }

    private static double[][] zeros(int series, int groups) {
        return new double[series][groups];
    }
}
