package io.p2pbench.report.verdict;

import io.p2pbench.report.read.ServingResults;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The serving figures {@code compare} gates ({@link GatedFigures}), per sweep of the same model, plan, transport,
 * GPUs and workload ({@link io.p2pbench.serving.ServingSweep#comparableKey}: the same requests at the same
 * geometric rates) on both sides, one value per run ({@link ServingResults}):
 * <ul>
 *   <li>the knee (the highest rate that met the target below the lowest that broke it), with the bracket rule of
 *       the report's capacity verdict ({@link ServingVerdict#metWhereBroken}): lower by more than the capacity floor
 *       counts only where the baseline met a rate at which the candidate broke, higher only where the candidate met
 *       a rate at which the baseline broke, since a knee is known only to within its bracket;</li>
 *   <li>the served rate at saturation: the output tokens per second the server produced at the lowest rate that
 *       broke the target, a continuous figure where the knee is a rate of the search's grid;</li>
 *   <li>the output tokens per second at the knee, with the knee's floor and bracket rule;</li>
 *   <li>p99 TTFT and p99 TPOT ({@link ServingVerdict#p99}) at every rate that every run of both sides measured and
 *       met the target at (beyond the knee a p99 grows with the queue and says nothing steady).</li>
 * </ul>
 *
 * <p>Floors, measured on the four A/A reruns of the H200 node ({@code results/h200x1-single-r580/2026-12-04T16-54-29Z},
 * {@code T18-16-33Z}, {@code T18-23-49Z}, {@code T18-37-02Z}: DENSE_8B, SINGLE and TP over three transports, 48
 * ordered pairs of one sweep; docs/compare.md has the table): the knee's floor is the report's capacity floor
 * ({@link ServingVerdict#CAPACITY_FLOOR}: knees moved by up to 18.9% outside the bracket rule, output tokens/s at
 * the knee by up to 12.3%); the others lie above the largest change seen between two of those runs (served rate
 * at saturation 11.9%, p99 TTFT 22.3%, p99 TPOT 12.2%). They were set after seeing these runs, so their false-alarm
 * rate of 0 on them is in-sample ({@code GatedFiguresRerunsTest} holds it).
 */
final class ServingComparison {
    /** Floor of the served rate at saturation (largest A/A change seen: 11.9%). */
    static final double SERVED_FLOOR = 0.15;
    /** Floor of a p99 TTFT (largest A/A change seen at rates every run met: 22.3%). */
    static final double TTFT_FLOOR = 0.30;
    /** Floor of a p99 TPOT (largest A/A change seen at rates every run met: 12.2%). */
    static final double TPOT_FLOOR = 0.20;
    /** Where these floors come from. */
    static final String MEASURED = "measured on A/A reruns";

    private ServingComparison() {}

    /** The gated groups of matching sweeps; unmatched ones (or ones without runs) are counted into {@code only}. */
    static List<GatedFigures.Group> compare(List<ServingResults.Sweep> base, List<ServingResults.Sweep> cand,
                                            double thresholdPct, String otherMachines, int[] only) {
        Map<String, ServingResults.Sweep> b = index(base);
        Map<String, ServingResults.Sweep> c = index(cand);
        List<GatedFigures.Group> out = new ArrayList<>();
        for (String key : GatedFigures.common(List.copyOf(b.keySet()), List.copyOf(c.keySet()), only)) {
            ServingResults.Sweep sb = b.get(key);
            ServingResults.Sweep sc = c.get(key);
            String what = sc.model() + " " + sc.plan() + " " + sc.transport() + " over " + sc.group();
            out.add(one(what, knee(sb, sc, thresholdPct, otherMachines)));
            out.add(one(what, served(sb, sc, thresholdPct, otherMachines)));
            out.add(one(what, atKnee(sb, sc, thresholdPct, otherMachines)));
            for (double rate : metByBoth(sb, sc)) {
                String at = what + " at " + ServingVerdict.rate(rate) + " req/s";
                out.add(one(at, GatedFigures.row("p99 TTFT (ms)", false, millis(sb.at(rate, ServingVerdict.p99("TTFT"))),
                        millis(sc.at(rate, ServingVerdict.p99("TTFT"))), TTFT_FLOOR, MEASURED, thresholdPct, otherMachines)));
                out.add(one(at, GatedFigures.row("p99 TPOT (ms)", false, millis(sb.at(rate, ServingVerdict.p99("TPOT"))),
                        millis(sc.at(rate, ServingVerdict.p99("TPOT"))), TPOT_FLOOR, MEASURED, thresholdPct, otherMachines)));
            }
        }
        return out;
    }

    /** The knee, by the capacity rule's floor and brackets. */
    private static GatedFigures.Row knee(ServingResults.Sweep sb, ServingResults.Sweep sc, double thresholdPct,
                                         String otherMachines) {
        GatedFigures.Row r = GatedFigures.row("knee (req/s)", true, sb.knees(), sc.knees(), ServingVerdict.CAPACITY_FLOOR,
                MEASURED, thresholdPct, otherMachines);
        boolean noneB = sb.knees().stream().allMatch(k -> Double.isNaN(k));
        boolean noneC = sc.knees().stream().allMatch(k -> Double.isNaN(k));
        if (otherMachines != null || !(hasNaN(sb.knees()) || hasNaN(sc.knees()))) {
            return bracketed(r, sb, sc, "knee");
        }
        if (noneC && !hasNaN(sb.knees())) {
            return GatedFigures.with(r, Verdict.WORSE, "no rate met the target in the candidate; the baseline's "
                    + "knee is " + ServingVerdict.rate(r.baselineValue()) + " req/s");
        }
        if (noneB && !hasNaN(sc.knees())) {
            return GatedFigures.with(r, Verdict.BETTER, "no rate met the target in the baseline; the "
                    + "candidate's knee is " + ServingVerdict.rate(r.candidateValue()) + " req/s");
        }
        return GatedFigures.with(r, Verdict.UNJUDGED, "no knee in some run (no rate met the target)");
    }

    /** Output tokens per second at each run's lowest rate that broke the target. */
    private static GatedFigures.Row served(ServingResults.Sweep sb, ServingResults.Sweep sc, double thresholdPct,
                                           String otherMachines) {
        List<Double> b = perRun(sb, ServingResults.Run::breakPoint);
        List<Double> c = perRun(sc, ServingResults.Run::breakPoint);
        GatedFigures.Row r = GatedFigures.row("served at saturation (output tokens/s)", true, b, c, SERVED_FLOOR,
                MEASURED, thresholdPct, otherMachines);
        if (otherMachines == null && (hasNaN(b) || hasNaN(c))) {
            return GatedFigures.with(r, Verdict.UNJUDGED, "no saturation measured: a run never broke the "
                    + "target");
        }
        return r;
    }

    /** Output tokens per second at each run's knee, by the knee's floor and brackets. */
    private static GatedFigures.Row atKnee(ServingResults.Sweep sb, ServingResults.Sweep sc, double thresholdPct,
                                           String otherMachines) {
        List<Double> b = perRun(sb, r -> r.at(r.knee()));
        List<Double> c = perRun(sc, r -> r.at(r.knee()));
        GatedFigures.Row r = GatedFigures.row("output tokens/s at the knee", true, b, c, ServingVerdict.CAPACITY_FLOOR,
                MEASURED + " (the knee's)", thresholdPct, otherMachines);
        if (otherMachines == null && (hasNaN(b) || hasNaN(c))) {
            return GatedFigures.with(r, Verdict.UNJUDGED, "no knee in some run (no rate met the target)");
        }
        return bracketed(r, sb, sc, "knee");
    }

    /**
     * A knee figure judged worse (better) beyond its floor only where the two knees are apart beyond their brackets,
     * as the report's capacity rule has it ({@link ServingVerdict#metWhereBroken}): worse where the baseline met a
     * rate at which a candidate run broke the target (or the baseline never broke it, so its knee is a lower bound),
     * better where the candidate met a rate at which a baseline run broke it. Otherwise it cannot be judged, and
     * the reason says so.
     */
    private static GatedFigures.Row bracketed(GatedFigures.Row r, ServingResults.Sweep sb, ServingResults.Sweep sc,
                                              String what) {
        boolean baselineNeverBroke = sb.runs().stream().allMatch(run -> Double.isNaN(run.breakRate()));
        double kneeB = PartitionVerdict.median(sb.knees());
        double kneeC = PartitionVerdict.median(sc.knees());
        if (r.verdict() == Verdict.WORSE && !baselineNeverBroke && !ServingVerdict.metWhereBroken(kneeB, sc)) {
            return GatedFigures.with(r, Verdict.UNJUDGED, String.format(Locale.ROOT, "%.1f%% lower, beyond "
                    + "the floor %.0f%%, but within the bracket: the baseline met no rate at which the candidate broke "
                    + "the target (a %s is known to within its search's bracket)", -100 * (r.ratio() - 1),
                    100 * r.floor(), what));
        }
        if (r.verdict() == Verdict.BETTER && !ServingVerdict.metWhereBroken(kneeC, sb)) {
            return GatedFigures.with(r, Verdict.UNJUDGED, String.format(Locale.ROOT, "%.1f%% higher, beyond "
                    + "the floor %.0f%%, but within the bracket: the candidate met no rate at which the baseline broke "
                    + "the target (a %s is known to within its search's bracket)", 100 * (r.ratio() - 1),
                    100 * r.floor(), what));
        }
        return r;
    }

    /** The rates every run of both sides measured and met the target at, ascending. */
    static List<Double> metByBoth(ServingResults.Sweep sb, ServingResults.Sweep sc) {
        List<Double> out = new ArrayList<>();
        for (double rate : sb.commonRates()) {
            boolean all = sc.commonRates().stream().anyMatch(x -> Math.abs(x / rate - 1) < 1e-9)
                    && sb.runs().stream().allMatch(r -> r.at(rate).met())
                    && sc.runs().stream().allMatch(r -> r.at(rate).met());
            if (all) {
                out.add(rate);
            }
        }
        return out.stream().sorted().toList();
    }

    /** Per run, the output tokens per second of the point {@code which} picks (NaN where it picks none). */
    private static List<Double> perRun(ServingResults.Sweep s,
                                       Function<ServingResults.Run, ServingResults.Point> which) {
        List<Double> out = new ArrayList<>();
        for (ServingResults.Run r : s.runs()) {
            ServingResults.Point p = which.apply(r);
            out.add(p == null ? Double.NaN : p.stats().outputTokensPerSecond());
        }
        return out;
    }

    private static List<Double> millis(List<Double> nanos) {
        return nanos.stream().map(v -> v / 1e6).toList();
    }

    private static boolean hasNaN(List<Double> v) {
        return v.stream().anyMatch(x -> Double.isNaN(x));
    }

    private static GatedFigures.Group one(String what, GatedFigures.Row row) {
        return GatedFigures.group("serving", what, List.of(row));
    }

    /** Sweeps with runs by model, plan, transport, GPUs and comparable workload, machine left out. */
    private static Map<String, ServingResults.Sweep> index(List<ServingResults.Sweep> sweeps) {
        Map<String, ServingResults.Sweep> out = new LinkedHashMap<>();
        for (ServingResults.Sweep s : sweeps) {
            if (!s.runs().isEmpty()) {
                out.putIfAbsent(String.join("|", s.model(), s.plan().name(), s.transport(), s.group(),
                        s.sweep().comparableKey()), s);
            }
        }
        return out;
    }
}
