package io.p2pbench.report.render;

import io.p2pbench.report.text.Markdown;
import io.p2pbench.report.verdict.Comparison;
import io.p2pbench.report.verdict.GatedFigures;
import io.p2pbench.report.verdict.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The partition and serving figures of a comparison ({@link GatedFigures}) as a compare.md section and as the
 * worse and better lines a CI log shows; their counts join the measurements' in the verdict line
 * ({@link ComparisonReport#summary(Comparison.Result, GatedFigures.Result, int)}).
 */
public final class GatedFiguresReport {
    private GatedFiguresReport() {}

    /** The heading of a comparison of partition and serving results alone (no measurement on one side). */
    public static String heading(Comparison.Result r) {
        return "## Compare `" + r.baselineLabel() + "` (baseline) with `" + r.candidateLabel() + "`\n\n"
                + "No copy or collective measurements on one side: the partition and serving results below are "
                + "what is compared." + (ComparisonReport.buildsDiffer(r) ? " " + ComparisonReport.buildsLine(r) + "." : "")
                + "\n\n";
    }

    /** The compare.md section, or empty when nothing was compared. */
    public static String markdown(GatedFigures.Result r, double thresholdPct) {
        if (r.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("### Partition and serving results\n\n");
        sb.append("- Matching: ").append(r.note()).append(" Partition: by model, phase, batch, eager/graph, plan, "
                + "transport and GPUs; serving: by model, plan, transport, GPUs and workload (the same requests at the "
                + "same rates).\n");
        if (r.acrossMachines()) {
            return sb.append(sideBySideMarkdown(r)).toString();
        }
        sb.append("- Per figure and run one value; per side the median of its runs. Worse or better only beyond ±")
                .append(Markdown.plain(thresholdPct)).append("% and beyond the figure's noise floor (")
                .append(GatedFigures.NOISE).append("); within a floor wider than the threshold it cannot be judged "
                        + "and is counted apart. A partition step's time and tokens/s are one measurement (the worse "
                        + "decides). A knee, and the output tokens/s at it, count as lower (higher) only where the two "
                        + "sides are apart beyond their search brackets.\n");
        sb.append(String.format(Locale.ROOT, "- Result: **%d worse**, %d better, %d same, %d cannot be judged of %d "
                        + "measurements; %d baseline-only and %d candidate-only configurations not compared.%n%n",
                r.count(Verdict.WORSE), r.count(Verdict.BETTER), r.count(Verdict.SAME),
                r.count(Verdict.UNJUDGED), r.groups().size(), r.baselineOnly(), r.candidateOnly()));
        List<List<String>> rows = new ArrayList<>();
        for (GatedFigures.Group g : r.groups()) {
            boolean first = true;
            for (GatedFigures.Row row : g.rows()) {
                String verdict = !first ? "〃" : g.verdict() == Verdict.WORSE
                        || g.verdict() == Verdict.BETTER ? "**" + VerdictWords.word(g.verdict()) + "**" : VerdictWords.word(g.verdict());
                rows.add(List.of(g.section(), g.what(), row.figure(), value(row.baselineValue(), row.baselineRuns()),
                        value(row.candidateValue(), row.candidateRuns()), Markdown.change(row.ratio()),
                        row.otherHosts() ? "none across hosts" : String.format(Locale.ROOT, "±%.1f%%", 100 * row.floor()),
                        verdict, row.why()));
                first = false;
            }
        }
        sb.append(Markdown.table(List.of("kind", "configuration", "figure", "baseline", "candidate", "change",
                "noise floor", "verdict", "why"), rows)).append('\n');
        return sb.toString();
    }

    /** Two machines' figures as a table: both sides' values, the ratio and the change; no floors, no verdicts. */
    private static String sideBySideMarkdown(GatedFigures.Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append("- No verdicts: noise floors are learned per machine. Per figure and run one value; per side the "
                + "median of its runs; the ratio candidate / baseline.\n");
        sb.append(String.format(Locale.ROOT, "- %d measurements side by side; %d baseline-only and %d candidate-only "
                + "configurations not compared.%n%n", r.groups().size(), r.baselineOnly(), r.candidateOnly()));
        List<List<String>> rows = new ArrayList<>();
        for (GatedFigures.Group g : r.groups()) {
            for (GatedFigures.Row row : g.rows()) {
                rows.add(List.of(g.section(), g.what(), row.figure(), value(row.baselineValue(), row.baselineRuns()),
                        value(row.candidateValue(), row.candidateRuns()), ComparisonReport.times(row.ratio()),
                        Markdown.change(row.ratio())));
            }
        }
        return sb.append(Markdown.table(List.of("kind", "configuration", "figure", "baseline", "candidate", "ratio",
                "change"), rows)).append('\n').toString();
    }

    /**
     * Two machines' partition and serving figures, one line per measurement in the order of its configuration: every
     * figure with both sides' values and the ratio candidate / baseline
     * ({@code partition DENSE_8B SINGLE P2P over 0,0, DECODE batch 8 graph: step time (µs) 4686 -> 7390: 1.58x; ...}).
     */
    static List<String> sideBySide(GatedFigures.Result r) {
        return r.groups().stream().sorted(Comparator.comparing(GatedFigures.Group::section)
                        .thenComparing(GatedFigures.Group::what))
                .map(g -> "  " + g.section() + " " + g.what() + ": " + g.rows().stream()
                        .sorted(Comparator.comparing(GatedFigures.Row::figure))
                        .map(x -> x.figure() + " " + Markdown.number(x.baselineValue()) + " -> "
                                + Markdown.number(x.candidateValue()) + ": " + ComparisonReport.times(x.ratio()))
                        .collect(Collectors.joining("; ")))
                .toList();
    }

    /** The worse and better measurements, worst first, at most {@code maxRows}; the same format as the measurements'. */
    static List<String> named(GatedFigures.Result r, int maxRows) {
        List<String> out = new ArrayList<>();
        List<GatedFigures.Group> named = r.groups().stream().filter(g -> g.verdict() == Verdict.WORSE
                || g.verdict() == Verdict.BETTER).toList();
        for (GatedFigures.Group g : named.subList(0, Math.min(maxRows, named.size()))) {
            GatedFigures.Row h = g.headline();
            out.add(String.format(Locale.ROOT, "  %-6s %s %s, %s: %s -> %s (%s; %.1f%% apart, floor %.1f%%)",
                    VerdictWords.word(g.verdict()), g.section(), g.what(), h.figure(), Markdown.number(h.baselineValue()),
                    Markdown.number(h.candidateValue()), Markdown.change(h.ratio()),
                    (Math.max(h.ratio(), 1 / h.ratio()) - 1) * 100, 100 * h.floor()));
        }
        return out;
    }

    /**
     * The line a CI log shows after a partition or serving figure named worse on one candidate run: such figures are
     * one value a run, so a run disturbed in one configuration reads as a change (on a held-out H100 host, 2026-12-07,
     * one run of two drew the TP host-staged eager decode step 23.0% slower, the 17 other runs of seven hosts within
     * 3.5%: docs/compare.md, "Partition and serving results"); a rerun given with the candidate widens the floors by
     * the candidate's spread. Since the partition study's decode steps and requests are measured in three rounds a
     * run's figure of one is its fastest round, which a disturbed round does not move; prefill steps and serving
     * figures are still one value a run. Empty where nothing of one candidate run is worse.
     */
    static Optional<String> confirm(GatedFigures.Result r) {
        boolean oneRun = r.groups().stream().anyMatch(g -> g.verdict() == Verdict.WORSE
                && g.headline().candidateRuns().size() == 1);
        return oneRun ? Optional.of("  confirm: partition and serving figures are one value a run (a partition "
                + "decode step or request measured in rounds: its fastest round), and one disturbed run reads as a "
                + "change (a held-out H100 host drew one configuration 23% slower in one run of two, "
                + "docs/compare.md); rerun the candidate and compare BASELINE CANDIDATE,RERUN: the spread between the "
                + "candidate's runs widens their floors") : Optional.empty();
    }

    /** How many worse or better measurements {@link #named} could list. */
    static long changed(GatedFigures.Result r) {
        return r.count(Verdict.WORSE) + r.count(Verdict.BETTER);
    }

    private static String value(double v, List<Double> runs) {
        return Markdown.number(v) + (runs.size() == 1 ? "" : " (" + runs.size() + " runs: " + runs.stream()
                .map(Markdown::number).collect(Collectors.joining(", ")) + ")");
    }
}
