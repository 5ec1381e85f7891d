package io.p2pbench.report.verdict;

import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.read.RunEntry;
import io.p2pbench.report.text.Numbers;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.results.RunManifest;
import io.p2pbench.settings.Settings;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.HostMemory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.DoubleStream;

/**
 * Matches the measurements of a baseline and a candidate and judges each measurement
 * ({@code docs/compare.md} argues the model). Each side is one run or several runs of one machine.
 *
 * <p>The unit of evidence is a run: batches of one run share that run's state of the machine (clocks,
 * placement, the hypervisor's neighbours), and on our VM runs minutes apart differ by more than the
 * batches of one run do, so batches are not independent samples of the machine. Per row and run the
 * figure is the median over batches (latency: p50, R-7); per side, the median of its runs' figures.
 *
 * <p>A row is worse (better) only when its change is in the bad (good) direction and beyond both the
 * user's threshold and the row's noise floor ({@link NoiseFloors}: the committed table, with a
 * baseline of several runs adding its own run pairs to the table's evidence), and, where an exact
 * Mann-Whitney test of the run figures can reach α at all, significant after Benjamini-Hochberg across
 * the tested rows. A row whose floor is wider than the threshold and whose change is within the floor
 * cannot be judged at the threshold: it is counted apart, not as same; so is a row without a ratio.
 *
 * <p>The alg/bus pair of a collective and the rows of a bidirectional copy are rows of one
 * measurement, which has one verdict and is counted once. A collective's is the worst of its rows. A
 * bidirectional copy's is its sum's (all bytes over the common window): how the two directions share
 * that window moves from run to run while the total does not, so the lanes are shown beside the sum
 * but do not decide.
 */
public final class Comparison {
    /** Significance level (after Benjamini-Hochberg across the tested rows). */
    public static final double ALPHA = 0.05;
    /** Coverage aimed at by intervals; the coverage each has is stated beside it. */
    public static final double LEVEL = 0.95;

    private Comparison() {}

    /** How results were matched. */
    public enum Matching {
        /** One machine: every pair is its own measurement. */
        SAME_MACHINE("(path, direction, size, pair)"),
        /** Different machines: pairs of one link class are pooled; rows are ratios, never judged. */
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

    /**
     * One figure compared (one lane, or alg or bus).
     *
     * @param baseline the first baseline run's measurement (pooled across pairs when matching across machines)
     * @param candidate the first candidate run's
     * @param baselineRuns run-level figures of the baseline's runs that have the row
     * @param candidateRuns the candidate's
     * @param baselineValue median of the baseline's run figures
     * @param candidateValue median of the candidate's
     * @param ratio candidate / baseline
     * @param interval interval of the ratio (exact shift interval on the log scale) with its coverage
     * @param p exact two-sided Mann-Whitney p of the run figures; NaN where no test can reach α
     * @param smallestP smallest p the test could give with these run counts and ties
     * @param q Benjamini-Hochberg adjusted p (NaN without a test)
     * @param floor the noise floor (fraction) and where it comes from
     * @param verdict better, worse or same
     * @param why what decided the verdict
     * @param cause why a row cannot be judged; null for the others
     */
    public record Row(Measurement baseline, Measurement candidate, double[] baselineRuns, double[] candidateRuns,
                      double baselineValue, double candidateValue, double ratio, ExactTests.Interval interval,
                      double p, double smallestP, double q, NoiseFloors.Floor floor, Verdict verdict, String why,
                      Unjudged cause) {
        /** A row as measured, before its verdict (or one that is judged). */
        public Row(Measurement baseline, Measurement candidate, double[] baselineRuns, double[] candidateRuns,
                   double baselineValue, double candidateValue, double ratio, ExactTests.Interval interval, double p,
                   double smallestP, double q, NoiseFloors.Floor floor, Verdict verdict, String why) {
            this(baseline, candidate, baselineRuns, candidateRuns, baselineValue, candidateValue, ratio, interval, p,
                    smallestP, q, floor, verdict, why, null);
        }

        /** The change in the bad direction, in percent (positive = worse), for ranking. */
        public double adversePct() {
            return (candidate.key().biggerIsBetter() ? 1 / ratio - 1 : ratio - 1) * 100;
        }

        /** Whether there is no ratio to judge (a figure is not positive). */
        public boolean noRatio() {
            return !(ratio > 0) || !Double.isFinite(ratio);
        }

        /** This row not judged, for {@code cause}, with the reason as printed. */
        Row unjudged(Unjudged cause, String reason) {
            return new Row(baseline, candidate, baselineRuns, candidateRuns, baselineValue, candidateValue, ratio,
                    interval, p, smallestP, q, floor, Verdict.UNJUDGED, reason, cause);
        }
    }

