package io.p2pbench.report.verdict;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.serving.SearchPlan;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.transfer.SkipCause;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The report section "Does splitting pay at a request rate?": each plan and transport of a serving
 * sweep against SINGLE of the same machine and workload, at the same offered rate (the same requests
 * on the same clock: {@link io.p2pbench.serving.LoadGenerator}) and by capacity (the knee under the
 * sweep's target). The rate compared at is the highest rate both measured at which SINGLE met the
 * target (else the lowest both measured). A plan is kept only if, at that rate, one of its p99 TTFT,
 * TPOT and end-to-end latencies is lower by more than the latency floor and none higher by more, or
 * if its knee is higher by more than the capacity floor, or if SINGLE does not fit one GPU; it is
 * rejected otherwise. It extends {@link PartitionVerdict}: the same floors, labels and remedies.
 *
 * <p>Noise model: a run is the unit of evidence. Latency floor: {@link PartitionVerdict#P99_FLOOR},
 * the documented default (20%: the largest spread of a p99 between four A/A reruns on the H200 node was
 * 22%, with no false keep in 48 pairs; a p99 TTFT's at least {@link #TTFT_FLOOR}), raised to the spread (max/min - 1) of the p99 between runs of
 * either side at that rate. Capacity floor: {@link #CAPACITY_FLOOR} (measured on reruns), raised to the spread of
 * the knees between runs; and since a knee is known only to within its bracket, a higher knee counts
 * only where the plan met the target at a rate at which SINGLE broke it. With one run per side the
 * floors are these defaults, not the machine's own spread, and the verdict says so. Each point's p99 also carries its distribution-free interval
 * (order statistics, {@link ExactTests#quantileInterval}) with its stated coverage.
 *
 * <p>Exposed communication of at least {@link PartitionVerdict#COMM_BOUND_SHARE} of an instrumented step
 * at the knee's mean shape is called communication-bound, with the two remedies and their figures:
 * the partition boundaries the step crosses against PP's over the same GPUs, and the exchanges' bus
 * bandwidth against the fastest peer copy and the best-linked pairs of the machine.
 */
public final class ServingVerdict {
    /**
     * Capacity floor, a fraction: above one step of the final grid of the search those reruns ran (two bisections
     * of a doubling: 2^(1/4) - 1 = 18.9%), the step by which SINGLE's knee moved between reruns on the H200 node
     * (docs/serving-error-rates.md). At {@link SearchPlan#RESOLUTION} knees moved by up to 9.1% between reruns on
     * an H100 (compare's floor for such runs: ServingComparison).
     */
    public static final double CAPACITY_FLOOR = 0.20;

    /**
     * Floor of a p99 TTFT, a fraction (TPOT and e2e keep {@link PartitionVerdict#P99_FLOOR}): two A/A reruns of TP with
     * P2P off on one H100 (GPU-adeb0106, 2026-12-06 17:20Z and 17:25Z) were 38.7% apart at a rate both met (97.9 against
     * 135.7 ms), and with one floor of 20% this verdict kept one of them against the other; on the H200 22.3%.
     */
    public static final double TTFT_FLOOR = 0.50;

    private ServingVerdict() {}

    /**
     * One plan and transport judged against SINGLE.
     *
     * @param plan the plan's sweep
     * @param single its scenario's SINGLE on the same machine, or null when there is none
     * @param ratePerSecond the rate they were compared at (NaN: none)
     * @param verdict {@link Verdict#KEEP}, {@link Verdict#REJECT}, {@link Verdict#UNJUDGED} (a group that repeats a
     *     GPU), {@link Verdict#NOT_MEASURED} or {@link Verdict#NO_VERDICT}
     * @param why what decided it: the p99 changes and the knees against their floors, the run counts, the
     *     communication-bound note
     */
    public record Row(ServingResults.Sweep plan, ServingResults.Sweep single, double ratePerSecond, Verdict verdict,
                      String why) {}

    /**
     * The verdicts of one machine.
     *
     * @param fingerprint the machine's fingerprint
     * @param machine what is known of it
     * @param sweeps the machine's sweeps
     * @param rows every non-SINGLE sweep judged against its scenario's SINGLE
     * @param oneGpu whether there is a measured multi-rank sweep and every one ran over a group that repeats a GPU,
     *     so that this machine cannot judge whether splitting pays
     */
    public record MachineVerdicts(String fingerprint, PartitionVerdict.Machine machine, List<ServingResults.Sweep> sweeps,
                                  List<Row> rows, boolean oneGpu) {}

    /**
     * The verdicts of each machine of {@code sweeps}, in order of first appearance; a plan is only ever judged against
     * SINGLE of its own machine.
     *
     * @param machines per fingerprint what is known of the machine; a machine missing here is named by its fingerprint
     */
    public static List<MachineVerdicts> judgeByMachine(List<ServingResults.Sweep> sweeps,
                                                       Map<String, PartitionVerdict.Machine> machines) {
        List<MachineVerdicts> out = new ArrayList<>();
        for (String name : sweeps.stream().map(ServingResults.Sweep::machine).distinct().toList()) {
            PartitionVerdict.Machine m = machines.getOrDefault(name, PartitionVerdict.Machine.unknown(name));
            List<ServingResults.Sweep> own = sweeps.stream().filter(s -> s.machine().equals(name)).toList();
            List<ServingResults.Sweep> multiRank = own.stream().filter(s -> s.plan() != Plan.SINGLE && s.skipReason() == null)
                    .toList();
            boolean oneGpu = !multiRank.isEmpty() && multiRank.stream().allMatch(ServingResults.Sweep::singleGpu);
            out.add(new MachineVerdicts(name, m, own, judge(own, m), oneGpu));
        }
        return out;
    }

    /** Every non-SINGLE sweep against its scenario's SINGLE on the same machine. */
    public static List<Row> judge(List<ServingResults.Sweep> sweeps, PartitionVerdict.Machine machine) {
        List<Row> rows = new ArrayList<>();
        for (ServingResults.Sweep s : sweeps) {
            if (s.plan() == Plan.SINGLE) {
                continue;
            }
            ServingResults.Sweep single = sweeps.stream().filter(x -> x.plan() == Plan.SINGLE
                    && x.scenario().equals(s.scenario())).findFirst().orElse(null);
            rows.add(judge(s, single, machine));
        }
        return rows;
    }

    static Row judge(ServingResults.Sweep f, ServingResults.Sweep s, PartitionVerdict.Machine machine) {
        if (f.skipReason() != null) {
            return new Row(f, s, Double.NaN, Verdict.NOT_MEASURED, f.skipReason());
        }
        if (f.runs().isEmpty()) {
            return new Row(f, s, Double.NaN, Verdict.NO_VERDICT, "it did not finish (see the run's manifest and log)");
        }
        if (s == null || (s.skipReason() == null && s.runs().isEmpty())) {
            return new Row(f, s, Double.NaN, Verdict.NO_VERDICT, "SINGLE was not measured for this workload");
        }
        if (s.skipReason() != null && s.skipCause() == SkipCause.DOES_NOT_FIT) {
            return new Row(f, s, Double.NaN, Verdict.KEEP, "SINGLE does not fit one GPU (" + s.skipReason()
                    + "): splitting is needed for capacity" + (f.singleGpu() ? "; " + PartitionVerdict.SINGLE_GPU : ""));
        }
        if (s.skipReason() != null) {
            return new Row(f, s, Double.NaN, Verdict.NO_VERDICT, "SINGLE did not run: " + s.skipReason());
        }
        Figures fig = figures(f, s);
        List<String> why = new ArrayList<>(fig.why());
        boolean better = fig.keep();
        int n = Math.min(f.runs().size(), s.runs().size());
        if (n < 2) {
            why.add("n too small: " + n + " run per side, the floors are the defaults (from reruns on the H200 node), "
                    + "not measured here");
        }
        ServingSamples.Breakdown b = f.runs().get(0).samples().breakdown();
        if (b != null && b.commShare() >= PartitionVerdict.COMM_BOUND_SHARE) {
            why.add(PartitionVerdict.commBound(b.commShare(), busGBps(f, b), machine.fastestPeerGBps(),
                    machine.bestPairs()) + "; " + crossings(f));
        }
        if (f.singleGpu()) {
            return new Row(f, s, fig.ratePerSecond(), Verdict.UNJUDGED,
                    PartitionVerdict.SINGLE_GPU + "; " + String.join("; ", why));
        }
        return new Row(f, s, fig.ratePerSecond(), better ? Verdict.KEEP : Verdict.REJECT, String.join("; ", why));
    }

    /**
     * What a plan's verdict against SINGLE rests on, both measured: the latency part at the reference rate
     * (null when they measured no rate in common) and the capacity part. A plan is kept if either part keeps it.
     *
     * @param why the verdict's reasons for both parts, in order
     */
    public record Figures(double ratePerSecond, Latency latency, Capacity capacity, List<String> why) {
        /** Whether the latency or the capacity rule keeps the plan. */
        public boolean keep() {
            return (latency != null && latency.keep()) || capacity.keep();
        }

        /** Whether a p99 rises by more than the latency floor or the knee falls by more than the capacity floor. */
        public boolean worse() {
            return (latency != null && latency.worse()) || capacity.worse();
        }
    }

    /**
     * The latency part at the reference rate.
     *
     * @param p99Changes per metric ({@link #METRICS}: TTFT, TPOT, e2e), the plan's p99 over SINGLE's minus 1 (medians
     *     over runs); +infinity where only the plan left requests unfinished, -infinity where only SINGLE did, NaN both
     * @param floor the latency floor used, a fraction
     * @param keep one p99 lower by more than the floor and none higher by more
     * @param worse one p99 higher by more than the floor
     */
    public record Latency(List<Double> p99Changes, double floor, boolean keep, boolean worse) {}

    /**
     * The capacity part.
     *
     * @param knee the plan's knee (median over runs; NaN: no rate met the target)
     * @param singleKnee SINGLE's
     * @param floor the capacity floor used, a fraction
     * @param keep knee higher by more than the floor and met at a rate at which SINGLE broke the target
     * @param worse knee lower by more than the floor and SINGLE met a rate at which the plan broke the target (the
     *     mirror of keep's bracket rule), or no knee where SINGLE has one
     */
    public record Capacity(double knee, double singleKnee, double floor, boolean keep, boolean worse) {}

    /** The p99 metrics judged, in order. */
    public static final List<String> METRICS = List.of("TTFT", "TPOT", "e2e");

    /**
     * The latency and capacity rules of the verdict for {@code plan} against {@code single}, both with runs and
     * neither looked at for its plan or single-GPU label: {@link #judge} applies them to a plan against its
     * scenario's SINGLE; they also judge a sweep against another run of itself (A/A, the verdict's error rates).
     */
    public static Figures figures(ServingResults.Sweep plan, ServingResults.Sweep single) {
        List<String> why = new ArrayList<>();
        double rate = referenceRate(plan, single);
        Latency latency = null;
        if (Double.isNaN(rate)) {
            why.add("no rate measured by both");
        } else {
            latency = latency(plan, single, rate, why);
        }
        Capacity capacity = capacity(plan, single, why);
        return new Figures(rate, latency, capacity, List.copyOf(why));
    }

    /**
     * The rate a plan is compared with SINGLE at: SINGLE's reference rate (the highest geometric rate at which it
     * met the target in every run, so the same for every plan and transport of a scenario), or the highest rate
     * below it that both measured when the plan stopped below it; without a reference, the lowest rate both measured.
     */
    static double referenceRate(ServingResults.Sweep f, ServingResults.Sweep s) {
        List<Double> common = f.commonRates().stream().filter(r -> s.commonRates().stream()
                .anyMatch(x -> Math.abs(x / r - 1) < 1e-9)).sorted().toList();
        if (common.isEmpty()) {
            return Double.NaN;
        }
        double reference = Double.NaN;
        for (double r : s.commonRates()) {
            if (geometric(s, r) && s.runs().stream().allMatch(run -> run.at(r).met())
                    && !(reference > r)) {
                reference = r;
            }
        }
        if (Double.isNaN(reference)) {
            return common.get(0);
        }
        double at = Double.NaN;
        for (double r : common) {
            if (r <= reference * (1 + 1e-9)) {
                at = r;
            }
        }
        return Double.isNaN(at) ? common.get(0) : at;
    }

    /** Whether {@code rate} is on the sweep's geometric grid (start x growth^k), which every plan of it shares. */
    private static boolean geometric(ServingResults.Sweep s, double rate) {
        SearchPlan p = s.sweep().search();
        long k = Math.round(Math.log(rate / p.startRatePerSecond()) / Math.log(p.growth()));
        return Math.abs(p.geometricRate((int) k) / rate - 1) < 1e-9;
    }

    /** The p99 of {@code metric} ({@link #METRICS}) at a point. */
    public static ToDoubleFunction<ServingResults.Point> p99(String metric) {
        return switch (metric) {
            case "TTFT" -> p -> p.stats().ttft().p99();
            case "TPOT" -> p -> p.stats().tpot().p99();
            default -> p -> p.stats().e2e().p99();
        };
    }

    /** Latency at {@code rate}: whether one p99 falls by more than the floor and none rises by more. */
    private static Latency latency(ServingResults.Sweep f, ServingResults.Sweep s, double rate, List<String> why) {
        boolean anyBetter = false;
        boolean anyWorse = false;
        List<List<Double>> planP99 = new ArrayList<>();
        List<List<Double>> singleP99 = new ArrayList<>();
        double floor = 0; // one floor for the three p99s, the widest of their spreads, before any is judged
        for (String m : METRICS) {
            planP99.add(f.at(rate, p99(m)));
            singleP99.add(s.at(rate, p99(m)));
            floor = Math.max(floor, PartitionVerdict.floor(PartitionVerdict.P99_FLOOR, planP99.get(planP99.size() - 1),
                    singleP99.get(singleP99.size() - 1)));
        }
        List<String> parts = new ArrayList<>();
        List<Double> changes = new ArrayList<>();
        for (int i = 0; i < METRICS.size(); i++) {
            String m = METRICS.get(i);
            List<Double> a = planP99.get(i);
            List<Double> b = singleP99.get(i);
            double pa = PartitionVerdict.median(a);
            double pb = PartitionVerdict.median(b);
            if (Double.isInfinite(pa) || Double.isInfinite(pb)) {
                anyBetter |= Double.isFinite(pa);
                anyWorse |= Double.isFinite(pb);
                changes.add(Double.isInfinite(pa) && Double.isInfinite(pb) ? Double.NaN
                        : Double.isInfinite(pa) ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
                parts.add(m + (Double.isInfinite(pa) && Double.isInfinite(pb) ? " unfinished on both sides"
                        : Double.isInfinite(pa) ? " unfinished (SINGLE finished)" : " finished (SINGLE did not)"));
                continue;
            }
            double change = pa / pb - 1;
            double limit = "TTFT".equals(m) ? Math.max(floor, TTFT_FLOOR) : floor;
            anyBetter |= change < -limit;
            anyWorse |= change > limit;
            changes.add(change);
            parts.add(String.format(Locale.ROOT, "%s %+.1f%%", m, 100 * change) + (limit > floor
                    ? String.format(Locale.ROOT, " (floor %.0f%%)", 100 * limit) : ""));
        }
        why.add(String.format(Locale.ROOT, "at %s req/s p99 %s (floor %.0f%%)", rate(rate), String.join(", ", parts),
                100 * floor));
        return new Latency(List.copyOf(changes), floor, anyBetter && !anyWorse, anyWorse);
    }

    /**
     * Capacity: whether the knee is higher by more than the floor and the plan met the target at a rate where
     * SINGLE broke it (their brackets do not overlap: a knee is only known to within its bracket).
     */
    private static Capacity capacity(ServingResults.Sweep f, ServingResults.Sweep s, List<String> why) {
        double kf = PartitionVerdict.median(f.knees());
        double ks = PartitionVerdict.median(s.knees());
        double floor = PartitionVerdict.floor(CAPACITY_FLOOR, f.knees(), s.knees());
        String source = floor > CAPACITY_FLOOR ? "the spread between runs" : "documented";
        ServingResults.Run sBroke = highestBreak(s);
        double sBreak = sBroke == null ? Double.NaN : sBroke.breakRate();
        if (Double.isNaN(kf)) {
            why.add("no rate met the target");
            return new Capacity(kf, ks, floor, false, !Double.isNaN(ks));
        }
        if (Double.isNaN(ks)) {
            boolean better = !Double.isNaN(sBreak) && kf >= sBreak;
            why.add("knee " + rate(kf) + " req/s where SINGLE met the target at no rate it measured");
            return new Capacity(kf, ks, floor, better, false);
        }
        double change = kf / ks - 1;
        if (Double.isNaN(sBreak)) {
            why.add("knee " + rate(kf) + " vs SINGLE's >= " + rate(ks) + " req/s (SINGLE never broke the target: "
                    + "capacity cannot be compared)");
            return new Capacity(kf, ks, floor, false, change < -floor);
        }
        boolean apart = kf >= sBreak;
        boolean lowerApart = metWhereBroken(ks, f); // SINGLE met a rate at which the plan broke
        why.add(String.format(Locale.ROOT, "knee %s vs %s req/s, %+.0f%% (floor %.0f%%, %s; %s)", rate(kf), rate(ks),
                100 * change, 100 * floor, source, (apart ? "met at " + rate(kf) + " where SINGLE broke at "
                        : "within SINGLE's bracket, which breaks at ") + rate(sBreak) + breakCause(sBroke)));
        return new Capacity(kf, ks, floor, change > floor && apart, change < -floor && lowerApart);
    }

    /**
     * Whether a knee of {@code knee} req/s lies at or above the rate by which every run of {@code other} had broken
     * the target (the highest of their lowest broken rates): the two are apart beyond their brackets (a knee is only
     * known to within its bracket). False where no run of {@code other} broke it.
     */
    public static boolean metWhereBroken(double knee, ServingResults.Sweep other) {
        ServingResults.Run broke = highestBreak(other);
        return broke != null && knee >= broke.breakRate();
    }

    /** The run of {@code sweep} that broke the target at the highest rate, or null when none broke it. */
    private static ServingResults.Run highestBreak(ServingResults.Sweep sweep) {
        return sweep.runs().stream().filter(r -> !Double.isNaN(r.breakRate()))
                .max(Comparator.comparingDouble(ServingResults.Run::breakRate)).orElse(null);
    }

    /** Why {@code run} broke the target at its break rate: {@code  (the queue grows: ...)}. */
    private static String breakCause(ServingResults.Run run) {
        ServingResults.Point p = run.breakPoint();
        return p == null ? "" : " (" + p.judgement().replaceFirst("^broke: ", "") + ")";
    }

    /** A rate to three significant digits, without trailing zeros: {@code 20}, {@code 15.5}, {@code 0.125}. */
    public static String rate(double r) {
        if (!Double.isFinite(r)) {
            return String.valueOf(r);
        }
        return new BigDecimal(r).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** The exchanges' bus bandwidth in the instrumented step: bytes crossing over the exposed communication time. */
    static double busGBps(ServingResults.Sweep f, ServingSamples.Breakdown b) {
        if (!(b.commUs() > 0)) {
            return 0;
        }
        PartitionSpec spec = spec(f, (int) Math.max(1, b.shape().tokens()));
        double factor = spec.plan() == Plan.TP ? 2.0 * (spec.ranks() - 1) / spec.ranks() : 1.0;
        return spec.boundariesPerStep() * spec.bytesPerBoundary() * factor / (b.commUs() * 1e3);
    }

    /** The boundaries a step of this plan crosses against PP's over the same GPUs. */
    static String crossings(ServingResults.Sweep f) {
        PartitionSpec spec = spec(f, 1);
        long pp = Math.min(spec.ranks(), spec.model().layers()) - 1L;
        return String.format(Locale.ROOT, "the step crosses %d partition boundaries (%s), PP over the same %d ranks %d",
                spec.boundariesPerStep(), switch (spec.plan()) {
                    case TP -> "two all-reduces per layer";
                    case EP -> "a dispatch and a combine per layer";
                    default -> "one per stage boundary";
                }, spec.ranks(), pp);
    }

    private static PartitionSpec spec(ServingResults.Sweep f, int tokens) {
        Plan plan = f.plan();
        int ranks = plan == Plan.SINGLE ? 1 : Group.parse(f.group()).size();
        return new PartitionSpec(ModelShape.named(f.model()), plan, ranks, Phase.DECODE, tokens, 1, 1);
    }
}
