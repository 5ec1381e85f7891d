package io.p2pbench.report.verdict;

import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.text.Numbers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What {@code compare} gates beside the copy and collective measurements: the figures of partition results
 * ({@link PartitionComparison}: step time, tokens/s, request latency) and of serving sweeps
 * ({@link ServingComparison}: knee, served rate at saturation, output tokens/s at the knee, p99 TTFT and TPOT at
 * the rates both sides met), read by the report's own readers ({@link PartitionVerdict#figures},
 * {@link ServingResults#read}) and matched configuration by configuration.
 *
 * <p>Noise model: a run is the unit of evidence, as for the measurements ({@code docs/compare.md}). Per figure
 * and run one value; per side the median of its runs. Each figure has its floor, measured on A/A reruns (serving on
 * the H200 node, partition on two H100 hosts), raised to the spread
 * (max/min - 1) between the runs of either side ({@link PartitionVerdict#floor}). The verdict rule is the
 * measurements' without the test (a handful of runs per side cannot reach α): worse (better) when the change is
 * in the bad (good) direction and beyond both the threshold and the floor; within a floor wider than the
 * threshold it cannot be judged at the threshold and is counted apart, not as same. Figures of two machines are
 * shown side by side and never judged: one machine's floor says nothing of another's.
 */
public final class GatedFigures {
    private GatedFigures() {}

    /**
     * One figure compared.
     *
     * @param figure what it is, with its unit ({@code step time (µs)})
     * @param biggerIsBetter whether a rise is good
     * @param baselineRuns the baseline's run values
     * @param candidateRuns the candidate's
     * @param baselineValue median of the baseline's runs
     * @param candidateValue median of the candidate's
     * @param floor the noise floor used, a fraction
     * @param floorSource where the floor comes from, in words
     * @param withinWiderFloor whether it cannot be judged because the figures lie within a floor wider than the
     *     threshold ({@link Verdict#UNJUDGED}, {@code why} saying so in words)
     * @param otherHosts whether it is not judged because the sides ran on other GPUs of one kind and the figure
     *     differs between hosts by more than any floor learned from them ({@link Verdict#UNJUDGED})
     */
    public record Row(String figure, boolean biggerIsBetter, List<Double> baselineRuns, List<Double> candidateRuns,
                      double baselineValue, double candidateValue, double floor, String floorSource,
                      Verdict verdict, String why, boolean withinWiderFloor, boolean otherHosts) {
        /** Candidate over baseline. */
        public double ratio() {
            return candidateValue / baselineValue;
        }

        /** The change in the bad direction, in percent (positive = worse), for ranking; 0 without a ratio. */
        public double adversePct() {
            double r = ratio();
            return r > 0 && Double.isFinite(r) ? (biggerIsBetter ? 1 / r - 1 : r - 1) * 100 : 0;
        }
    }

    /**
     * One measurement: a configuration's figures that are judged as one (a partition step's time and tokens/s),
     * or one figure.
     *
     * @param section {@code partition} or {@code serving}
     * @param what the configuration, e.g. {@code DENSE_8B TP P2P 0,0 DECODE batch 8 graph}
     * @param rows its rows, the one that decided the verdict first
     * @param verdict the worst of its rows'
     */
    public record Group(String section, String what, List<Row> rows, Verdict verdict) {
        /** The row that decided the verdict. */
        public Row headline() {
            return rows.get(0);
        }
    }

    /**
     * Every gated figure of one candidate against the baseline.
     *
     * @param groups every measurement, worse first (largest adverse change first), then better, same, cannot judge
     * @param baselineOnly configurations only the baseline measured (not compared)
     * @param candidateOnly configurations only the candidate measured
     * @param note the matching in one line (one machine, or two machines side by side)
     * @param otherGpus whether the sides ran on other GPUs of one machine (GPU UUIDs differ), judged with the floors
     *     between hosts
     * @param acrossMachines whether the sides are of two machines (fingerprints differ): figures side by side as
     *     ratios, none judged
     */
    public record Result(List<Group> groups, int baselineOnly, int candidateOnly, String note, boolean otherGpus,
                         boolean acrossMachines) {
        /** Sides of one host (or not known to differ). */
        public Result(List<Group> groups, int baselineOnly, int candidateOnly, String note) {
            this(groups, baselineOnly, candidateOnly, note, false, false);
        }

        /** Measurements with a given verdict. */
        public long count(Verdict v) {
            return groups.stream().filter(g -> g.verdict() == v).count();
        }

        /** Whether nothing was compared. */
        public boolean isEmpty() {
            return groups.isEmpty();
        }

        /** Measurements not judged because the sides ran on other GPUs of one kind ({@link Row#otherHosts}). */
        public long otherHosts() {
            return groups.stream().filter(g -> g.verdict() == Verdict.UNJUDGED && g.headline().otherHosts()).count();
        }

        /** Measurements that cannot be judged because their floor is wider than the threshold. */
        public long widerFloors() {
            return groups.stream().filter(g -> g.verdict() == Verdict.UNJUDGED
                    && g.headline().withinWiderFloor()).count();
        }
    }

    /** How the floors are sourced, one line for the verdict line and compare.md. */
    public static final String NOISE = "partition and serving floors of docs/compare.md (A/A reruns), raised to the "
            + "spread between runs of either side";

    /**
     * The partition and serving figures of {@code candidates} against those of {@code baselines}: empty when
     * neither side has any, or none match.
     */
    public static Result compare(List<ResultData> baselines, List<ResultData> candidates, double thresholdPct)
            throws BadInputException {
        Comparison.requireOneMachine(baselines, "baseline");
        Comparison.requireOneMachine(candidates, "candidate");
        String baseMachine = baselines.get(0).machine();
        String candMachine = candidates.get(0).machine();
        String other = baseMachine.equals(candMachine) ? null : baseMachine + " vs " + candMachine;
        List<Group> groups = new ArrayList<>();
        int[] only = new int[2];
        boolean oneHost = !RoundRows.Hosts.of(baselines, candidates).differ();
        List<PartitionVerdict.Figure> pb = PartitionVerdict.figures(baselines);
        List<PartitionVerdict.Figure> pc = PartitionVerdict.figures(candidates);
        if (!pb.isEmpty() && !pc.isEmpty()) {
            groups.addAll(PartitionComparison.compare(pb, pc, thresholdPct, other, oneHost, only));
        }
        List<ServingResults.Sweep> sb = ServingResults.read(baselines);
        List<ServingResults.Sweep> sc = ServingResults.read(candidates);
        if (!sb.isEmpty() && !sc.isEmpty()) {
            groups.addAll(ServingComparison.compare(sb, sc, thresholdPct, other, oneHost, only));
        }
        Comparator<Group> worstFirst = Comparator.comparingInt((Group g) -> g.verdict().ordinal())
                .thenComparing(Comparator.comparingDouble((Group g) -> g.headline().adversePct()).reversed());
        groups.sort(worstFirst);
        String note = other != null ? "Different machines (" + other + "): figures side by side, not judged."
                : oneHost ? "Same machine (" + candMachine + ")."
                : "Same machine (" + candMachine + "), other GPUs of it (GPU UUIDs differ): the floors between hosts.";
        return new Result(List.copyOf(groups), only[0], only[1], note, other == null && !oneHost, other != null);
    }

    /**
     * The comparison of the copy and collective measurements when one side has none and the partition and serving
     * figures are what is compared: no rows, nothing counted.
     */
    public static Comparison.Result noMeasurements(List<ResultData> baselines, List<ResultData> candidates,
                                                   double thresholdPct) {
        return new Comparison.Result(List.copyOf(baselines), List.copyOf(candidates), Comparison.Matching.SAME_MACHINE,
                "No copy or collective measurements on one side.", thresholdPct, NOISE, List.of(), 0, 0);
    }

    /** Whether any of {@code runs} holds copy or collective measurements. */
    public static boolean hasMeasurements(List<ResultData> runs) {
        return runs.stream().anyMatch(d -> !d.measurements().isEmpty());
    }

    /**
     * One figure judged: medians of the runs, the floor raised to their spread, the threshold.
     *
     * @param documented the figure's own floor (a fraction) and {@code source} where it comes from
     * @param otherMachines the two machines when they differ (then not judged), else null
     */
    static Row row(String figure, boolean biggerIsBetter, List<Double> base, List<Double> cand, double documented,
                   String source, double thresholdPct, String otherMachines) {
        // A run without the figure (NaN: no knee, no saturation) is left out of the medians and the spread.
        List<Double> b = base.stream().filter(Double::isFinite).toList();
        List<Double> c = cand.stream().filter(Double::isFinite).toList();
        double floor = PartitionVerdict.floor(documented, b, c);
        String floorSource = floor > documented ? "the spread between runs (" + source + ": "
                + percent(documented) + ")" : source;
        double bv = b.isEmpty() ? Double.NaN : PartitionVerdict.median(b);
        double cv = c.isEmpty() ? Double.NaN : PartitionVerdict.median(c);
        Row r = new Row(figure, biggerIsBetter, List.copyOf(base), List.copyOf(cand), bv, cv, floor, floorSource,
                Verdict.SAME, "", false, false);
        if (otherMachines != null) {
            return with(r, Verdict.UNJUDGED, "different machines (" + otherMachines + "): shown side by side, "
                    + "not judged");
        }
        return judge(r, thresholdPct);
    }

    /** The verdict of a row by direction, threshold and floor. */
    static Row judge(Row r, double thresholdPct) {
        double ratio = r.ratio();
        if (!(ratio > 0) || !Double.isFinite(ratio)) {
            return with(r, Verdict.UNJUDGED, "no ratio (a figure is not a positive number)");
        }
        double changePct = Math.abs(ratio - 1) * 100;
        double sizePct = (Math.max(ratio, 1 / ratio) - 1) * 100;
        double floorPct = r.floor() * 100;
        boolean good = r.biggerIsBetter() ? ratio > 1 : ratio < 1;
        if (sizePct <= floorPct && floorPct > thresholdPct) {
            return with(r, Verdict.UNJUDGED, String.format(Locale.ROOT, "cannot judge at ±%s%%: within the "
                    + "noise floor %.1f%% (%s), which is wider (the figures are %.1f%% apart)",
                    Numbers.plain(thresholdPct), floorPct, r.floorSource(), sizePct), true, false);
        }
        if (changePct <= thresholdPct) {
            return with(r, Verdict.SAME, "within ±" + Numbers.plain(thresholdPct) + "%");
        }
        return with(r, good ? Verdict.BETTER : Verdict.WORSE, String.format(Locale.ROOT,
                "beyond ±%s%% and the noise floor %.1f%% (%s; the figures are %.1f%% apart)",
                Numbers.plain(thresholdPct), floorPct, r.floorSource(), sizePct));
    }

    /** {@code r} with another verdict and reason. */
    static Row with(Row r, Verdict v, String why) {
        return with(r, v, why, false, false);
    }

    /**
     * {@code r} with another verdict and reason, whether it lies within a floor wider than the threshold, and whether
     * it is not judged because the sides ran on other GPUs of one kind ({@link Row#otherHosts}).
     */
    private static Row with(Row r, Verdict v, String why, boolean withinWiderFloor, boolean otherHosts) {
        return new Row(r.figure(), r.biggerIsBetter(), r.baselineRuns(), r.candidateRuns(), r.baselineValue(),
                r.candidateValue(), r.floor(), r.floorSource(), v, why, withinWiderFloor, otherHosts);
    }

    /**
     * {@code r} not judged because the sides ran on other GPUs of one kind and its figure differs between hosts by
     * more than a floor learned from them ({@link Row#otherHosts}).
     */
    static Row otherHosts(Row r, String why) {
        return with(r, Verdict.UNJUDGED, why, false, true);
    }

    /** A measurement of these rows: the worst first (largest adverse change first among equals). */
    static Group group(String section, String what, List<Row> rows) {
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingInt((Row r) -> r.verdict().ordinal())
                .thenComparing(Comparator.comparingDouble(Row::adversePct).reversed()));
        return new Group(section, what, List.copyOf(sorted), sorted.get(0).verdict());
    }

    /** Keys in both, in the baseline's order; counts the rest as baseline-only and candidate-only into {@code only}. */
    static List<String> common(List<String> base, List<String> cand, int[] only) {
        Set<String> b = new LinkedHashSet<>(base);
        Set<String> c = new LinkedHashSet<>(cand);
        List<String> both = b.stream().filter(c::contains).toList();
        only[0] += b.size() - both.size();
        only[1] += c.size() - both.size();
        return both;
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
    }
}
