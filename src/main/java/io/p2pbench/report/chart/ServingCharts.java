package io.p2pbench.report.chart;

import io.p2pbench.partition.Plan;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.serving.PointStats;
import io.p2pbench.serving.Stability;
import io.p2pbench.serving.Target;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The serving section's charts, per machine and workload: p99 TTFT and p99 TPOT against the offered
 * rate, one line per plan and transport with the target drawn in; and the capacity (knee) per plan
 * with the transports side by side (P2P on, off, host-staged). Machines are never mixed in a chart.
 */
public final class ServingCharts {
    private static final Pattern CHART = Pattern.compile("(.+-)?serving-(ttft|tpot|capacity)-.+\\.svg");
    private static final List<String> TRANSPORT_ORDER = List.of("P2P", "P2P_OFF", "HOST_STAGED");

    private static final String SVG = ".svg";
    /** What a knee is, said on every chart that draws one or points that decide it. */
    static final String KNEE = "knee: the highest offered rate at which the server keeps up (its queue does not grow) AND "
            + "meets the latency target";

    private ServingCharts() {}

    /** Whether {@code c} is one of these charts. */
    public static boolean isChart(Charts.ChartFile c) {
        return CHART.matcher(c.svg().getFileName().toString()).matches();
    }

    /** Whether {@code c} is one of these charts of {@code machine}, in a report over {@code machines} machines. */
    public static boolean isChartOf(Charts.ChartFile c, String machine, int machines) {
        return isChart(c) && c.svg().getFileName().toString().startsWith(PartitionNames.prefix(machine, machines)
                + "serving-");
    }

    /** Writes the charts into {@code dir}; the files written, in order. */
    public static List<Charts.ChartFile> write(List<ServingResults.Sweep> sweeps, Map<String, String> descriptions, Path dir)
            throws IOException {
        List<Charts.ChartFile> out = new ArrayList<>();
        List<String> machines = sweeps.stream().map(ServingResults.Sweep::machine).distinct().toList();
        for (String machine : machines) {
            Map<String, List<ServingResults.Sweep>> byScenario = sweeps.stream()
                    .filter(s -> s.machine().equals(machine) && !s.runs().isEmpty())
                    .collect(Collectors.groupingBy(ServingResults.Sweep::scenario, LinkedHashMap::new, Collectors.toList()));
            int k = 0;
            for (List<ServingResults.Sweep> scenario : byScenario.values()) {
                String slug = Charts.stem(scenario.get(0).model().toLowerCase(Locale.ROOT))
                        + (byScenario.size() > 1 ? "-" + (++k) : "");
                String prefix = PartitionNames.prefix(machine, machines.size()) + "serving-";
                String subtitle = "on " + descriptions.getOrDefault(machine, machine)
                        + (scenario.stream().anyMatch(ServingResults.Sweep::singleGpu) ? "; " + PartitionNames.SINGLE_GPU
                        : "");
                Target target = scenario.get(0).sweep().target();
                String model = scenario.get(0).model();
                out.add(save(dir, prefix + "ttft-" + slug + ".svg", "p99 time to first token vs offered rate per plan: "
                        + model, subtitle, scenario, true, target.ttftP99Nanos() / 1e3));
                out.add(save(dir, prefix + "tpot-" + slug + ".svg", "p99 time per output token vs offered rate per plan: "
                        + model, subtitle, scenario, false, target.tpotP99Nanos() / 1e3));
                String title = "Capacity per plan under the target, P2P on vs off: " + model;
                Path file = FileNames.fresh(dir, prefix + "capacity-" + slug, SVG);
                AtomicFiles.write(file, capacity(title, subtitle, scenario, target));
                out.add(new Charts.ChartFile(title, file, null));
            }
        }
        return out;
    }

    private static Charts.ChartFile save(Path dir, String name, String title, String subtitle,
                                         List<ServingResults.Sweep> scenario, boolean ttft, double targetUs)
            throws IOException {
        List<RateChart.Series> series = new ArrayList<>();
        int runs = 1;
        for (ServingResults.Sweep s : ordered(scenario)) {
            runs = Math.max(runs, s.runs().size());
            List<RateChart.Point> pts = new ArrayList<>();
            for (double rate : s.commonRates()) {
                Function<ServingResults.Point, Double> value = p -> (ttft ? p.stats().ttft().p99()
                        : p.stats().tpot().p99()) / 1e3;
                List<Double> values = s.at(rate, value::apply);
                double y = Statistics.median(values);
                double low;
                double high;
                if (s.runs().size() == 1) {
                    PointStats st = s.runs().get(0).at(rate).stats();
                    ExactTests.Interval ci = ExactTests.p99Interval(ttft ? st.ttft() : st.tpot());
                    low = ci.exists() ? ci.low() / 1e3 : Double.NaN;
                    high = ci.exists() ? ci.high() / 1e3 : Double.NaN;
                } else {
                    low = values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
                    high = values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
                }
                pts.add(new RateChart.Point(rate, y, low, high, s.at(rate, p -> p.met() ? 0 : 1).contains(1.0)));
            }
            series.add(new RateChart.Series(label(s) + (s.plan() == Plan.SINGLE ? "" : ", " + s.transport()), pts,
                    whyBroke(s)));
        }
        String what = ttft ? "p99 time to first token" : "p99 time per output token";
        List<String> notes = List.of(what + " (R-7) per offered rate, " + (runs == 1
                        ? "bars: its distribution-free interval from order statistics (coverage in the summary's table)"
                        : "median of " + runs + " runs, bars: their range"),
                "the dashed line is the target; a triangle at the top: requests left unfinished at the point's cap",
                "ringed red: the point broke the target in a run (why: under its legend entry); a point below the target line",
                "still breaks it where the server does not keep up (its queue grows)", KNEE);
        Path file = FileNames.fresh(dir, name.substring(0, name.length() - SVG.length()), SVG);
        AtomicFiles.write(file, RateChart.render(title, subtitle, notes, what + " (log scale)", series, targetUs,
                "plan and transport"));
        return new Charts.ChartFile(title, file, null);
    }