    /**
     * How many more baseline runs a row's {@link NoiseFloors.Floor#withMoreRuns} estimates its floor for, and
     * {@link Result#judgedWithMoreRuns} counts the measurements they would judge.
     */
    public static final int MORE_RUNS = 2;

    /** Why a row cannot be judged. */
    public enum Unjudged {
        /** Within a noise floor wider than the threshold. */
        WIDER_FLOOR,
        /**
         * Beyond the threshold and the noise floor, but not significant after Benjamini-Hochberg across the rows
         * compared: a change not told from the noise of that many rows, so neither worse nor same.
         */
        NOT_SIGNIFICANT,
        /** A figure is not positive: no ratio. */
        NO_RATIO,
        /** Measured in rounds on other GPUs of the kind: hosts of one kind differ by more than any learned bound. */
        OTHER_HOSTS,
        /** Runs of two different machines: a ratio, never a verdict. */
        OTHER_MACHINE,
        /** A lane of a bidirectional copy: its sum decides. */
        LANE,
        /** A side's collective was enqueued ungated, so its figure is the host's enqueue rate ({@link Measurement#hostPaced}). */
        HOST_PACED,
        /**
         * Every run of a side has rounds that disagree beyond setting aside ({@code RoundTest.disturbed}): the machine
         * was disturbed during the run; out of the Benjamini-Hochberg family.
         */
        DISTURBED,
        /**
         * A row the host's CPU paces ({@link #hostCpuPaced}) within its noise floor widened by what the host can move it
         * ({@link #hostSlope} times the sides' host work apart, {@link #hostApart}), where that work differs by more
         * than {@link #HOST_APART}.
         */
        HOST_CPU
    }

    /**
     * How far apart (a fraction, either way: 10% faster is as far as 10% slower) the two sides' host CPU work
     * ({@link ResultData#hostSeconds}) may be before the floors of the rows the host's CPU paces widen by what the host
     * can move them ({@link #hostSlope}): 10%. Within it the drift between runs that the floors hold covers the host as
     * runs of one host vary. In the 30 pairs of runs of the four H100 sets S, T, U and V (20 runs, one build, one host
     * each), the hosts of S, T and V1 worked alike within 8.8%; U's fourth run and V2's first worked 11-25% apart from
     * the other three of their sets, and in those six pairs the pageable H2D copy of 64 MiB moved 27-81% (up to 36% in
     * the other 24). Over the 20 runs the pageable copies moved against the host's work with correlations of -0.56 to
     * -0.91 (1 MiB H2D: a run whose JVMs took 10% longer copied 10% slower), the latencies of copies up to 1 MiB +0.46
     * to +0.84, the ring's latency +0.72; the device-timed bandwidth of other rows within +-0.12 times as much but for
     * the pinned H2D+D2H sum at 64 MiB (-0.39: V2's last run, whose rounds disagree) (docs/compare.md, "Rounds").
     */
    public static final double HOST_APART = 0.10;

    /**
     * How much a row's figure moves with the host's CPU work, as a multiple of that work's change on the log scale; 0
     * for rows the device times. The largest slope of each class over the 20 runs of sets S-V (one build, four H100
     * hosts; each run against its set's mean), rounded up: pageable host copies, bandwidth and latency, 2.7 (the CPU
     * copies through the driver's staging buffers; correlations -0.56 to -0.91, the 64 MiB H2D copy 2.68);
     * host-observed latencies of copies up to 1 MiB 0.5 (mostly the enqueue and the wake-up; +0.46 to +0.84, at most
     * 0.42); the ring all-reduce's latency 1.3 (its steps enqueued one by one from the host; +0.72, 1.25). Device-timed
     * bandwidth moved at most 0.12 times as much but for the pinned H2D+D2H sum at 64 MiB (0.39), whose slow rounds in
     * V2's last run are set aside by their own rule ({@code RoundTest.disturbed}).
     */
    static double hostSlope(Measurement.Key k) {
        if (k.is(Kind.HOST) && k.route().memory() == HostMemory.PAGEABLE) {
            return 2.7;
        }
        if (k.biggerIsBetter()) {
            return 0;
        }
        return k.is(Kind.ALLREDUCE_RING) ? 1.3 : k.sizeBytes() <= 1L << 20 ? 0.5 : 0;
    }

