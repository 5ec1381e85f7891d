package io.p2pbench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.apache.commons.math3.stat.inference.WilcoxonSignedRankTest;

/**
 * Matches the measurements of a baseline and a candidate and judges each match. On one machine
 * (equal fingerprints, or an imported nvbandwidth/nccl-tests baseline, which is assumed to come from
 * the candidate's machine) results match by (path, direction, size, pair); across machines by
 * (path, direction, size, link class), pooling the pairs of a class.
 *
 * <p>Per match: the ratio candidate / baseline of the medians (p50 for latency) with a 95% interval
 * from distribution-free intervals of each median, combined on the log scale; a two-sided
 * Mann-Whitney U test when both sides have samples, a Wilcoxon signed-rank test of the sampled side
 * against the other's single value when only one has; and a verdict that knows the direction
 * (bandwidth up, latency down is better): better or worse only when the test is significant at
 * 5% and the change is beyond the threshold; with one value on each side, the threshold alone.
 */
public final class Comparison {
    /** Significance level of the tests. */
    public static final double ALPHA = 0.05;

    private Comparison() {}

    /** How results were matched. */
    public enum Matching {
        /** One machine: every pair is its own measurement. */
        SAME_MACHINE("(path, direction, size, pair)"),
        /** Different machines: pairs of one link class are pooled. */
        ACROSS_MACHINES("(path, direction, size, link class)");

        private final String key;

        Matching(String key) {
            this.key = key;
        }

        /** The fields results are matched by. */
        public String key() {
            return key;
        }
    }

    /** What a match says. */
    public enum Verdict {
        /** Significantly better, beyond the threshold. */
        BETTER,
        /** Significantly worse, beyond the threshold. */
        WORSE,
        /** Within noise or within the threshold. */
        SAME;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One match.
     *
     * @param baseline the baseline's measurement (pooled across pairs when matching across machines)
     * @param candidate the candidate's
     * @param baselineValue baseline median (latency: p50)
     * @param candidateValue candidate median (latency: p50)
     * @param ratio candidate / baseline
     * @param ratioLow lower end of the ratio's 95% interval (NaN when it cannot be computed)
     * @param ratioHigh upper end
     * @param p the test's p-value, NaN without a test
     * @param verdict better, worse or same
     * @param why what decided the verdict
     */
    public record Row(Measurement baseline, Measurement candidate, double baselineValue, double candidateValue,
                      double ratio, double ratioLow, double ratioHigh, double p, Verdict verdict, String why) {}

    /**
     * A whole comparison.
     *
     * @param baseline what was compared against
     * @param candidate what was compared
     * @param matching how results were matched
     * @param note a line about the matching (e.g. that an imported baseline is assumed to be this machine)
     * @param thresholdPct changes within this many percent are "same"
     * @param rows every match, worse first, then better, then same
     * @param baselineOnly keys only the baseline has
     * @param candidateOnly keys only the candidate has
     */
    public record Result(ResultData baseline, ResultData candidate, Matching matching, String note,
                         double thresholdPct, List<Row> rows, int baselineOnly, int candidateOnly) {
        /** Rows with a given verdict. */
        public long count(Verdict v) {
            return rows.stream().filter(r -> r.verdict() == v).count();
        }
    }

    /** Compares {@code candidate} with {@code baseline}; a {@link BadInputException} when nothing matches. */
    public static Result compare(ResultData baseline, ResultData candidate, double thresholdPct)
            throws BadInputException {
        boolean imported = !baseline.isRun() || !candidate.isRun();
        Matching matching = imported || baseline.machine().equals(candidate.machine()) ? Matching.SAME_MACHINE
                : Matching.ACROSS_MACHINES;
        Map<String, Measurement> base = index(baseline.measurements(), matching);
        Map<String, Measurement> cand = index(candidate.measurements(), matching);
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Measurement> e : cand.entrySet()) {
            Measurement b = base.get(e.getKey());
            if (b != null) {
                rows.add(judge(b, e.getValue(), thresholdPct));
            }
        }
        if (rows.isEmpty()) {
            throw new BadInputException(baseline.label() + " and " + candidate.label() + " have no measurement in "
                    + "common when matched by " + matching.key() + "; compare results of the same paths and sizes");
        }
        rows.sort(Comparator.comparing(r -> r.verdict() == Verdict.WORSE ? 0 : r.verdict() == Verdict.BETTER ? 1 : 2));
        int baselineOnly = (int) base.keySet().stream().filter(k -> !cand.containsKey(k)).count();
        int candidateOnly = (int) cand.keySet().stream().filter(k -> !base.containsKey(k)).count();
        return new Result(baseline, candidate, matching, note(baseline, candidate, matching), thresholdPct,
                List.copyOf(rows), baselineOnly, candidateOnly);
    }