    private static String capacity(String title, String subtitle, List<ServingResults.Sweep> scenario, Target target) {
        List<Plan> plans = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (ServingResults.Sweep s : ordered(scenario)) {
            if (!plans.contains(s.plan())) {
                plans.add(s.plan());
                labels.add(label(s));
            }
        }
        List<String> series = new ArrayList<>(List.of(PartitionNames.NO_EXCHANGES));
        series.addAll(TRANSPORT_ORDER);
        double[][] values = new double[series.size()][plans.size()];
        for (double[] row : values) {
            Arrays.fill(row, Double.NaN);
        }
        for (ServingResults.Sweep s : scenario) {
            int i = s.plan() == Plan.SINGLE ? 0 : series.indexOf(s.transport());
            double knee = Statistics.median(s.knees());
            if (i >= 0 && !Double.isNaN(knee)) {
                values[i][plans.indexOf(s.plan())] = knee;
            }
        }
        return SvgChart.bars(title, subtitle, List.of(KNEE, "target: p99 TTFT <= "
                        + Target.formatDuration(target.ttftP99Nanos()) + " and p99 TPOT <= "
                        + Target.formatDuration(target.tpotP99Nanos()) + ", every request finished, served >= "
                        + Math.round(100 * (1 - Stability.MARGIN)) + "% of the output tokens that arrived",
                        "a knee is known to within its bracket (see the table); higher is better; no bar: not measured or "
                        + "no rate met the target"),
                "requests/s at the target", labels, series, values, new double[series.size()][plans.size()], "%.3g");
    }

    /**
     * Why {@code s} broke the target at the lowest rate any run broke it, with its knee:
     * {@code knee 44.1; broke at 62.4 req/s (4 of 4 runs): the queue grows (server fell behind); p99 TTFT 163 ms,
     * TPOT 42.1 ms within target}; null where no run broke it.
     */
    static String whyBroke(ServingResults.Sweep s) {
        double rate = s.commonRates().stream().filter(r -> s.at(r, p -> p.met() ? 0 : 1).contains(1.0)).findFirst()
                .orElse(Double.NaN);
        if (Double.isNaN(rate)) {
            return null;
        }
        Set<Target.Breach> causes = EnumSet.noneOf(Target.Breach.class);
        int broke = 0;
        for (ServingResults.Run r : s.runs()) {
            ServingResults.Point p = r.at(rate);
            if (p != null && !p.met()) {
                broke++;
                causes.addAll(p.breaches());
            }
        }
        double knee = Statistics.median(s.knees());
        String text = (Double.isNaN(knee) ? "no knee" : "knee " + rate(knee)) + "; broke at " + rate(rate) + " req/s"
                + (s.runs().size() > 1 ? " (" + broke + " of " + s.runs().size() + " runs)" : "") + ": "
                + causes.stream().map(Target.Breach::shortName).collect(Collectors.joining(", "));
        if (!causes.contains(Target.Breach.TTFT) && !causes.contains(Target.Breach.TPOT)) {
            double ttft = Statistics.median(s.at(rate, p -> p.stats().ttft().p99()));
            double tpot = Statistics.median(s.at(rate, p -> p.stats().tpot().p99()));
            text += "; p99 TTFT " + Axis.micros(ttft / 1e3) + ", TPOT " + Axis.micros(tpot / 1e3) + " within target";
        }
        return text;
    }

    /** A rate to three significant digits, without trailing zeros. */
    private static String rate(double r) {
        return new BigDecimal(r).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static String label(ServingResults.Sweep s) {
        return s.plan() == Plan.SINGLE ? s.plan().name() : s.plan() + " over GPUs " + s.group();
    }

    private static List<ServingResults.Sweep> ordered(List<ServingResults.Sweep> sweeps) {
        return sweeps.stream().sorted(Comparator.comparing((ServingResults.Sweep s) ->
                s.plan()).thenComparingInt(s -> TRANSPORT_ORDER.indexOf(s.transport()))).toList();
    }
}