    /** Whether a row's figure is paced by the host's CPU ({@link #hostSlope} above 0). */
    static boolean hostCpuPaced(Measurement.Key k) {
        return hostSlope(k) > 0;
    }

    /**
     * How much longer (or shorter) the candidate's host CPU work was than the baseline's: the ratio of the sides'
     * geometric means of {@link ResultData#hostSeconds}, less one; NaN where a run does not say or the runs differ in
     * plan (settings or entries), whose JVMs then differ in number.
     */
    static double hostApart(List<ResultData> baselines, List<ResultData> candidates) {
        List<ResultData> all = new ArrayList<>(baselines);
        all.addAll(candidates);
        RunManifest first = all.get(0).manifest();
        if (first == null) {
            return Double.NaN;
        }
        List<String> firstPlan = plan(all.get(0));
        boolean comparable = all.stream().allMatch(r -> r.manifest() != null && r.hostSeconds() > 0
                && Objects.equals(r.manifest().settings(), first.settings()) && plan(r).equals(firstPlan));
        return comparable ? Math.exp(meanLog(candidates) - meanLog(baselines)) - 1 : Double.NaN;
    }

    /** The combinations a run planned, by id. */
    private static List<String> plan(ResultData r) {
        return r.entries().stream().map(RunEntry::id).toList();
    }

    private static double meanLog(List<ResultData> runs) {
        return runs.stream().mapToDouble(r -> Math.log(r.hostSeconds())).average().orElse(Double.NaN);
    }

    /**
     * A row the host's CPU paces, where the sides' hosts worked {@code apart} (a fraction) apart: its floor widened by
     * {@link #hostSlope} times that on the log scale, and the source says why.
     */
    static Row widenedByHost(Row row, double apart) {
        double slope = hostSlope(row.candidate().key());
        double widened = Math.exp(Math.log1p(Double.isNaN(row.floor().fraction()) ? 0 : row.floor().fraction())
                + slope * Math.abs(Math.log1p(apart))) - 1;
        NoiseFloors.Floor f = row.floor();
        return new Row(row.baseline(), row.candidate(), row.baselineRuns(), row.candidateRuns(), row.baselineValue(),
                row.candidateValue(), row.ratio(), row.interval(), row.p(), row.smallestP(), row.q(),
                new NoiseFloors.Floor(widened, f.source() + String.format(Locale.ROOT, "; widened by the host: the "
                        + "candidate's host worked %.0f%% %s than the baseline's (JVM starts and exits, phases.json) and "
                        + "this row moves up to %s times as much with it (docs/compare.md, \"Rounds\")",
                        Math.abs(apart) * 100, apart > 0 ? "longer" : "shorter", Numbers.plain(slope)), f.byRounds(),
                        f.withMoreRuns()), row.verdict(), row.why(), row.cause());
    }

    /**
     * One measurement: its rows (one, or the lanes of a bidirectional copy, or a collective's alg and bus).
     *
     * @param rows the rows, the one that decided the verdict first
     * @param verdict the worst verdict of the rows
     */
    public record Group(List<Row> rows, Verdict verdict) {
        /** The row that decided the verdict. */
        public Row headline() {
            return rows.get(0);
        }
    }

