package io.p2pbench.report.render;

import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.report.verdict.Comparison;
import io.p2pbench.report.verdict.GatedFigures;
import io.p2pbench.report.verdict.Verdict;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A comparison as Markdown (matching used, method, one row per match) and as overlay charts: per
 * pair (or link class) and direction, bandwidth vs size of the candidate (solid) over the baseline
 * (dashed), for every path with two matched sizes or more. Runs of two different machines are
 * written side by side instead: both figures and their ratio per measurement, no verdicts.
 */
public final class ComparisonReport {
    private ComparisonReport() {}

    /** The Markdown section of one comparison. */
    public static String markdown(Comparison.Result r) {
        if (r.matching() == Comparison.Matching.ACROSS_MACHINES) {
            return sideBySideMarkdown(r);
        }
        StringBuilder sb = new StringBuilder();
        sb.append("## Compare `").append(r.baselineLabel()).append("` (baseline) with `").append(r.candidateLabel())
                .append("`\n\n");
        sb.append("- Matching: ").append(r.matching() == Comparison.Matching.SAME_MACHINE ? "same machine" : "across machines")
                .append(", by ").append(r.matching().key()).append(". ").append(r.note()).append('\n');
        boolean inRounds = r.rows().stream().anyMatch(ComparisonReport::byRounds);
        boolean byRuns = r.rows().stream().anyMatch(row -> !byRounds(row));
        String sides = "baseline " + r.baselines().size() + " run(s), candidate " + r.candidates().size() + " run(s)";
        sb.append("- Unit of evidence: ");
        if (inRounds) {
            sb.append("for rows measured in rounds (`run --rounds`; each round in benchmark JVMs of its own), a round: "
                    + "per row and round, the median over batches (latency: p50, ").append(Statistics.PERCENTILE_ESTIMATOR)
                    .append("); per side, the geometric mean of the rounds of its runs (").append(sides).append("; rows through "
                    + "pinned host memory set aside rounds more than 10% below their median when at most a quarter are, and a run "
                    + "whose rounds disagree, more than a quarter 10% below their upper quartile; none left: not judged).")
                    .append(byRuns ? " Other rows: a run, " : "\n");
        }
        if (byRuns) {
            sb.append(inRounds ? "per row and run" : "a run. Per row and run").append(", the median over batches "
                    + "(latency: p50, ").append(Statistics.PERCENTILE_ESTIMATOR).append("); per side, the median of its "
                    + "runs").append(inRounds ? ".\n" : " (" + sides + ").\n");
        }
        sb.append("- Verdict: worse or better only beyond ±").append(Markdown.plain(r.thresholdPct()))
                .append("% and beyond the row's noise floor (from ").append(r.noise())
                .append("), and significant after Benjamini-Hochberg across the rows that can be tested (")
                .append(inRounds ? "rows in rounds: Student t on their log round figures; other rows: " : "")
                .append("an exact two-sided Mann-Whitney test of the run figures, where it can reach α = ")
                .append(Comparison.ALPHA).append("; elsewhere \"no test: n too small\" with the smallest attainable p)."
                        + " Bandwidth up and latency "
                        + "down are better. A row within a noise floor wider than the threshold cannot be judged at "
                        + "the threshold and is counted apart, as is a row without a ratio. A collective's alg/bus pair "
                        + "is one measurement (the worst of its rows decides); so is a bidirectional copy, whose sum "
                        + "over the common window decides while its lanes are shown.\n");
        sb.append("- Interval: of the ratio").append(inRounds ? "; rows in rounds: Student t on the log round figures, "
                + "their spread pooled over both sides plus the drift between runs, of which the row's noise floor is the "
                + "half-width" + (byRuns ? "; other rows: " : ".\n") : ", ");
        if (byRuns) {
            sb.append("distribution-free (the Hodges-Lehmann/Moses shift interval of the log run figures), with its "
                    + "coverage stated: exact for continuous figures, at least that (≥) where run figures tie; none with "
                    + "one run on each side.\n");
        }
        sb.append(String.format(Locale.ROOT, "- Result: **%d worse**, %d better, %d same%s measurements (%d rows); "
                        + "%d baseline-only and %d candidate-only rows not compared.%n%n", r.count(Verdict.WORSE),
                r.count(Verdict.BETTER), r.count(Verdict.SAME), unjudged(r), r.rows().size(),
                r.baselineOnly(), r.candidateOnly()));
        if (r.widerFloors() > 0 && r.inRounds()) {
            sb.append("- M").append(moreRuns(r).substring(3)).append("; each such row's estimate is in its \"why\" "
                    + "below.\n\n");
        }
        for (ResultData b : Stream.concat(r.baselines().stream(), r.candidates().stream()).toList()) {
            if (!b.isRun() && !b.notMeasured().isEmpty()) {
                sb.append("Not used from `").append(b.label()).append("`:\n\n");
                b.notMeasured().forEach(n -> sb.append("- ").append(n.id()).append(" (").append(n.status())
                        .append("): ").append(n.reason()).append('\n'));
                sb.append('\n');
            }
        }
        List<List<String>> rows = new ArrayList<>();
        for (Comparison.Group g : r.groups()) {
            boolean firstOfGroup = true;
            for (Comparison.Row row : g.rows()) {
                Measurement c = row.candidate();
                String unit = c.key().biggerIsBetter() ? " GB/s" : " µs";
                String verdict = !firstOfGroup ? (row.verdict() == Verdict.UNJUDGED ? "(lane)" : "〃")
                        : g.verdict() == Verdict.SAME || g.verdict() == Verdict.UNJUDGED
                        ? VerdictWords.word(g.verdict()) : "**" + VerdictWords.word(g.verdict()) + "**";
                rows.add(List.of(c.key().metric(), c.key().kind(), c.pairWithLink(), c.key().path(),
                        c.key().direction(), Sizes.format(c.key().sizeBytes()),
                        Markdown.number(row.baselineValue()) + unit + figures(row, row.baselineRuns()),
                        Markdown.number(row.candidateValue()) + unit + figures(row, row.candidateRuns()),
                        ratio(row), Markdown.change(row.ratio()),
                        Double.isNaN(row.floor().fraction()) ? "n/a"
                                : String.format(Locale.ROOT, "±%.1f%%", row.floor().fraction() * 100),
                        verdict, row.why() + (firstOfGroup ? floorSource(row) : "")));
                firstOfGroup = false;
            }
        }
        sb.append(Markdown.table(List.of("metric", "kind", "pair (link)", "path", "direction", "size", "baseline",
                "candidate", "ratio [interval, coverage]", "change", "noise floor", "verdict", "why"), rows))
                .append('\n');
        return sb.toString();
    }

