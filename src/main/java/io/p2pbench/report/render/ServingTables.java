package io.p2pbench.report.render;

import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.report.verdict.ServingVerdict;
import io.p2pbench.serving.PointStats;
import io.p2pbench.serving.Stability;
import io.p2pbench.serving.ServingSamples;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The serving section's tables: the verdict per plan and transport, and every point's figures. */
final class ServingTables {
    private ServingTables() {}

    /** The verdict table of one machine's sweeps, with a note when every multi-rank sweep ran over a repeated GPU. */
    static String verdict(ServingVerdict.MachineVerdicts v) {
        StringBuilder sb = new StringBuilder();
        List<ServingResults.Sweep> sweeps = v.sweeps();
        if (v.oneGpu()) {
            sb.append("Every multi-rank plan here ran over a group that repeats a GPU (").append(PartitionVerdict.SINGLE_GPU)
                    .append("): the code paths ran, but this machine cannot judge whether splitting pays.\n\n");
        }
        ServingResults.Sweep first = sweeps.get(0);
        sb.append("Workload: ").append(first.sweep().describe()).append(".\n\n");
        List<List<String>> table = new ArrayList<>();
        for (ServingVerdict.Row r : v.rows()) {
            ServingResults.Sweep f = r.plan();
            ServingResults.Sweep s = r.single();
            double rate = r.ratePerSecond();
            table.add(List.of(planLabel(f, sweeps), f.transport(), f.group() + (f.singleGpu() ? " (single GPU)" : ""),
                    Double.isNaN(rate) ? "-" : ServingVerdict.rate(rate),
                    pair(f, s, rate, p -> p.stats().ttft().p99()), pair(f, s, rate, p -> p.stats().tpot().p99()),
                    pair(f, s, rate, p -> p.stats().e2e().p99()), knees(f, s), kv(f), comm(f),
                    Integer.toString(f.runs().size()), VerdictWords.word(r.verdict()), r.why()));
        }
        sb.append(Markdown.table(List.of("plan", "transport", "GPUs", "at req/s", "p99 TTFT ms (SINGLE)",
                "p99 TPOT ms (SINGLE)", "p99 e2e ms (SINGLE)", "knee req/s (SINGLE)", "KV cache tokens", "exposed comm",
                "runs", "verdict", "why"), table)).append('\n');
        return sb.toString();
    }

    /** The plan, with its model where the sweeps hold more than one model: {@code EP (MOE_8X_TOP2)}. */
    private static String planLabel(ServingResults.Sweep s, List<ServingResults.Sweep> all) {
        boolean models = all.stream().map(ServingResults.Sweep::model).distinct().count() > 1;
        return models ? s.plan().name() + " (" + s.model() + ")" : s.plan().name();
    }

    private static String pair(ServingResults.Sweep f, ServingResults.Sweep s, double rate,
                               ToDoubleFunction<ServingResults.Point> p99) {
        if (Double.isNaN(rate) || f.runs().isEmpty()) {
            return "-";
        }
        String mine = ms(PartitionVerdict.median(f.at(rate, p99)));
        return s == null || s.runs().isEmpty() ? mine : mine + " (" + ms(PartitionVerdict.median(s.at(rate, p99))) + ")";
    }

    private static String knees(ServingResults.Sweep f, ServingResults.Sweep s) {
        if (f.runs().isEmpty()) {
            return "-";
        }
        String mine = rate(PartitionVerdict.median(f.knees()));
        return s == null || s.runs().isEmpty() ? mine : mine + " (" + rate(PartitionVerdict.median(s.knees())) + ")";
    }

    /** The KV capacity and what it holds: sequences of the longest request, or tokens each at the largest batch. */
    private static String kv(ServingResults.Sweep f) {
        if (f.runs().isEmpty()) {
            return "-";
        }
        ServingSamples s = f.runs().get(0).samples();
        int longest = f.sweep().workload().maxContextTokens();
        return String.format(Locale.ROOT, "%,d: %,d sequences of %d tokens, or %d sequences of %,d", s.kvTokens(),
                s.kvTokens() / longest, longest, s.maxSequences(), s.kvTokens() / s.maxSequences());
    }

    private static String comm(ServingResults.Sweep f) {
        ServingSamples.Breakdown b = f.runs().isEmpty() ? null : f.runs().get(0).samples().breakdown();
        return b == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * b.commShare());
    }

    private static String rate(double r) {
        return Double.isNaN(r) ? "none" : ServingVerdict.rate(r);
    }

    /** Nanoseconds as milliseconds, 3 significant digits; "unfinished" for a censored percentile. */
    static String ms(double nanos) {
        if (Double.isNaN(nanos)) {
            return "-";
        }
        return Double.isInfinite(nanos) ? "unfinished" : Markdown.number(nanos / 1e6);
    }

    /** Every point of every run: rates, throughput, n, and p50/p90/p99 with the p99's interval. */
    static String points(List<ServingResults.Sweep> sweeps) {
        List<List<String>> table = new ArrayList<>();
        for (ServingResults.Sweep s : sweeps) {
            for (ServingResults.Run run : s.runs()) {
                for (ServingResults.Point p : run.points()) {
                    PointStats st = p.stats();
                    table.add(List.of(planLabel(s, sweeps), s.transport(), run.label(), ServingVerdict.rate(p.ratePerSecond()),
                            ServingVerdict.rate(p.stability().offeredPerSecond()) + " / "
                                    + ServingVerdict.rate(p.stability().servedPerSecond()),
                            String.format(Locale.ROOT, "%.0f", st.outputTokensPerSecond()),
                            st.ttft().n() + (st.unfinished() > 0 ? " (" + st.unfinished() + " unfinished)" : ""),
                            latency(st.ttft(), ExactTests.p99Interval(st.ttft())), latency(st.tpot(), ExactTests.p99Interval(st.tpot())),
                            latency(st.e2e(), ExactTests.p99Interval(st.e2e())),
                            String.format(Locale.ROOT, "%.2f", p.meanStepUs() / 1000),
                            p.judgement()));
                }
            }
        }
        if (table.isEmpty()) {
            return "";
        }
        return "Every point (times in ms; p99's distribution-free interval from order statistics with its coverage; "
                + "percentiles R-7; rates in req/s over the measured window, from the first measured arrival to the "
                + "last measured token: offered = requests that arrived in it per second, served = output tokens produced "
                + "in it per second over the mean output of those requests; a point whose server produced less than "
                + String.format(Locale.ROOT, "%.0f%%", 100 * (1 - Stability.MARGIN)) + " of the output tokens that "
                + "arrived breaks the target: its queue grows):\n\n"
                + Markdown.table(List.of("plan", "transport", "run", "rate", "offered / served", "output tokens/s", "n",
                "TTFT p50 / p90 / p99 [interval]", "TPOT p50 / p90 / p99 [interval]", "e2e p50 / p90 / p99 [interval]",
                "mean step ms", "target"), table) + "\n";
    }

    private static String latency(PointStats.Latency l, ExactTests.Interval ci) {
        if (l.n() == 0) {
            return "-";
        }
        String interval = ci.exists() ? String.format(Locale.ROOT, " [%s..%s, %.0f%%]", ms(ci.low()), ms(ci.high()),
                100 * ci.coverage()) : "";
        return ms(l.p50()) + " / " + ms(l.p90()) + " / " + ms(l.p99()) + interval;
    }
}