    /**
     * A whole comparison.
     *
     * @param baselines the baseline's runs
     * @param candidates the candidate's runs
     * @param matching how results were matched
     * @param note a line about the matching
     * @param thresholdPct changes within this many percent are "same"
     * @param noise where the noise floors come from, one line
     * @param groups every measurement, worse first (largest adverse change first), then better, same, cannot judge
     * @param baselineOnly keys only the baseline has
     * @param candidateOnly keys only the candidate has
     */
    public record Result(List<ResultData> baselines, List<ResultData> candidates, Matching matching, String note,
                         double thresholdPct, String noise, List<Group> groups, int baselineOnly, int candidateOnly) {
        /** Measurements with a given verdict. */
        public long count(Verdict v) {
            return groups.stream().filter(g -> g.verdict() == v).count();
        }

        /** Measurements that cannot be judged because their noise floor is wider than the threshold. */
        public long widerFloors() {
            return unjudged(Unjudged.WIDER_FLOOR);
        }

        /**
         * Of the measurements whose floor is wider than the threshold, those whose deciding row's floor with
         * {@link #MORE_RUNS} more baseline runs like these is estimated within it (only rows judged by their rounds
         * have the estimate).
         */
        public long judgedWithMoreRuns() {
            return groups.stream().filter(g -> g.verdict() == Verdict.UNJUDGED && g.headline().cause()
                    == Unjudged.WIDER_FLOOR && g.headline().floor().withMoreRuns() * 100 <= thresholdPct).count();
        }

        /** Whether any measurement is judged by its rounds. */
        public boolean inRounds() {
            return groups.stream().anyMatch(g -> g.headline().floor() != null && g.headline().floor().byRounds());
        }

        /** Measurements not judged for {@code cause} (their deciding row's). */
        public long unjudged(Unjudged cause) {
            return groups.stream().filter(g -> g.verdict() == Verdict.UNJUDGED && g.headline().cause() == cause)
                    .count();
        }

        /** Every row of every measurement. */
        public List<Row> rows() {
            return groups.stream().flatMap(g -> g.rows().stream()).toList();
        }

        /** The baseline as people read it: one label, or the first label and how many runs. */
        public String baselineLabel() {
            return label(baselines);
        }

        /** The candidate as people read it. */
        public String candidateLabel() {
            return label(candidates);
        }

        private static String label(List<ResultData> runs) {
            return runs.size() == 1 ? runs.get(0).label() : runs.size() + " runs: " + String.join(", ",
                    runs.stream().map(ResultData::label).toList());
        }
    }

    /** Compares one candidate run with one baseline run, with the default noise floors. */
    public static Result compare(ResultData baseline, ResultData candidate, double thresholdPct)
            throws BadInputException {
        return compare(List.of(baseline), List.of(candidate), thresholdPct, NoiseFloors.defaults());
    }

