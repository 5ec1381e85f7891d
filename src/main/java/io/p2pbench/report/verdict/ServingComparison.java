package io.p2pbench.report.verdict;

import io.p2pbench.report.read.ServingResults;
import io.p2pbench.serving.SearchPlan;
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
 * <p>Floors, measured on A/A reruns (docs/compare.md has the tables). On the four of the H200 node
 * ({@code results/h200x1-single-r580/2026-12-04T16-54-29Z}, {@code T18-16-33Z}, {@code T18-23-49Z}, {@code T18-37-02Z}:
 * DENSE_8B, SINGLE and TP over three transports, 48 ordered pairs of one sweep), whose searches bisected twice (knees
 * on a grid of 19-41% steps): knees moved by up to 18.9% outside the bracket rule, output tokens/s at the knee by up to
 * 12.3%, the served rate at saturation by 11.9%, p99 TTFT by 22.3%, p99 TPOT by 12.2%. On one H100 host
 * (GPU-adeb0106, 2026-12-06 17:10-17:30Z, knees bisected to {@link SearchPlan#RESOLUTION}: SINGLE four runs, TP over
 * P2P and P2P off two): knees by up to 9.1%, output tokens/s at the knee 4.9%, the served rate at saturation 2.2%,
 * p99 TPOT 8.8%, p99 TTFT 38.7% (TP with P2P off at its knee rate, 97.9 against 135.7 ms; 32.1% at 31.1 req/s). So
 * the knee's and the served rate's floors are narrower where every run of both sides bisected its knee to the
 * resolution ({@link #bisected}); elsewhere they stay those of the H200 runs. The floors lie above the largest change
 * seen, set after seeing these runs, so their false-alarm rate of 0 on them is in-sample
 * ({@code GatedFiguresRerunsTest} holds it for the committed H200 runs).
 */
final class ServingComparison {
    /** Floor of the served rate at saturation (largest A/A change seen with knees on a coarse grid: 11.9%). */
    static final double SERVED_FLOOR = 0.15;
    /** The same where every run bisected its knee to the resolution (largest A/A change seen: 2.2%). */
    static final double SERVED_FLOOR_BISECTED = 0.08;
    /** Floor of a knee and of the output tokens/s at it where every run bisected its knee (largest: 9.1%, 4.9%). */
    static final double KNEE_FLOOR_BISECTED = 0.15;
    /** Floor of a p99 TTFT (largest A/A change seen at rates every run met: 38.7% on an H100, 22.3% on the H200). */
    static final double TTFT_FLOOR = ServingVerdict.TTFT_FLOOR;
    /** Floor of a p99 TPOT (largest A/A change seen at rates every run met: 12.2% on the H200, 8.8% on an H100). */
    static final double TPOT_FLOOR = 0.20;
    /** Where these floors come from. */
    static final String MEASURED = "measured on A/A reruns";
    /** Where the narrower floors come from. */
    static final String MEASURED_BISECTED = "measured on A/A reruns whose knees were bisected to 5%";
    /** Why knees bisected on both sides keep the wider floors: the sides ran on other GPUs of one kind. */
    static final String ACROSS_HOSTS = "(the sides ran on other GPUs of this kind, GPU UUIDs differ: the narrower floors "
            + "of bisected knees hold between runs of one host)";

    private ServingComparison() {}

    /** The gated groups of matching sweeps; unmatched ones (or ones without runs) are counted into {@code only}. */
    static List<GatedFigures.Group> compare(List<ServingResults.Sweep> base, List<ServingResults.Sweep> cand,
                                            double thresholdPct, String otherMachines, int[] only) {
        return compare(base, cand, thresholdPct, otherMachines, true, only);
    }

    /**
     * The same; {@code oneHost} false where the two sides ran on other physical GPUs of one kind (GPU UUIDs differ): the
     * narrower floors of knees bisected to the resolution were measured between runs of one host, and between H100
     * hosts the served rate at saturation moved by up to 8.2% (three hosts, 2026-12-06), so such sides keep the floors
     * of the H200's four runs, each on a host of its own.
     */
    static List<GatedFigures.Group> compare(List<ServingResults.Sweep> base, List<ServingResults.Sweep> cand,
                                            double thresholdPct, String otherMachines, boolean oneHost, int[] only) {
        Map<String, ServingResults.Sweep> b = index(base);
        Map<String, ServingResults.Sweep> c = index(cand);
        List<GatedFigures.Group> out = new ArrayList<>();
        for (String key : GatedFigures.common(List.copyOf(b.keySet()), List.copyOf(c.keySet()), only)) {
            ServingResults.Sweep sb = b.get(key);
            ServingResults.Sweep sc = c.get(key);
            String what = sc.model() + " " + sc.plan() + " " + sc.transport() + " over " + sc.group();
            boolean bisected = bisected(sb) && bisected(sc);
            boolean fine = oneHost && bisected;
            String wide = bisected ? MEASURED + " " + ACROSS_HOSTS : MEASURED;
            out.add(one(what, knee(sb, sc, fine, wide, thresholdPct, otherMachines)));
            out.add(one(what, served(sb, sc, fine, wide, thresholdPct, otherMachines)));
            out.add(one(what, atKnee(sb, sc, fine, wide, thresholdPct, otherMachines)));
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

    /** The knee, by the capacity rule's floor ({@code fine}: both sides {@link #bisected}) and brackets. */
    private static GatedFigures.Row knee(ServingResults.Sweep sb, ServingResults.Sweep sc, boolean fine, String wide,
                                           double thresholdPct, String otherMachines) {
        GatedFigures.Row r = GatedFigures.row("knee (req/s)", true, sb.knees(), sc.knees(),
                fine ? KNEE_FLOOR_BISECTED : ServingVerdict.CAPACITY_FLOOR, fine ? MEASURED_BISECTED : wide,
                thresholdPct, otherMachines);
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
    private static GatedFigures.Row served(ServingResults.Sweep sb, ServingResults.Sweep sc, boolean fine, String wide,
                                           double thresholdPct, String otherMachines) {
        List<Double> b = perRun(sb, ServingResults.Run::breakPoint);
        List<Double> c = perRun(sc, ServingResults.Run::breakPoint);
        GatedFigures.Row r = GatedFigures.row("served at saturation (output tokens/s)", true, b, c,
                fine ? SERVED_FLOOR_BISECTED : SERVED_FLOOR, fine ? MEASURED_BISECTED : wide, thresholdPct,
                otherMachines);
        if (otherMachines == null && (hasNaN(b) || hasNaN(c))) {
            return GatedFigures.with(r, Verdict.UNJUDGED, "no saturation measured: a run never broke the "
                    + "target");
        }
        return r;
    }

    /** Output tokens per second at each run's knee, by the knee's floor and brackets. */
    private static GatedFigures.Row atKnee(ServingResults.Sweep sb, ServingResults.Sweep sc, boolean fine, String wide,
                                           double thresholdPct, String otherMachines) {
        List<Double> b = perRun(sb, r -> r.at(r.knee()));
        List<Double> c = perRun(sc, r -> r.at(r.knee()));
        GatedFigures.Row r = GatedFigures.row("output tokens/s at the knee", true, b, c,
                fine ? KNEE_FLOOR_BISECTED : ServingVerdict.CAPACITY_FLOOR,
                (fine ? MEASURED_BISECTED : wide) + " (the knee's)", thresholdPct, otherMachines);
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

    /**
     * Whether every run of the sweep bracketed its knee to the search's resolution: it met a rate and broke one at
     * most {@link SearchPlan#RESOLUTION} above it. Runs of a search on a coarser grid (two bisections, before
     * 2026-12-06), or one that never broke or never met the target, keep the wider floors.
     */
    static boolean bisected(ServingResults.Sweep s) {
        return !s.runs().isEmpty() && s.runs().stream().allMatch(r -> {
            double ratio = r.breakRate() / r.knee();
            return ratio > 1 && ratio <= SearchPlan.RESOLUTION * (1 + 1e-9);
        });
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