    /**
     * Where the floor of a measurement judged by its rounds comes from, after its why: rounds, spread, drift between
     * runs and the t test's degrees of freedom ({@code RoundRows}); nothing where the floor is the table's.
     */
    private static String floorSource(Comparison.Row row) {
        return byRounds(row) ? " (floor from " + row.floor().source() + ")" : "";
    }

    /**
     * The lines a CI log shows: one verdict line, then at most {@code maxRows} measurements that are
     * worse or better, worst first, then how many more are in compare.md. For two different machines:
     * one line naming which machine is which, then every measurement with both figures and its ratio.
     */
    public static List<String> summary(Comparison.Result r, int maxRows) {
        return summary(r, new GatedFigures.Result(List.of(), 0, 0, ""), maxRows);
    }

    /**
     * The same, with the partition and serving figures {@code gated} counted among the measurements and named
     * after them (their rows in the same format), within the same {@code maxRows}.
     */
    public static List<String> summary(Comparison.Result r, GatedFigures.Result gated, int maxRows) {
        if (r.matching() == Comparison.Matching.ACROSS_MACHINES || gated.acrossMachines()) {
            return sideBySideSummary(r, gated);
        }
        List<String> out = new ArrayList<>();
        long worse = r.count(Verdict.WORSE) + gated.count(Verdict.WORSE);
        long better = r.count(Verdict.BETTER) + gated.count(Verdict.BETTER);
        String noise = gated.isEmpty() ? r.noise() : r.groups().isEmpty() ? GatedFigures.NOISE
                : r.noise() + "; " + GatedFigures.NOISE;
        out.add(String.format(Locale.ROOT, "%s: %s vs baseline %s: %d worse, %d better, %d same%s of %d measurements "
                        + "(threshold ±%s%%, noise floor from %s)", worse > 0 ? "WORSE" : better > 0 ? "BETTER" : "SAME",
                r.candidateLabel(), r.baselineLabel(), worse, better, r.count(Verdict.SAME)
                        + gated.count(Verdict.SAME), unjudged(r, gated),
                r.groups().size() + gated.groups().size(), Markdown.plain(r.thresholdPct()), noise));
        if (r.widerFloors() > 0 && r.inRounds()) {
            out.add(moreRuns(r));
        }
        List<Comparison.Group> named = r.groups().stream().filter(g -> g.verdict() == Verdict.WORSE
                || g.verdict() == Verdict.BETTER).toList();
        for (Comparison.Group g : named.subList(0, Math.min(maxRows, named.size()))) {
            Comparison.Row h = g.headline();
            Measurement c = h.candidate();
            String unit = c.key().biggerIsBetter() ? "GB/s" : "µs";
            out.add(String.format(Locale.ROOT, "  %-6s %s %s %s %s %s: %s -> %s %s (%s; %.1f%% apart, floor %.1f%%)%s",
                    VerdictWords.word(g.verdict()), c.key().kind(), c.pairLabel(), c.key().path(), c.key().direction(),
                    Sizes.format(c.key().sizeBytes()) + figure(c), Markdown.number(h.baselineValue()),
                    Markdown.number(h.candidateValue()), unit, Markdown.change(h.ratio()),
                    (Math.max(h.ratio(), 1 / h.ratio()) - 1) * 100,
                    Double.isNaN(h.floor().fraction()) ? 0 : h.floor().fraction() * 100,
                    g.rows().size() > 1 ? " [+" + (g.rows().size() - 1) + " lane(s) of this measurement]" : ""));
        }
        out.addAll(GatedFiguresReport.named(gated, maxRows - Math.min(maxRows, named.size())));
        long more = named.size() + GatedFiguresReport.changed(gated) - maxRows;
        if (more > 0) {
            out.add("  ... and " + more + " more in compare.md");
        }
        GatedFiguresReport.confirm(gated).ifPresent(out::add);
        if (r.widerFloors() + r.unjudged(Comparison.Unjudged.HOST_CPU) + gated.widerFloors() > 0) {
            out.add(notGated(r, gated));
        }
        return out;
    }