    /**
     * Compares candidate runs with baseline runs; {@code defaults} are the floors used when the
     * baseline has fewer than two runs. A {@link BadInputException} when nothing matches or a side
     * mixes machines.
     */
    public static Result compare(List<ResultData> baselines, List<ResultData> candidates, double thresholdPct,
                                 NoiseFloors defaults) throws BadInputException {
        requireOneMachine(baselines, "baseline");
        requireOneMachine(candidates, "candidate");
        ResultData baseline = baselines.get(0);
        ResultData candidate = candidates.get(0);
        boolean imported = !baseline.isRun() || !candidate.isRun();
        Matching matching = imported || baseline.machine().equals(candidate.machine()) ? Matching.SAME_MACHINE
                : Matching.ACROSS_MACHINES;
        List<Map<String, Measurement>> base = baselines.stream().map(r -> index(r.measurements(), matching)).toList();
        List<Map<String, Measurement>> cand = candidates.stream().map(r -> index(r.measurements(), matching)).toList();
        Set<String> baseKeys = keys(base);
        Set<String> candKeys = keys(cand);

        boolean tableFits = defaults.machine().equals(baseline.machine()) || !baseline.isRun();
        String table = "default table '" + defaults.name() + "' (learned on " + defaults.machine() + " reruns"
                + (tableFits ? ")" : "; WARNING: not this machine, " + baseline.machine() + ")");
        NoiseFloors floors = baselines.size() < 2 ? defaults
                : defaults.pooledWith(NoiseFloors.learn("baseline", baselines), "the " + table + " with the baseline's "
                        + baselines.size() * (baselines.size() - 1) / 2 + " run pair(s)");
        boolean across = matching == Matching.ACROSS_MACHINES;
        String noise = across ? "none: " + OTHER_MACHINE : baselines.size() < 2 ? table
                : "the " + table + " pooled with the baseline's own " + baselines.size() + " runs";

        List<Row> rows = new ArrayList<>();
        List<String> rowKeys = new ArrayList<>();
        boolean inRounds = false;
        boolean byTable = false;
        RunDrift drift = across ? RunDrift.NONE : RunDrift.of(baseline.machine(), baselines);
        RoundRows.Hosts hosts = RoundRows.Hosts.of(baselines, candidates);
        // Across hosts of one kind, rows in rounds are not judged: a drift between hosts learned from nine H100 hosts
        // still raised 34 false alarms in 68 comparisons of the tenth (docs/compare.md, "Other hosts of one kind").
        boolean hostsUnknown = hosts.differ() && !(Settings.current().compareAcrossHosts() && drift.knowsHosts());
        for (String key : candKeys) {
            if (!baseKeys.contains(key)) {
                continue;
            }
            Measurement b = first(base, key);
            Measurement c = first(cand, key);
            Row inRoundsRow = across ? null : RoundRows.measure(base, cand, key, b, c, drift, hosts);
            // Where a side measured the row in rounds, the rounds are the evidence of its noise, not the table.
            if (inRoundsRow != null) {
                rows.add(inRoundsRow);
                inRounds = true;
            } else {
                Row row = measure(b, c, figures(base, key), figures(cand, key), across
                        ? new NoiseFloors.Floor(Double.NaN, OTHER_MACHINE) : floors.floorOf(b.key()));
                rows.add(row);
                byTable |= !row.noRatio(); // a row without a ratio is judged by nothing
            }
            rowKeys.add(key);
        }
        if (inRounds) {
            noise = "the spread of each measurement's rounds (" + RoundRows.rounds(baselines) + " vs "
                    + RoundRows.rounds(candidates)
                    + " rounds; Student t on log figures, pooled spread) and the drift between runs from "
                    + (drift.known() ? drift.source() : "nothing (none known for this machine: give a baseline of "
                    + "2 runs or more)") + (!hosts.differ() ? "" : hostsUnknown ? "; " + OTHER_HOSTS
                    : "; the two sides ran on other GPUs of this kind (GPU UUIDs differ): the drift between hosts "
                    + "too") + (byTable ? " where measured in rounds, else the " + noise : "");
        }
        if (rows.isEmpty()) {
            throw new BadInputException(NothingInCommon.why(baseline, candidate, matching));
        }
        // Where the sides' hosts worked apart, the rows the host paces move with it: their floors widen by what it can
        // move them, and they are corrected as a family of their own, so that their moves do not loosen the others'.
        double apart = across ? Double.NaN : hostApart(baselines, candidates);
        boolean hostDiffers = Math.abs(Math.log1p(apart)) > Math.log1p(HOST_APART);
        boolean[] byHost = new boolean[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            byHost[i] = hostDiffers && hostCpuPaced(rows.get(i).candidate().key());
            if (byHost[i]) {
                rows.set(i, widenedByHost(rows.get(i), apart));
            }
        }
        double[] q = new double[rows.size()];
        int[] hypothesis = hypotheses(rows);
        for (boolean family : new boolean[] {false, true}) {
            double[] p = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                p[i] = byHost[i] != family || hypothesis[i] != i || rows.get(i).cause() == Unjudged.DISTURBED
                        ? Double.NaN : rows.get(i).p();
            }
            double[] adjusted = ExactTests.benjaminiHochberg(p);
            for (int i = 0; i < rows.size(); i++) {
                if (byHost[i] == family) {
                    q[i] = adjusted[hypothesis[i]];
                }
            }
        }
        List<Row> judged = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            Row verdict = across ? row.unjudged(Unjudged.OTHER_MACHINE, OTHER_MACHINE)
                    : row.baseline().hostPaced() || row.candidate().hostPaced() ? row.unjudged(Unjudged.HOST_PACED,
                    HOST_PACED)
                    : hostsUnknown && RoundRows.judgedByRounds(row.floor()) ? row.unjudged(Unjudged.OTHER_HOSTS,
                    OTHER_HOSTS) : row.cause() == Unjudged.DISTURBED ? row : judge(row, q[i], thresholdPct);
            judged.add(byHost[i] && verdict.cause() == Unjudged.WIDER_FLOOR
                    ? verdict.unjudged(Unjudged.HOST_CPU, verdict.why() + "; the floor is widened by the host (rerun)")
                    : verdict);
        }
        List<Group> groups = group(judged);
        int baselineOnly = (int) baseKeys.stream().filter(k -> !candKeys.contains(k)).count();
        int candidateOnly = (int) candKeys.stream().filter(k -> !baseKeys.contains(k)).count();
        return new Result(List.copyOf(baselines), List.copyOf(candidates), matching,
                note(baseline, candidate, matching), thresholdPct, noise, groups, baselineOnly, candidateOnly);
    }

    /** The run-level figure of one run's measurement: the median over batches (latency: p50), R-7. */
    public static double runFigure(Measurement m) {
        return Statistics.percentile(m.samples(), 50);
    }

    /** Figures, ratio, interval and exact test of one row; the verdict comes later, after the correction. */
    static Row measure(Measurement b, Measurement c, double[] bRuns, double[] cRuns, NoiseFloors.Floor floor) {
        double bv = Statistics.percentile(bRuns, 50);
        double cv = Statistics.percentile(cRuns, 50);
        double ratio = cv / bv;
        ExactTests.Interval interval = new ExactTests.Interval(Double.NaN, Double.NaN, Double.NaN);
        boolean positive = DoubleStream.concat(Arrays.stream(bRuns),
                Arrays.stream(cRuns)).allMatch(v -> v > 0);
        if (positive) {
            ExactTests.Interval log = ExactTests.shiftInterval(logs(bRuns), logs(cRuns), LEVEL);
            interval = log.exists() ? new ExactTests.Interval(Math.exp(log.low()), Math.exp(log.high()),
                    log.coverage(), log.atLeast()) : log;
        }
        double smallest = ExactTests.smallestP(bRuns, cRuns);
        double p = smallest < ALPHA ? ExactTests.mannWhitneyP(bRuns, cRuns) : Double.NaN;
        return new Row(b, c, bRuns, cRuns, bv, cv, ratio, interval, p, smallest, Double.NaN, floor, Verdict.SAME, "");
    }

    /** The verdict of one row: direction, threshold, noise floor and (where there is one) the corrected test. */
    static Row judge(Row r, double q, double thresholdPct) {
        boolean bigger = r.candidate().key().biggerIsBetter();
        double changePct = Math.abs(r.ratio() - 1) * 100;
        // A change is measured against the larger of ratio and its inverse, so that -7% and +7.5% are one size.
        double sizePct = (Math.max(r.ratio(), 1 / r.ratio()) - 1) * 100;
        double floorPct = Double.isNaN(r.floor().fraction()) ? 0 : r.floor().fraction() * 100;
        boolean good = bigger ? r.ratio() > 1 : r.ratio() < 1;
        boolean rounds = RoundRows.judgedByRounds(r.floor());
        String test = rounds ? "Student t over rounds p = " + significant(r.p()) + ", BH q = " + significant(q)
                : Double.isNaN(r.p())
                ? String.format(Locale.ROOT, "no test: n too small (%d vs %d runs, smallest attainable p = %s)",
                        r.baselineRuns().length, r.candidateRuns().length, significant(r.smallestP()))
                : "exact Mann-Whitney p = " + significant(r.p()) + ", BH q = " + significant(q);
        Verdict verdict = Verdict.SAME;
        Unjudged cause = null;
        String why;
        if (r.noRatio()) {
            cause = Unjudged.NO_RATIO;
            why = "no ratio (a figure is not positive)";
        } else if (sizePct <= floorPct && floorPct > thresholdPct) {
            cause = Unjudged.WIDER_FLOOR;
            why = String.format(Locale.ROOT, "cannot judge at ±%s%%: within the noise floor %.1f%%, which is wider "
                    + "(the figures are %.1f%% apart)", Numbers.plain(thresholdPct), floorPct, sizePct)
                    + (Double.isNaN(r.floor().withMoreRuns()) ? "" : String.format(Locale.ROOT, "; with %d more "
                    + "baseline runs like these about %.1f%%", MORE_RUNS, r.floor().withMoreRuns() * 100));
        } else if (changePct <= thresholdPct) {
            // The floor is not wider than the threshold here, so within the threshold is within the noise too.
            why = "within ±" + Numbers.plain(thresholdPct) + "%";
        } else if (!Double.isNaN(r.p()) && !(q < ALPHA)) {
            // Beyond the threshold and the floor: not the same, and not told from the noise of this many rows.
            cause = Unjudged.NOT_SIGNIFICANT;
            why = String.format(Locale.ROOT, "cannot judge at ±%s%%: beyond it and the noise floor %.1f%% (the "
                    + "figures are %.1f%% apart) but not significant across the rows compared (%s)",
                    Numbers.plain(thresholdPct), floorPct, sizePct, test);
        } else {
            verdict = good ? Verdict.BETTER : Verdict.WORSE;
            why = String.format(Locale.ROOT, "beyond ±%s%% and the noise floor %.1f%% (the figures are %.1f%% "
                    + "apart); %s", Numbers.plain(thresholdPct), floorPct, sizePct, test);
        }
        return new Row(r.baseline(), r.candidate(), r.baselineRuns(), r.candidateRuns(), r.baselineValue(),
                r.candidateValue(), r.ratio(), r.interval(), r.p(), r.smallestP(), q, r.floor(),
                cause != null ? Verdict.UNJUDGED : verdict, why, cause);
    }

    /** Why a row of two different machines has no verdict. */
    public static final String OTHER_MACHINE = "different machines: a ratio, not judged (noise floors are per machine)";

    /**
     * Why a row measured in rounds is not judged when the two sides ran on other physical GPUs of one kind and the
     * machine's drift between hosts is unknown: hosts of one fingerprint differ by more than runs of one host (on the
     * H100 node up to 40% on the ring and pageable rows), so the drift within a host would raise false alarms.
     */
    public static final String OTHER_HOSTS = "ran on other GPUs of this kind (GPU UUIDs differ): not judged, hosts of "
            + "one kind differ by more than runs of one host and by more than a drift between hosts learned from nine "
            + "of them (docs/compare.md, \"Other hosts of one kind\"); compare runs of one host";

    /** Why a row whose collective was enqueued ungated on either side is not judged. */
    public static final String HOST_PACED = "enqueued ungated (a build before 2026-12-06 13:10Z): the figure followed the "
            + "host's enqueue rate, not the device (docs/notes/collectives-as-graphs.md); not judged";

    /** Why a lane of a bidirectional copy does not decide its measurement's verdict. */
    static final String LANE_NOT_JUDGED = "a lane of a bidirectional copy: shown, not judged (how the directions "
            + "share the window moves between runs; the sum over the common window decides)";

    /** Three significant digits, without trailing zeros: 0.1, 0.0286. */
    static String significant(double v) {
        return new BigDecimal(String.format(Locale.ROOT, "%.3g", v)).stripTrailingZeros().toPlainString();
    }

    /**
     * The Benjamini-Hochberg family holds one hypothesis per measurement, the one its verdict is decided on: per row,
     * the index of the row whose p stands for its measurement. A bidirectional copy is decided by its sum (its lanes are
     * shown, not judged), and a collective's alg and bus figures are one figure in two units (the same ratio and p);
     * counted apart, one change would be tested two or three times and the family of the quick preset would hold about
     * 100 hypotheses for its 72 measurements, making every threshold of the correction stricter than the measurements
     * warrant. The row standing for a measurement: among its sums (or, without one, all its rows) the one with the
     * smallest p, rounds not disagreeing ({@link Unjudged#DISTURBED} rows are out of the family); a measurement
     * without such a row keeps each row to itself.
     */
    static int[] hypotheses(List<Row> rows) {
        int[] out = new int[rows.size()];
        Map<Whole, Integer> best = new LinkedHashMap<>();
        Set<Whole> withSum = new LinkedHashSet<>();
        for (Row r : rows) {
            if (isSum(r.candidate().key())) {
                withSum.add(measurementOf(r.candidate().key()));
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            Measurement.Key k = rows.get(i).candidate().key();
            Whole w = measurementOf(k);
            double p = rows.get(i).p();
            if (Double.isNaN(p) || rows.get(i).cause() == Unjudged.DISTURBED || withSum.contains(w) && !isSum(k)) {
                continue;
            }
            Integer at = best.get(w);
            if (at == null || p < rows.get(at).p()) {
                best.put(w, i);
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            out[i] = best.getOrDefault(measurementOf(rows.get(i).candidate().key()), i);
        }
        return out;
    }

    /**
     * Rows of one measurement together (lanes; alg and bus), one verdict each: a bidirectional copy's
     * sum first, deciding; otherwise worst first.
     */
    static List<Group> group(List<Row> rows) {
        Map<Whole, List<Row>> byMeasurement = new LinkedHashMap<>();
        for (Row r : rows) {
            byMeasurement.computeIfAbsent(measurementOf(r.candidate().key()), k -> new ArrayList<>()).add(r);
        }
        Comparator<Row> worstFirst = Comparator.comparingInt((Row r) -> r.verdict().ordinal())
                .thenComparing(Comparator.comparingDouble(Row::adversePct).reversed());
        List<Group> groups = new ArrayList<>();
        for (List<Row> members : byMeasurement.values()) {
            List<Row> sorted = new ArrayList<>();
            Row sum = members.size() > 1 ? members.stream().filter(r -> isSum(r.candidate().key())).findFirst()
                    .orElse(null) : null;
            if (sum != null) {
                sorted.add(sum);
                members.stream().filter(r -> r != sum).sorted(Comparator.comparingDouble(Row::adversePct).reversed())
                        .forEach(r -> sorted.add(r.unjudged(Unjudged.LANE, LANE_NOT_JUDGED)));
            } else {
                sorted.addAll(members);
                sorted.sort(worstFirst);
            }
            groups.add(new Group(List.copyOf(sorted), sorted.get(0).verdict()));
        }
        groups.sort(Comparator.comparing(Group::headline, worstFirst));
        return List.copyOf(groups);
    }

    /** Whether a row is the both-ways figure of a bidirectional copy. */
    static boolean isSum(Measurement.Key k) {
        return k.lane().isSum();
    }

    /**
     * What a row is a part of: a bidirectional copy (every lane, its pair in either order), a collective
     * (alg and bus), else itself ({@code lanes} is then the row's lane).
     */
    record Whole(String metric, String kind, String path, String lanes, Endpoints ends, long sizeBytes) {}

    /** What a row is a part of: a bidirectional copy (every lane), a collective (alg and bus), else itself. */
    static Whole measurementOf(Measurement.Key k) {
        Lane lane = k.lane();
        Endpoints ends = lane.isBidirectional() && k.ends() instanceof Endpoints.Pair p ? p.unordered() : k.ends();
        String lanes = lane.isBidirectional() ? "bidirectional" : lane.isBusOrAlg() ? "alg/bus" : lane.label();
        return new Whole(k.metric(), k.kind(), k.path(), lanes, ends, k.sizeBytes());
    }

    private static double[] logs(double[] x) {
        return Arrays.stream(x).map(Math::log).toArray();
    }

    private static Set<String> keys(List<Map<String, Measurement>> runs) {
        Set<String> keys = new LinkedHashSet<>();
        runs.forEach(r -> keys.addAll(r.keySet()));
        return keys;
    }

    private static Measurement first(List<Map<String, Measurement>> runs, String key) {
        return runs.stream().map(r -> r.get(key)).filter(Objects::nonNull).findFirst().orElseThrow();
    }

    private static double[] figures(List<Map<String, Measurement>> runs, String key) {
        return runs.stream().map(r -> r.get(key)).filter(Objects::nonNull)
                .mapToDouble(Comparison::runFigure).toArray();
    }

    static void requireOneMachine(List<ResultData> runs, String side) throws BadInputException {
        if (runs.isEmpty()) {
            throw new BadInputException("no " + side + " given");
        }
        Set<String> machines = new LinkedHashSet<>();
        runs.forEach(r -> machines.add(r.machine()));
        if (machines.size() > 1) {
            throw new BadInputException("the " + side + " runs come from different machines (" + String.join(", ",
                    machines) + "); several runs of one side must be of one machine: "
                    + String.join(", ", runs.stream().map(r -> r.source().toString()).toList()));
        }
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
        Measurement.Key key = k.withEnds(new Endpoints.Pooled(list.size()));
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
        boolean sameGpus = run.isRun() && run.gpuDescription().equals(imported.listedGpus());
        return "`" + imported.label() + "` (" + imported.origin() + ") is assumed to come from " + run.machine()
                + (sameGpus ? " (it lists the same GPUs)." : "; WARNING: it lists other GPUs (" + imported.machine()
                + "), so pairs may not be the same hardware.");
    }
}