    /** Judges one match. */
    static Row judge(Measurement b, Measurement c, double thresholdPct) {
        boolean bigger = c.key().biggerIsBetter();
        double bv = headline(b);
        double cv = headline(c);
        double ratio = cv / bv;
        double[] interval = ratioInterval(b.samples(), c.samples(), ratio);
        double p = pValue(b.samples(), c.samples());
        boolean beyond = Math.abs(ratio - 1) * 100 > thresholdPct;
        boolean good = bigger ? ratio > 1 : ratio < 1;
        String pText = Double.isNaN(p) ? "" : String.format(java.util.Locale.ROOT, "p = %.3g", p);
        Verdict verdict;
        String why;
        if (!Double.isNaN(p) && p >= ALPHA) {
            verdict = Verdict.SAME;
            why = "within noise (" + pText + ")";
        } else if (!beyond) {
            verdict = Verdict.SAME;
            why = "within ±" + Markdown.plain(thresholdPct) + "%" + (pText.isEmpty() ? "" : " (" + pText + ")");
        } else {
            verdict = good ? Verdict.BETTER : Verdict.WORSE;
            why = Double.isNaN(p) ? "beyond ±" + Markdown.plain(thresholdPct) + "%; one value each side, not tested"
                    : "significant (" + pText + "), beyond ±" + Markdown.plain(thresholdPct) + "%";
        }
        return new Row(b, c, bv, cv, ratio, interval[0], interval[1], p, verdict, why);
    }

    /** The figure compared: the median for bandwidth, p50 for latency (the same R-7 median). */
    static double headline(Measurement m) {
        return Statistics.percentile(m.samples(), 50);
    }

    /**
     * Two-sided p-value: Mann-Whitney U when both sides have two samples or more, Wilcoxon
     * signed-rank of the sampled side against the other's single value (zero differences dropped),
     * NaN when both sides have one value.
     */
    static double pValue(double[] baseline, double[] candidate) {
        if (baseline.length >= 2 && candidate.length >= 2) {
            return new MannWhitneyUTest().mannWhitneyUTest(baseline, candidate);
        }
        if (baseline.length >= 2 || candidate.length >= 2) {
            double[] sampled = baseline.length >= 2 ? baseline : candidate;
            double value = baseline.length >= 2 ? candidate[0] : baseline[0];
            double[] differing = java.util.Arrays.stream(sampled).filter(x -> x != value).toArray();
            if (differing.length == 0) {
                return 1.0;
            }
            double[] constant = new double[differing.length];
            java.util.Arrays.fill(constant, value);
            return new WilcoxonSignedRankTest().wilcoxonSignedRankTest(differing, constant, differing.length <= 30);
        }
        return Double.NaN;
    }

    /** 95% interval of candidate median / baseline median; NaN ends when a value is not positive. */
    static double[] ratioInterval(double[] baseline, double[] candidate, double ratio) {
        double z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(1 - ALPHA / 2);
        double se = Math.hypot(logSe(baseline, z), logSe(candidate, z));
        if (Double.isNaN(se) || !(ratio > 0)) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return new double[] {ratio * Math.exp(-z * se), ratio * Math.exp(z * se)};
    }

    /** Standard error of the log median, from its distribution-free 95% interval; 0 for one value. */
    private static double logSe(double[] samples, double z) {
        if (samples.length < 2) {
            return 0;
        }
        double[] interval = Statistics.medianInterval(samples);
        if (!(interval[0] > 0)) {
            return Double.NaN;
        }
        return (Math.log(interval[1]) - Math.log(interval[0])) / (2 * z);
    }

    private static Map<String, Measurement> index(List<Measurement> ms, Matching matching) {
        Map<String, List<Measurement>> groups = new LinkedHashMap<>();
        for (Measurement m : ms) {
            Measurement.Key k = m.key();
            String key = matching == Matching.SAME_MACHINE ? k.toString()
                    : String.join("|", k.metric(), k.kind(), k.path(), k.direction(), m.link(),
                    Long.toString(k.sizeBytes()));
            groups.computeIfAbsent(key, x -> new ArrayList<>()).add(m);
        }
        Map<String, Measurement> out = new LinkedHashMap<>();
        groups.forEach((key, list) -> out.put(key, list.size() == 1 ? list.get(0) : pooled(list)));
        return out;
    }

    /** The samples of several pairs of one link class, as one measurement named by the class. */
    private static Measurement pooled(List<Measurement> list) {
        Measurement first = list.get(0);
        Measurement.Key k = first.key();
        int n = list.stream().mapToInt(m -> m.samples().length).sum();
        double[] all = new double[n];
        int i = 0;
        for (Measurement m : list) {
            System.arraycopy(m.samples(), 0, all, i, m.samples().length);
            i += m.samples().length;
        }
        Measurement.Key key = new Measurement.Key(k.metric(), k.kind(), k.path(), k.direction(),
                list.size() + " pairs", k.sizeBytes());
        return new Measurement(key, first.machine(), first.link(), list.stream().allMatch(Measurement::singleGpu),
                first.group(), first.id(), all, first.samplesFrom() + ", pooled over " + list.size() + " pairs");
    }

    private static String note(ResultData baseline, ResultData candidate, Matching matching) {
        if (matching == Matching.ACROSS_MACHINES) {
            return "Different machines (" + baseline.machine() + " vs " + candidate.machine()
                    + "): pairs of one link class are pooled.";
        }
        ResultData imported = !baseline.isRun() ? baseline : !candidate.isRun() ? candidate : null;
        ResultData run = imported == baseline ? candidate : baseline;
        if (imported == null) {
            return "Same machine (" + candidate.machine() + ").";
        }
        boolean sameGpus = run.isRun() && imported.machine().contains(" on " + run.gpuDescription() + ",");
        return "`" + imported.label() + "` (" + imported.origin() + ") is assumed to come from " + run.machine()
                + (sameGpus ? " (it lists the same GPUs)." : "; WARNING: it lists other GPUs (" + imported.machine()
                + "), so pairs may not be the same hardware.");
    }
}