    /**
     * What pooling baselines would buy: of the measurements wider than the threshold, how many the model estimates
     * {@link Comparison#MORE_RUNS} more baseline runs would judge.
     */
    static String moreRuns(Comparison.Result r) {
        return String.format(Locale.ROOT, "  more baseline runs: of the %d measurements whose floor is wider than ±%s%%, "
                        + "about %d would be judged with a baseline of %d runs like these (the model's estimate: the same "
                        + "rounds a run, spread and drift between runs)",
                r.widerFloors(), Markdown.plain(r.thresholdPct()), r.judgedWithMoreRuns(),
                r.baselines().size() + Comparison.MORE_RUNS);
    }

    /** How many kinds of measurement {@link #notGated} names on its line before it points to compare.md. */
    static final int NOT_GATED_KINDS = 8;

    /**
     * Which measurements the gate does not cover here: those whose floor is wider than the threshold (widened by the
     * host's CPU or not), by metric, kind and path (partition and serving figures by section and figure, "on other
     * GPUs" where their floors are those between hosts), most first, each with how many and the range of their floors
     * ({@code not gated at ±5% (floor wider): bandwidth host PAGEABLE LOCAL x9 (±21-68%); ...}). A CI log then says
     * what exit 0 does not vouch for.
     */
    static String notGated(Comparison.Result r, GatedFigures.Result gated) {
        Map<String, double[]> kinds = new LinkedHashMap<>(); // {count, least floor, widest floor}
        r.groups().stream().filter(g -> g.verdict() == Verdict.UNJUDGED && (g.headline().cause()
                        == Comparison.Unjudged.WIDER_FLOOR || g.headline().cause() == Comparison.Unjudged.HOST_CPU))
                .map(Comparison.Group::headline)
                .forEach(h -> {
                    Measurement.Key k = h.candidate().key();
                    count(kinds, k.metric() + " " + k.kind() + " " + k.path(), h.floor().fraction());
                });
        String hosts = gated.otherGpus() ? " on other GPUs" : "";
        gated.groups().stream().filter(g -> g.verdict() == Verdict.UNJUDGED && g.headline().withinWiderFloor())
                .forEach(g -> count(kinds, g.section() + " " + g.headline().figure() + hosts, g.headline().floor()));
        List<String> named = kinds.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -e.getValue()[0])
                        .thenComparing(Map.Entry::getKey))
                .map(e -> String.format(Locale.ROOT, "%s x%d (±%s%%)", e.getKey(), (int) e.getValue()[0],
                        Math.round(e.getValue()[1]) == Math.round(e.getValue()[2]) ? Long.toString(Math.round(e.getValue()[1]))
                                : Math.round(e.getValue()[1]) + "-" + Math.round(e.getValue()[2])))
                .toList();
        String more = named.size() > NOT_GATED_KINDS ? "; and " + (named.size() - NOT_GATED_KINDS)
                + " more kinds (compare.md)" : "";
        return "  not gated at ±" + Markdown.plain(r.thresholdPct()) + "% (floor wider): "
                + String.join("; ", named.subList(0, Math.min(NOT_GATED_KINDS, named.size()))) + more;
    }

    /** Counts a measurement of {@code kind} with floor {@code fraction} in {@code kinds}: {count, least %, widest %}. */
    private static void count(Map<String, double[]> kinds, String kind, double fraction) {
        double f = fraction * 100;
        double[] v = kinds.computeIfAbsent(kind, x -> new double[] {0, f, f});
        v[0]++;
        v[1] = Math.min(v[1], f);
        v[2] = Math.max(v[2], f);
    }

    /** The side-by-side section of two different machines: every row with both figures and the ratio. */
    private static String sideBySideMarkdown(Comparison.Result r) {
        ResultData base = r.baselines().get(0);
        ResultData cand = r.candidates().get(0);
        StringBuilder sb = new StringBuilder();
        sb.append("## Compare `").append(r.baselineLabel()).append("` (baseline) with `").append(r.candidateLabel())
                .append("`: two machines, side by side\n\n");
        sb.append("- Machines: baseline ").append(base.machineDescription()).append(", candidate ")
                .append(cand.machineDescription()).append(". Matched by ").append(r.matching().key())
                .append("; the pairs of one link class are pooled.\n");
        sb.append("- Builds: baseline ").append(origins(r.baselines())).append(", candidate ")
                .append(origins(r.candidates())).append(buildsDiffer(r) ? ": they differ, so a ratio holds what changed "
                        + "between the builds as well as between the machines.\n" : ".\n");
        sb.append("- No verdicts: noise floors are learned per machine, so one machine's floor cannot say whether the "
                + "other's figure is worse, and another machine is not a regression. Per measurement, both figures "
                + "(per side, the median of its runs' figures; per run, the median over batches, latency p50, ")
                .append(Statistics.PERCENTILE_ESTIMATOR).append(") and the ratio candidate / baseline: for bandwidth "
                        + "below 1x, for latency above 1x, the candidate's machine is slower. This candidate does not "
                        + "change the exit code.\n");
        sb.append(String.format(Locale.ROOT, "- %d measurements (%d rows) side by side; %d baseline-only and %d "
                + "candidate-only rows not compared.%n%n", r.groups().size(), r.rows().size(), r.baselineOnly(),
                r.candidateOnly()));
        List<List<String>> rows = new ArrayList<>();
        for (Comparison.Row row : sortedByMeasurement(r.rows())) {
            Measurement c = row.candidate();
            String unit = unit(c);
            rows.add(List.of(c.key().metric(), c.key().kind(), c.pairWithLink(), c.key().path(), c.key().direction(),
                    Sizes.format(c.key().sizeBytes()), Markdown.number(row.baselineValue()) + unit
                            + runs(row.baselineRuns()), Markdown.number(row.candidateValue()) + unit
                            + runs(row.candidateRuns()), times(row.ratio()),
                    Markdown.change(row.ratio()) + ungatedNote(row)));
        }
        sb.append(Markdown.table(List.of("metric", "kind", "pair (link)", "path", "direction", "size",
                "baseline " + base.machine(), "candidate " + cand.machine(), "ratio", "change"), rows)).append('\n');
        return sb.toString();
    }

    /**
     * stdout for two different machines: which is which, then every measurement's figures and ratio, then every
     * partition and serving measurement's ({@code gated}).
     */
    private static List<String> sideBySideSummary(Comparison.Result r, GatedFigures.Result gated) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "ACROSS MACHINES: %s (%s) vs baseline %s (%s): %d measurements side by side "
                        + "as ratios candidate / baseline; no worse/better verdicts (noise floors are per machine)",
                r.candidateLabel(), gpus(r.candidates().get(0)), r.baselineLabel(), gpus(r.baselines().get(0)),
                r.groups().size() + gated.groups().size()));
        if (buildsDiffer(r)) {
            out.add(buildsLine(r));
        }
        // One line per measurement: its first row with a ratio (a collective's alg where the bus figure is 0).
        List<Comparison.Row> lines = r.groups().stream().map(g -> g.rows().stream().filter(x -> !x.noRatio())
                .findFirst().orElse(g.headline())).toList();
        for (Comparison.Row h : sortedByMeasurement(lines)) {
            Measurement c = h.candidate();
            out.add(String.format(Locale.ROOT, "  %s %s %s %s %s: %s%s -> %s%s: %s", c.key().kind(), c.pairLabel(),
                    c.key().path(), c.key().direction(), Sizes.format(c.key().sizeBytes()) + figure(c),
                    Markdown.number(h.baselineValue()), unit(c), Markdown.number(h.candidateValue()), unit(c),
                    times(h.ratio())) + ungatedNote(h));
        }
        out.addAll(GatedFiguresReport.sideBySide(gated));
        return out;
    }

    /** The builds (tool, version and commit) of a side's runs, comma-joined where they differ. */
    private static String origins(List<ResultData> side) {
        return String.join(", ", side.stream().map(ResultData::origin).distinct().sorted().toList());
    }

    /** Whether the two sides' runs come from other builds (or tools) than each other. */
    static boolean buildsDiffer(Comparison.Result r) {
        return !origins(r.baselines()).equals(origins(r.candidates()));
    }

    /** The line saying which builds the two sides' runs come from, where they differ ({@link #buildsDiffer}). */
    static String buildsLine(Comparison.Result r) {
        return "Builds differ: baseline " + origins(r.baselines()) + ", candidate " + origins(r.candidates())
                + ": a ratio holds what changed between the builds as well as between the machines";
    }

    /**
     * What a side-by-side ratio cannot be read as where a side's collective was enqueued ungated by an older build
     * ({@link Measurement#hostPaced}): that figure is the host's enqueue rate, not the device's, so the ratio is not
     * like for like; empty otherwise.
     */
    private static String ungatedNote(Comparison.Row row) {
        boolean b = row.baseline().hostPaced();
        boolean c = row.candidate().hostPaced();
        if (!b && !c) {
            return "";
        }
        return " (not like for like: " + (b && c ? "both sides" : b ? "the baseline" : "the candidate")
                + " enqueued ungated by an older build, the host's enqueue rate)";
    }

    private static List<Comparison.Row> sortedByMeasurement(List<Comparison.Row> rows) {
        return rows.stream().sorted(Comparator.comparing((Comparison.Row x) -> x.candidate().key().metric())
                .thenComparing(x -> x.candidate().key().kind()).thenComparing(x -> x.candidate().key().path())
                .thenComparing(x -> x.candidate().key().direction()).thenComparing(x -> x.candidate().key().pair())
                .thenComparingLong(x -> x.candidate().key().sizeBytes())).toList();
    }

    private static String gpus(ResultData d) {
        return d.gpuDescription().isEmpty() ? d.machine() : d.gpuDescription();
    }

    /**
     * Which figure of a latency row a stdout line gives: {@code " p50"} (per run the p50 of its samples, per side the
     * median of its runs, as compare.md says); bandwidth rows give their median over batches, the suite's headline.
     */
    private static String figure(Measurement m) {
        return m.key().biggerIsBetter() ? "" : " p50";
    }

    private static String unit(Measurement m) {
        return m.key().biggerIsBetter() ? " GB/s" : " µs";
    }

    /** A ratio as {@code 0.71x}: two decimals, or two significant digits below 0.1. */
    static String times(double ratio) {
        if (!(ratio > 0) || !Double.isFinite(ratio)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, ratio >= 0.1 ? "%.2fx" : "%.2gx", ratio);
    }

    /**
     * ", N cannot be judged here (...)" for the measurements that are neither same nor changed at the
     * threshold, with why; empty when there are none.
     */
    static String unjudged(Comparison.Result r) {
        return unjudged(r, new GatedFigures.Result(List.of(), 0, 0, ""));
    }

    /** The same over the measurements and the partition and serving figures together. */
    static String unjudged(Comparison.Result r, GatedFigures.Result gated) {
        long fromGated = gated.count(Verdict.UNJUDGED);
        long n = r.count(Verdict.UNJUDGED) + fromGated;
        if (n == 0) {
            return "";
        }
        long wider = r.widerFloors() + gated.widerFloors();
        long notSignificant = r.unjudged(Comparison.Unjudged.NOT_SIGNIFICANT);
        long otherHosts = r.unjudged(Comparison.Unjudged.OTHER_HOSTS) + gated.otherHosts();
        long hostPaced = r.unjudged(Comparison.Unjudged.HOST_PACED);
        long disturbed = r.unjudged(Comparison.Unjudged.DISTURBED);
        long hostCpu = r.unjudged(Comparison.Unjudged.HOST_CPU);
        long noRatio = r.count(Verdict.UNJUDGED) - r.widerFloors() - notSignificant - r.unjudged(Comparison.Unjudged
                .OTHER_HOSTS) - hostPaced - disturbed - hostCpu;
        long other = fromGated - gated.widerFloors() - gated.otherHosts();
        List<String> why = new ArrayList<>();
        if (wider > 0) {
            why.add((wider == n ? "" : wider + ": ") + "noise floor wider than ±" + Markdown.plain(r.thresholdPct()) + "%");
        }
        if (notSignificant > 0) {
            why.add((notSignificant == n ? "" : notSignificant + ": ") + "beyond ±" + Markdown.plain(r.thresholdPct())
                    + "% and the floor, not significant across the rows");
        }
        if (otherHosts > 0) {
            why.add((otherHosts == n ? "" : otherHosts + ": ") + "other GPUs of this kind");
        }
        if (hostPaced > 0) {
            why.add((hostPaced == n ? "" : hostPaced + ": ") + "enqueued ungated by an older build");
        }
        if (disturbed > 0) {
            why.add((disturbed == n ? "" : disturbed + ": ") + "rounds disagree, the machine was disturbed (rerun)");
        }
        if (hostCpu > 0) {
            why.add((hostCpu == n ? "" : hostCpu + ": ") + "within a floor widened by the host's CPU, whose work "
                    + "differed by more than " + Math.round(Comparison.HOST_APART * 100) + "% (rerun)");
        }
        if (noRatio > 0) {
            why.add((noRatio == n ? "" : noRatio + ": ") + "no ratio");
        }
        if (other > 0) {
            why.add((other == n ? "" : other + ": ") + "a knee within its bracket, a partition figure the sides "
                    + "measured in different rounds, no ratio or two machines (partition and serving; each says why in "
                    + "compare.md)");
        }
        return ", " + n + " cannot be judged here (" + String.join("; ", why) + ")";
    }

    private static String runs(double[] runs) {
        return runs.length == 1 ? "" : " (" + runs.length + " runs)";
    }

    /** How many figures a side's value of {@code row} stands on: rounds for a row judged by its rounds, else runs. */
    private static String figures(Comparison.Row row, double[] figures) {
        return byRounds(row) ? " (" + figures.length + " rounds)" : runs(figures);
    }

    /** Whether {@code row} is judged by its rounds. */
    private static boolean byRounds(Comparison.Row row) {
        return row.floor() != null && row.floor().byRounds();
    }

    private static String ratio(Comparison.Row row) {
        if (!Double.isFinite(row.ratio())) {
            return "n/a"; // a side's figure is 0 (one rank's bus bandwidth): no ratio, its reason in the last column
        }
        ExactTests.Interval i = row.interval();
        if (!i.exists()) {
            return String.format(Locale.ROOT, "%.3f (no interval: one run each side)", row.ratio());
        }
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f], %s%.1f%%", row.ratio(), i.low(), i.high(),
                i.atLeast() ? "≥ " : "", i.coverage() * 100);
    }

    /** Overlay charts of the bandwidth matches, written to {@code dir} with names starting {@code prefix}. */
    public static List<Charts.ChartFile> charts(Comparison.Result r, Path dir, String prefix) throws IOException {
        Map<String, List<Comparison.Row>> groups = new LinkedHashMap<>();
        for (Comparison.Row row : r.rows()) {
            Measurement c = row.candidate();
            if (c.key().biggerIsBetter()) {
                groups.computeIfAbsent(c.key().kind() + "-" + c.key().pair() + "-" + c.key().direction(),
                        k -> new ArrayList<>()).add(row);
            }
        }
        List<Charts.ChartFile> out = new ArrayList<>();
        for (Map.Entry<String, List<Comparison.Row>> g : groups.entrySet()) {
            Map<String, List<Measurement>> candidate = new LinkedHashMap<>();
            Map<String, List<Measurement>> baseline = new LinkedHashMap<>();
            for (Comparison.Row row : g.getValue()) {
                candidate.computeIfAbsent(row.candidate().key().path(), k -> new ArrayList<>()).add(row.candidate());
                baseline.computeIfAbsent(row.baseline().key().path(), k -> new ArrayList<>()).add(row.baseline());
            }
            List<Charts.Line> lines = new ArrayList<>();
            candidate.forEach((path, points) -> {
                if (points.size() >= 2) {
                    lines.add(new Charts.Line(path + " · candidate " + r.candidates().get(0).label(), points, false));
                    lines.add(new Charts.Line(path + " · baseline " + r.baselines().get(0).label(), baseline.get(path), true));
                }
            });
            if (lines.isEmpty()) {
                continue;
            }
            Measurement first = g.getValue().get(0).candidate();
            String what = first.key().kind() + " " + first.pairWithLink() + ", " + first.key().direction();
            String title = "Bandwidth vs size, " + what + ": candidate (solid) over baseline (dashed) — "
                    + r.candidates().get(0).machineDescription();
            out.add(Charts.save(Charts.sizeChart(title, Charts.BANDWIDTH_AXIS, lines, true), title, dir,
                    prefix + "compare-" + Charts.stem(g.getKey())));
        }
        return out;
    }

}
