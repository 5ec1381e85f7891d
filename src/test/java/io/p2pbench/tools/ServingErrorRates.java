package io.p2pbench.tools;

import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.report.verdict.ServingVerdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Measures the serving verdict's error rates on A/A reruns (same command, same workload, same build, same
 * machine): for every sweep (plan, transport and group of one model and workload) that two or more of the
 * runs hold, and every ordered pair of distinct runs (i, j), run i's sweep is judged as if it were a plan against
 * run j's as if it were SINGLE, by {@link ServingVerdict#figures} (the verdict's own latency and capacity rules
 * and floors, one run per side, labels ignored). A keep is a false alarm; a p99 risen by more than the latency
 * floor or a knee fallen by more than the capacity floor is a difference a verdict would call worse. Beside
 * them, per sweep, the measured spread (max/min - 1) of each p99 at every rate all runs measured and of the
 * knee, against the documented floors. Writes a Markdown file; run by {@code tools/serving-error-rates.sh}.
 *
 * <p>Usage: {@code ServingErrorRates OUT.md RUN RUN [RUN...]}.
 */
public final class ServingErrorRates {
    private ServingErrorRates() {}

    /** One sweep as each run that holds it measured it, in the order of the runs given. */
    record Measured(String name, List<String> runs, List<ServingResults.Sweep> sweeps) {}

    /** Run {@code planRun}'s sweep judged against {@code singleRun}'s as SINGLE. */
    record Pair(String sweep, String planRun, String singleRun, ServingVerdict.Figures figures) {}

