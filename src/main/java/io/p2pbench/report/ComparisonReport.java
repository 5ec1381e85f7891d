package io.p2pbench.report;

import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A comparison as Markdown (matching used, method, one row per match) and as overlay charts: per
 * pair (or link class) and direction, bandwidth vs size of the candidate (solid) over the baseline
 * (dashed), for every path with two matched sizes or more.
 */
final class ComparisonReport {
    private ComparisonReport() {}

    /** The Markdown section of one comparison. */
    static String markdown(Comparison.Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append("## Compare `").append(r.baseline().label()).append("` (baseline) with `").append(r.candidate().label())
                .append("`\n\n");
        sb.append("- Matching: ").append(r.matching() == Comparison.Matching.SAME_MACHINE ? "same machine" : "across machines")
                .append(", by ").append(r.matching().key()).append(". ").append(r.note()).append('\n');
        sb.append("- Verdict: better or worse only when significant (two-sided Mann-Whitney U on the samples; Wilcoxon "
                + "signed-rank against a side with one value; α = ").append(Comparison.ALPHA).append(") and beyond ±")
                .append(Markdown.plain(r.thresholdPct())).append("%. Bandwidth up is better, latency down is better.\n");
        sb.append("- Ratio: candidate / baseline of the medians (latency: p50, ").append(Statistics.PERCENTILE_ESTIMATOR)
                .append("); 95% interval from distribution-free intervals of each median, combined on the log scale.\n");
        sb.append(String.format(Locale.ROOT, "- Result: **%d worse**, %d better, %d same; %d baseline-only and %d "
                        + "candidate-only measurements not compared.%n%n", r.count(Comparison.Verdict.WORSE),
                r.count(Comparison.Verdict.BETTER), r.count(Comparison.Verdict.SAME), r.baselineOnly(),
                r.candidateOnly()));
        List<List<String>> rows = new ArrayList<>();
        for (Comparison.Row row : r.rows()) {
            Measurement c = row.candidate();
            String unit = c.key().biggerIsBetter() ? " GB/s" : " µs";
            rows.add(List.of(c.key().metric(), c.key().kind(), c.pairWithLink(), c.key().path(), c.key().direction(),
                    Sizes.format(c.key().sizeBytes()), Markdown.number(row.baselineValue()) + unit,
                    Markdown.number(row.candidateValue()) + unit,
                    String.format(Locale.ROOT, "%.3f [%s, %s]", row.ratio(), interval(row.ratioLow()),
                            interval(row.ratioHigh())),
                    Markdown.change(row.ratio()),
                    row.verdict() == Comparison.Verdict.SAME ? "same" : "**" + row.verdict() + "**", row.why()));
        }
        sb.append(Markdown.table(List.of("metric", "kind", "pair (link)", "path", "direction", "size", "baseline",
                "candidate", "ratio [95% interval]", "change", "verdict", "why"), rows)).append('\n');
        return sb.toString();
    }

    /** Overlay charts of the bandwidth matches, written to {@code dir} with names starting {@code prefix}. */
    static List<Charts.ChartFile> charts(Comparison.Result r, Path dir, String prefix) throws IOException {
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
                    lines.add(new Charts.Line(path + " · candidate " + r.candidate().label(), points, false));
                    lines.add(new Charts.Line(path + " · baseline " + r.baseline().label(), baseline.get(path), true));
                }
            });
            if (lines.isEmpty()) {
                continue;
            }
            Measurement first = g.getValue().get(0).candidate();
            String what = first.key().kind() + " " + first.pairWithLink() + ", " + first.key().direction();
            String title = "Bandwidth vs size, " + what + ": candidate (solid) over baseline (dashed) — "
                    + r.candidate().machineDescription();
            out.add(Charts.save(Charts.sizeChart(title, Charts.BANDWIDTH_AXIS, lines, true), title, dir,
                    prefix + "compare-" + Charts.stem(g.getKey())));
        }
        return out;
    }

    private static String interval(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v);
    }
}