    /** Writes the error-rate tables of the runs named to the file named first, and prints them. */
    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: ServingErrorRates OUT.md RUN RUN [RUN...]");
            System.exit(2);
        }
        List<Path> paths = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            paths.add(Path.of(args[i]));
        }
        try {
            System.out.print(write(Path.of(args[0]), paths));
        } catch (BadInputException bad) {
            System.err.println("serving-error-rates: " + bad.getMessage());
            System.exit(2);
        }
    }

    /** Writes the error-rate tables of {@code runs} to {@code out} and returns them. */
    static String write(Path out, List<Path> runs) throws IOException {
        List<String> names = new ArrayList<>();
        List<List<ServingResults.Sweep>> perRun = new ArrayList<>();
        List<String> formats = new ArrayList<>();
        for (Path p : runs) {
            ResultData d = ResultReader.read(p);
            String name = String.valueOf(p.toAbsolutePath().normalize().getFileName());
            names.add(names.contains(name) ? name + " (" + (names.size() + 1) + ")" : name);
            perRun.add(ServingResults.read(List.of(d)));
            String format = "`" + d.manifest().format() + "`";
            if (!formats.contains(format)) {
                formats.add(format);
            }
        }
        StringBuilder md = new StringBuilder("# The serving verdict's error rates on A/A reruns\n\n");
        md.append("Written by `tools/serving-error-rates.sh ").append(String.join(" ",
                        runs.stream().map(p -> p.toString().replace('\\', '/')).toList()))
                .append("` (no GPU), from the result folders as stored (results format ")
                .append(String.join(", ", formats)).append("). Do not edit by hand: run it again.\n\n");
        md.append(report(names, perRun));
        Files.writeString(out, md.toString());
        return md.toString();
    }

    /** The tables and summary lines of the sweeps of {@code perRun} (one list per run, named {@code names}). */
    static String report(List<String> names, List<List<ServingResults.Sweep>> perRun) {
        List<Measured> measured = matched(names, perRun);
        List<Pair> pairs = pairs(measured);
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Runs: %s. Each sweep held by two or more of them is judged run against "
                + "run, both ways: the first run's sweep as if it were a plan, the second's as if it were SINGLE, by "
                + "the verdict's own rules (`ServingVerdict.figures`) with one run per side, so with the documented "
                + "floors: latency %.0f%% (p99 TTFT %.0f%%), capacity %.0f%%. Labels are ignored (a group that repeats a GPU, which the "
                + "report calls \"cannot judge\", is judged here like any other; SINGLE against itself too). Any keep "
                + "is a false alarm; \"worse\" is a p99 at the reference rate risen by more than the latency floor or "
                + "a knee fallen by more than the capacity floor: a difference the verdict would count against a "
                + "plan.%n%n", String.join(", ", names.stream().map(n -> "`" + n + "`").toList()),
                100 * PartitionVerdict.P99_FLOOR, 100 * ServingVerdict.TTFT_FLOOR, 100 * ServingVerdict.CAPACITY_FLOOR));
        if (measured.isEmpty()) {
            return md.append("No sweep is held by two or more of the runs: nothing to compare.\n").toString();
        }
        md.append("## Summary\n\n");
        for (String line : summaries(measured, pairs)) {
            md.append("- ").append(line).append('\n');
        }
        md.append("\n## A/A pairs\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (Pair p : pairs) {
            ServingVerdict.Figures f = p.figures();
            List<String> row = new ArrayList<>(List.of(p.sweep(), p.planRun(), p.singleRun(),
                    Double.isNaN(f.ratePerSecond()) ? "none in common" : ServingVerdict.rate(f.ratePerSecond())));
            for (int m = 0; m < ServingVerdict.METRICS.size(); m++) {
                row.add(f.latency() == null ? "n/a" : change(f.latency().p99Changes().get(m)));
            }
            ServingVerdict.Capacity c = f.capacity();
            row.add(ServingVerdict.rate(c.knee()) + " vs " + ServingVerdict.rate(c.singleKnee())
                    + (Double.isNaN(c.knee() / c.singleKnee()) ? "" : " (" + change(c.knee() / c.singleKnee() - 1) + ")"));
            row.add(f.keep() ? "keep" : "reject");
            row.add(f.keep() ? "yes" : "no");
            row.add(f.worse() ? "yes" : "no");
            rows.add(row);
        }
        md.append(Markdown.table(List.of("sweep", "run i (as plan)", "run j (as SINGLE)", "reference rate (req/s)",
                "p99 TTFT", "p99 TPOT", "p99 e2e", "knee i vs j (req/s)", "verdict", "false alarm", "worse"), rows));
        md.append("\n## Measured spread between the runs\n\n");
        md.append(String.format(Locale.ROOT, "Spread: max/min - 1 over the runs, per sweep, of each p99 at every rate "
                + "all of them measured, and of the knee; the verdict raises its floors to these when given several "
                + "runs per side. Documented floors: latency %.0f%% (p99 TTFT %.0f%%), capacity %.0f%%; a spread beyond "
                + "its floor is in bold. Past the knee a p99 grows with the queue, so the spreads that matter for the "
                + "latency rule are those at rates every run met the target.%n%n", 100 * PartitionVerdict.P99_FLOOR,
                100 * ServingVerdict.TTFT_FLOOR, 100 * ServingVerdict.CAPACITY_FLOOR));
        md.append(spreadTable(measured));
        md.append('\n').append(kneeTable(measured));
        return md.toString();
    }

    /** The sweeps held by two or more runs, keyed by machine, model, workload, plan, transport and group. */
    static List<Measured> matched(List<String> names, List<List<ServingResults.Sweep>> perRun) {
        Map<String, List<Integer>> runsOf = new LinkedHashMap<>();
        Map<String, List<ServingResults.Sweep>> sweepsOf = new LinkedHashMap<>();
        for (int i = 0; i < perRun.size(); i++) {
            for (ServingResults.Sweep s : perRun.get(i)) {
                if (s.runs().isEmpty()) {
                    continue;
                }
                String key = s.scenario() + "|" + s.plan() + "|" + s.transport() + "|" + s.group();
                runsOf.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
                sweepsOf.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            }
        }
        Map<String, Integer> labels = new LinkedHashMap<>();
        sweepsOf.forEach((k, v) -> labels.merge(label(v.get(0)), 1, Integer::sum));
        List<Measured> out = new ArrayList<>();
        for (Map.Entry<String, List<ServingResults.Sweep>> e : sweepsOf.entrySet()) {
            List<Integer> runs = runsOf.get(e.getKey());
            if (runs.size() < 2) {
                continue;
            }
            ServingResults.Sweep first = e.getValue().get(0);
            String name = labels.get(label(first)) > 1 ? label(first) + " [" + first.scenario() + "]" : label(first);
            out.add(new Measured(name, runs.stream().map(names::get).toList(), List.copyOf(e.getValue())));
        }
        return out;
    }

    private static String label(ServingResults.Sweep s) {
        return s.model() + " " + s.plan() + " " + s.transport() + " " + s.group();
    }

    /** Every ordered pair of distinct runs of every sweep. */
    static List<Pair> pairs(List<Measured> measured) {
        List<Pair> out = new ArrayList<>();
        for (Measured m : measured) {
            for (int i = 0; i < m.sweeps().size(); i++) {
                for (int j = 0; j < m.sweeps().size(); j++) {
                    if (i != j) {
                        out.add(new Pair(m.name(), m.runs().get(i), m.runs().get(j),
                                ServingVerdict.figures(m.sweeps().get(i), m.sweeps().get(j))));
                    }
                }
            }
        }
        return out;
    }

    /** One line per sweep, then one over all: false keeps and differences beyond a floor among the A/A pairs. */
    static List<String> summaries(List<Measured> measured, List<Pair> pairs) {
        List<String> out = new ArrayList<>();
        for (Measured m : measured) {
            List<Pair> own = pairs.stream().filter(p -> p.sweep().equals(m.name())).toList();
            out.add(m.name() + ": " + tally(own) + "; " + spreads(m));
        }
        out.add("overall: " + tally(pairs));
        return out;
    }

    private static String tally(List<Pair> pairs) {
        long keeps = pairs.stream().filter(p -> p.figures().keep()).count();
        long worse = pairs.stream().filter(p -> p.figures().worse()).count();
        return String.format(Locale.ROOT, "false keeps %d of %d A/A pairs; differences beyond the floor %d of %d", keeps,
                pairs.size(), worse, pairs.size());
    }

    /** The largest p99 spreads at rates every run met the target, and the knees' spread, beside the floors. */
    private static String spreads(Measured m) {
        List<String> parts = new ArrayList<>();
        List<Double> met = rates(m).stream().filter(r -> runs(m).stream().allMatch(run -> run.at(r).met())).toList();
        for (String metric : ServingVerdict.METRICS) {
            double worst = met.stream().mapToDouble(r -> spread(values(m, r, ServingVerdict.p99(metric)))).max().orElse(Double.NaN);
            parts.add(metric + " " + percent(worst));
        }
        return String.format(Locale.ROOT, "largest p99 spread at rates every run met the target (%s req/s): %s (floor "
                        + "%.0f%%, TTFT %.0f%%); knee spread %s (floor %.0f%%)",
                met.isEmpty() ? "none" : String.join(", ", met.stream().map(ServingVerdict::rate).toList()),
                String.join(", ", parts), 100 * PartitionVerdict.P99_FLOOR, 100 * ServingVerdict.TTFT_FLOOR,
                percent(spread(knees(m))),
                100 * ServingVerdict.CAPACITY_FLOOR);
    }

    private static String spreadTable(List<Measured> measured) {
        List<List<String>> rows = new ArrayList<>();
        for (Measured m : measured) {
            for (double r : rates(m)) {
                long metBy = runs(m).stream().filter(run -> run.at(r).met()).count();
                List<String> row = new ArrayList<>(List.of(m.name(), ServingVerdict.rate(r),
                        metBy + " of " + runs(m).size()));
                for (String metric : ServingVerdict.METRICS) {
                    double sp = spread(values(m, r, ServingVerdict.p99(metric)));
                    row.add(flagged(sp, "TTFT".equals(metric) ? ServingVerdict.TTFT_FLOOR : PartitionVerdict.P99_FLOOR));
                }
                rows.add(row);
            }
        }
        return Markdown.table(List.of("sweep", "rate (req/s)", "runs that met the target", "p99 TTFT spread",
                "p99 TPOT spread", "p99 e2e spread"), rows);
    }

    private static String kneeTable(List<Measured> measured) {
        List<List<String>> rows = new ArrayList<>();
        for (Measured m : measured) {
            List<Double> k = knees(m);
            rows.add(List.of(m.name(), String.join(", ", k.stream().map(ServingVerdict::rate).toList()),
                    flagged(spread(k), ServingVerdict.CAPACITY_FLOOR)));
        }
        return Markdown.table(List.of("sweep", "knee per run (req/s)", "knee spread"), rows);
    }

    /** Every run of the sweep, across the result folders. */
    private static List<ServingResults.Run> runs(Measured m) {
        return m.sweeps().stream().flatMap(s -> s.runs().stream()).toList();
    }

    /** The rates every run of the sweep measured, in the first run's order. */
    static List<Double> rates(Measured m) {
        List<ServingResults.Run> runs = runs(m);
        return runs.get(0).points().stream().map(ServingResults.Point::ratePerSecond)
                .filter(r -> runs.stream().allMatch(x -> x.at(r) != null)).toList();
    }

    private static List<Double> values(Measured m, double rate, ToDoubleFunction<ServingResults.Point> f) {
        return runs(m).stream().map(run -> f.applyAsDouble(run.at(rate))).toList();
    }

    private static List<Double> knees(Measured m) {
        return m.sweeps().stream().flatMap(s -> s.knees().stream()).toList();
    }

    /** max/min - 1; NaN when a value is NaN (no knee), infinite when some but not all are infinite (unfinished). */
    static double spread(List<Double> v) {
        if (v.stream().anyMatch(x -> Double.isNaN(x))) {
            return Double.NaN;
        }
        double min = v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double max = v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        if (Double.isInfinite(min)) {
            return 0;
        }
        return max / min - 1;
    }

    private static String flagged(double spread, double floor) {
        return spread > floor ? "**" + percent(spread) + "**" : percent(spread);
    }

    private static String percent(double fraction) {
        return Double.isNaN(fraction) ? "n/a" : Double.isInfinite(fraction) ? "unfinished in some runs"
                : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    private static String change(double fraction) {
        if (Double.isNaN(fraction)) {
            return "unfinished on both sides";
        }
        if (Double.isInfinite(fraction)) {
            return fraction > 0 ? "unfinished in i only" : "unfinished in j only";
        }
        return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
    }
}
