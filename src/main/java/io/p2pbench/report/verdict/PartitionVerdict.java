package io.p2pbench.report.verdict;

import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.report.chart.ChartData;
import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.chart.PartitionNames;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.JmhJson;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.RunEntry;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.spec.Metric;
import io.p2pbench.results.Outcome;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.SecondaryMetric;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.topology.LinkClass;
import io.p2pbench.topology.PairInfo;
import io.p2pbench.topology.Topology;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.DoubleStream;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * The report section "Does splitting pay?": per machine (fingerprint) one table, and per model,
 * phase and batch each partition plan against {@code SINGLE} of the same machine (same model, phase,
 * batch and eager/graph), for every transport (P2P on, off, host-staged). Figures of two machines are
 * never merged or compared; each machine gets its own charts, named after it when a report has more
 * than one. A plan is kept only if its tokens/s or its request latency improves on SINGLE's
 * by more than the noise floor, or if SINGLE does not fit one GPU; otherwise it is rejected.
 *
 * <p>Noise model: a run is the unit of evidence (as in {@code docs/compare.md}). The partition
 * figures have no learned floor in {@link NoiseFloors} (the partition reruns on H100 hosts set {@code compare}'s
 * floors, {@code PartitionComparison}: 4% between runs of one host), so the floors here are
 * per figure, stated and wider: {@link #TOKENS_FLOOR} for tokens/s and {@link #REQUEST_FLOOR} for requests,
 * raised to the spread seen between runs of either side when there are at least two runs. With one
 * run per side the floor is assumed, not measured, and the verdict says so ("n too small").
 *
 * <p>Communication-bound: exposed communication at least {@link #COMM_BOUND_SHARE} of the step.
 * When the exchanges still reach at least half the fastest peer bandwidth measured on the machine,
 * the links are not the problem: fewer crossings (PP's one boundary per stage instead of TP's two
 * all-reduces per layer) is what to try; otherwise a placement on the GPU pairs of the best link
 * class (named from the topology).
 *
 * <p>A group that repeats a GPU (0,0) runs every code path on one GPU: such rows are labelled
 * {@link #SINGLE_GPU} and the verdict says splitting cannot be judged on this machine.
 */
public final class PartitionVerdict {
    /** Floor of tokens/s changes, a fraction, until partition reruns measure one. */
    public static final double TOKENS_FLOOR = 0.10;
    /** Floor of p99 latency changes of a serving sweep, a fraction (a tail percentile moves more than a median). */
    public static final double P99_FLOOR = 0.20;
    /**
     * Floor of request latency changes, a fraction (as stated before reruns measured it: the partition study's request
     * figure was named a p99 while one request made it, so it kept the p99's floor).
     */
    public static final double REQUEST_FLOOR = 0.20;
    /** Exposed communication share of the step from which a plan counts as communication-bound. */
    public static final double COMM_BOUND_SHARE = 0.30;
    /** The label of rows measured over a group that repeats a GPU. */
    public static final String SINGLE_GPU = PartitionNames.SINGLE_GPU;

    private PartitionVerdict() {}

    /**
     * The figures of one configuration on one machine, one value per run.
     *
     * @param machine the machine's fingerprint ({@link ResultData#machine()}): figures of two machines are
     *     never merged nor compared
     * @param tokensPerSecond per run (step benchmark)
     * @param stepUs per run, the step's device time in microseconds (step benchmark; median over the iteration, of a
     *     decode step measured in rounds its fastest round's)
     * @param requestUs per run, the request latency (request benchmark; empty when it did not run): the p50 of
     *     its requests, of a request measured in rounds its fastest round's. A request takes 0.6-1.1 s on the H100 and
     *     the quick preset's iteration 0.5 s, so a round holds one request (two on the H200; standard timing one to
     *     three): too few for a tail percentile, which the serving study measures over 200 requests
     * @param commShare exposed communication / step time, median over runs (0 for SINGLE)
     * @param busGBps exchanges' bus bandwidth over their exposed time, decimal GB/s (0 without exchanges)
     * @param skipReason why it did not run (does not divide, does not fit), or null
     * @param skipCause the cause of that, as a type (what the verdict reads), or null
     * @param stepRounds per run, how many rounds its step figures were read from (the fastest of them taken: a decode
     *     step measured in rounds); empty where every run's come from one round
     * @param requestRounds the same for the request latency
     */
    public record Figure(String machine, String model, String phase, int batch, boolean graph, Plan plan, String transport,
                         String group, boolean singleGpu, List<Double> tokensPerSecond, List<Double> stepUs,
                         List<Double> requestUs, double commShare, double busGBps, String skipReason,
                         SkipCause skipCause, List<Integer> stepRounds, List<Integer> requestRounds) {
        /** A figure whose step and request figures each come from one round. */
        public Figure(String machine, String model, String phase, int batch, boolean graph, Plan plan, String transport,
                      String group, boolean singleGpu, List<Double> tokensPerSecond, List<Double> stepUs,
                      List<Double> requestUs, double commShare, double busGBps, String skipReason,
                      SkipCause skipCause) {
            this(machine, model, phase, batch, graph, plan, transport, group, singleGpu, tokensPerSecond, stepUs,
                    requestUs, commShare, busGBps, skipReason, skipCause, List.of(), List.of());
        }

        /** A figure whose skip, if any, has no more precise cause than {@link SkipCause#OTHER}. */
        public Figure(String machine, String model, String phase, int batch, boolean graph, Plan plan, String transport,
                      String group, boolean singleGpu, List<Double> tokensPerSecond, List<Double> stepUs,
                      List<Double> requestUs, double commShare, double busGBps, String skipReason) {
            this(machine, model, phase, batch, graph, plan, transport, group, singleGpu, tokensPerSecond, stepUs,
                    requestUs, commShare, busGBps, skipReason, skipReason == null ? null : SkipCause.OTHER);
        }

        /**
         * How many rounds each run's step figures were read from, as a set ({1} where every run's come from one round,
         * as before decode steps were measured in rounds).
         */
        public Set<Integer> stepRoundCounts() {
            return counts(stepRounds);
        }

        /** The same for the request latency. */
        public Set<Integer> requestRoundCounts() {
            return counts(requestRounds);
        }

        private static Set<Integer> counts(List<Integer> rounds) {
            return rounds.stream().allMatch(n -> n == 1) ? Set.of(1) : Set.copyOf(rounds);
        }

        /** The model, phase, batch and eager or graph, e.g. {@code DENSE_8B DECODE batch 8 graph}. */
        public String scenario() {
            return model + " " + phase + " batch " + batch + (graph ? " graph" : " eager");
        }

        /** The scenario on its machine: what a plan is judged against SINGLE within. */
        String machineScenario() {
            return machine + "|" + scenario();
        }
    }

    /**
     * What the verdict knows of one machine.
     *
     * @param description the machine as headings and subtitles name it ({@link ResultData#machineDescription()})
     * @param fastestPeerGBps the fastest peer copy measured on this machine, decimal GB/s (NaN if none)
     * @param bestPairs {@link #bestPairs} of this machine's topology (empty if unknown)
     */
    public record Machine(String description, double fastestPeerGBps, String bestPairs) {
        /** A machine known only by its fingerprint. */
        static Machine unknown(String fingerprint) {
            return new Machine(fingerprint, Double.NaN, "");
        }
    }

    /** The machines of {@code figures}, in order of first appearance. */
    public static List<String> machines(List<Figure> figures) {
        return figures.stream().map(Figure::machine).distinct().toList();
    }

    /** The figures of one machine. */
    static List<Figure> of(List<Figure> figures, String machine) {
        return figures.stream().filter(f -> f.machine().equals(machine)).toList();
    }

    /**
     * One plan judged against SINGLE.
     *
     * @param plan the plan's figures
     * @param single its scenario's SINGLE on the same machine, or null when there is none
     * @param verdict {@link Verdict#KEEP}, {@link Verdict#REJECT}, {@link Verdict#UNJUDGED} (a group that repeats a
     *     GPU), {@link Verdict#NOT_MEASURED} or {@link Verdict#NO_VERDICT}
     * @param why what decided it: the changes against their floors, the run counts, the communication-bound note
     */
    public record Row(Figure plan, Figure single, Verdict verdict, String why) {}

    /**
     * The verdicts of one machine.
     *
     * @param fingerprint the machine's fingerprint
     * @param machine what is known of it
     * @param rows every non-SINGLE figure of the machine judged against its scenario's SINGLE
     * @param oneGpu whether every measured multi-rank plan ran over a group that repeats a GPU, so that this machine
     *     cannot judge whether splitting pays
     */
    public record MachineVerdicts(String fingerprint, Machine machine, List<Row> rows, boolean oneGpu) {}

    /**
     * The verdicts of each machine of {@code figures}, in order of first appearance; a plan is only ever judged
     * against SINGLE of its own machine.
     *
     * @param machines per fingerprint what is known of the machine; a machine missing here is named by its fingerprint
     */
    public static List<MachineVerdicts> judgeByMachine(List<Figure> figures, Map<String, Machine> machines) {
        List<MachineVerdicts> out = new ArrayList<>();
        for (String name : machines(figures)) {
            Machine m = machines.getOrDefault(name, Machine.unknown(name));
            List<Figure> own = of(figures, name);
            boolean oneGpu = own.stream().filter(f -> f.plan() != Plan.SINGLE && f.skipReason() == null)
                    .allMatch(Figure::singleGpu);
            out.add(new MachineVerdicts(name, m, judge(own, m.fastestPeerGBps(), m.bestPairs()), oneGpu));
        }
        return out;
    }

    /** Keep or reject every non-SINGLE figure against its scenario's SINGLE on the same machine. */
    public static List<Row> judge(List<Figure> figures, double fastestPeerGBps, String bestPairs) {
        Map<String, Figure> singles = new LinkedHashMap<>();
        for (Figure f : figures) {
            if (f.plan() == Plan.SINGLE) {
                singles.put(f.machineScenario(), f);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Figure f : figures) {
            if (f.plan() == Plan.SINGLE) {
                continue;
            }
            Figure s = singles.get(f.machineScenario());
            rows.add(judge(f, s, fastestPeerGBps, bestPairs));
        }
        return rows;
    }

    static Row judge(Figure f, Figure s, double fastestPeerGBps, String bestPairs) {
        if (f.skipReason() != null) {
            return new Row(f, s, Verdict.NOT_MEASURED, f.skipReason());
        }
        if (s == null || (s.skipReason() == null && s.tokensPerSecond().isEmpty())) {
            return new Row(f, s, Verdict.NO_VERDICT, "SINGLE was not measured for " + f.scenario());
        }
        if (s.skipReason() != null && s.skipCause() == SkipCause.DOES_NOT_FIT) {
            return new Row(f, s, Verdict.KEEP, "SINGLE does not fit one GPU (" + s.skipReason()
                    + "): splitting is needed for capacity" + (f.singleGpu() ? "; " + SINGLE_GPU : ""));
        }
        if (s.skipReason() != null) {
            return new Row(f, s, Verdict.NO_VERDICT, "SINGLE did not run: " + s.skipReason());
        }
        List<String> why = new ArrayList<>();
        double tokens = median(f.tokensPerSecond()) / median(s.tokensPerSecond()) - 1;
        double tokensFloor = floor(TOKENS_FLOOR, f.tokensPerSecond(), s.tokensPerSecond());
        boolean better = tokens > tokensFloor;
        why.add(String.format(Locale.ROOT, "tokens/s %+.1f%% (floor %.0f%%)", 100 * tokens, 100 * tokensFloor));
        if (!f.requestUs().isEmpty() && !s.requestUs().isEmpty()) {
            double gain = median(s.requestUs()) / median(f.requestUs()) - 1; // > 0: the plan's request is shorter
            double requestFloor = floor(REQUEST_FLOOR, f.requestUs(), s.requestUs());
            better |= gain > requestFloor;
            why.add(String.format(Locale.ROOT, "request %+.1f%% (floor %.0f%%)",
                    100 * (median(f.requestUs()) / median(s.requestUs()) - 1), 100 * requestFloor));
        }
        int n = Math.min(runs(f), runs(s));
        if (n < 2) {
            why.add("n too small: " + n + " run per side, the floor is assumed, not measured");
        }
        if (f.commShare() >= COMM_BOUND_SHARE) {
            why.add(commBound(f, fastestPeerGBps, bestPairs));
        }
        if (f.singleGpu()) {
            return new Row(f, s, Verdict.UNJUDGED, SINGLE_GPU + "; " + String.join("; ", why));
        }
        return new Row(f, s, better ? Verdict.KEEP : Verdict.REJECT, String.join("; ", why));
    }

    private static String commBound(Figure f, double fastestPeerGBps, String bestPairs) {
        return commBound(f.commShare(), f.busGBps(), fastestPeerGBps, bestPairs);
    }

    /**
     * The communication-bound note and its two remedies (fewer crossings; a placement on the best-linked
     * pairs), ordered by whether the exchanges already run near the fastest peer copy measured.
     */
    static String commBound(double commShare, double busGBps, double fastestPeerGBps, String bestPairs) {
        String share = String.format(Locale.ROOT, "communication-bound: %.0f%% of the step is exposed communication",
                100 * commShare);
        boolean fast = Double.isFinite(fastestPeerGBps) && fastestPeerGBps > 0 && busGBps >= 0.5 * fastestPeerGBps;
        if (fast) {
            return share + String.format(Locale.ROOT, " although its copies are fast (%.0f GB/s bus, fastest peer copy "
                    + "measured %.0f GB/s): try fewer partition crossings (PP instead of TP)", busGBps, fastestPeerGBps)
                    + (bestPairs.isEmpty() ? "" : ", or the best-linked pairs " + bestPairs);
        }
        return share + String.format(Locale.ROOT, " (%.0f GB/s bus)", busGBps)
                + (bestPairs.isEmpty() ? ": try fewer partition crossings (PP instead of TP)"
                : ": try a placement on the best-linked pairs " + bestPairs + ", or fewer crossings (PP instead of TP)");
    }

    private static int runs(Figure f) {
        return f.tokensPerSecond().size();
    }

    /** The documented floor, raised to the largest max/min - 1 spread between runs of either side. */
    static double floor(double documented, List<Double> a, List<Double> b) {
        return Math.max(documented, Math.max(spread(a), spread(b)));
    }

    private static double spread(List<Double> v) {
        if (v.size() < 2) {
            return 0;
        }
        double min = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return min > 0 ? max / min - 1 : Double.POSITIVE_INFINITY;
    }

    public static double median(List<Double> v) {
        return Statistics.median(v);
    }

    /** The GPU pairs of the best (nearest) link class in {@code t}, e.g. {@code 0-1, 2-3 (NV18)}; empty on one GPU. */
    public static String bestPairs(Topology t) {
        LinkClass best = null;
        List<String> pairs = new ArrayList<>();
        for (PairInfo p : t.pairs()) {
            if (p.self() || p.src() >= p.dst() || p.link() == null) {
                continue;
            }
            int c = best == null ? -1 : p.link().compareTo(best);
            if (c < 0) {
                best = p.link();
                pairs.clear();
            }
            if (c <= 0) {
                pairs.add(p.src() + "-" + p.dst());
            }
        }
        return best == null ? "" : String.join(", ", pairs) + " (" + best + ")";
    }

    /** The series name of SINGLE, which has no exchanges and so no transport. */
    public static final String NO_EXCHANGES = PartitionNames.NO_EXCHANGES;

    /** What the file names of {@code machine}'s charts start with, as {@code Reporter} names the other charts. */
    public static String prefix(String machine, int machines) {
        return PartitionNames.prefix(machine, machines);
    }

    /** Writes the section's charts ({@link PartitionCharts#charts}) into {@code dir}; the files written, in order. */
    public static List<Charts.ChartFile> writeCharts(List<Figure> figures, Map<String, String> descriptions, Path dir)
            throws IOException {
        return PartitionCharts.writeCharts(figures, descriptions, dir);
    }

    /** Whether {@code c} is one of this section's charts. */
    public static boolean isChart(Charts.ChartFile c) {
        return PartitionCharts.isChart(c);
    }

    /** Whether {@code c} is one of this section's charts of {@code machine}, in a report over {@code machines} machines. */
    public static boolean isChartOf(Charts.ChartFile c, String machine, int machines) {
        return PartitionCharts.isChartOf(c, machine, machines);
    }

    /**
     * The partition figures of the runs: step benchmarks give tokens/s, exposed communication share
     * and bus bandwidth (JMH secondary metrics, median over the iteration); request benchmarks give the p50
     * of JMH's SampleTime histogram (Commons Math R-7, numpy's default): one or two requests a round at quick timing,
     * so not a tail figure (until 2026-12-07 it was named p99, of the same one or two requests). Runs of the same
     * configuration on the same machine (fingerprint) are merged, one value per run; runs of two machines
     * never are. Skipped plans keep their reason.
     *
     * <p>A decode step measured in rounds ({@code ForkGroups.PARTITION_DECODE_ROUNDS}) gives its run the figures of
     * its <em>fastest</em> round (shortest step time; tokens/s, communication share and bus bandwidth of that same
     * round). An eager decode step launches its kernels from the host one by one, and what slows the host only ever
     * lengthens it: on one H100 host (2026-12-07) a run drew it 23% slower than 17 runs of seven hosts, and on another
     * 6 of 12 rounds measured first in a fresh JVM were 5-15% slower than the round measured later in one, while the
     * three runs' fastest rounds lay within 1.2% of each other and their medians 6.4% (docs/compare.md, "Partition and
     * serving results"). A change of the build slows every round, and so the fastest. A request measured in rounds
     * gives its run its fastest round's p50 alike.
     */
    public static List<Figure> figures(List<ResultData> runs) throws BadInputException {
        Map<String, Builder> byKey = new LinkedHashMap<>();
        for (ResultData d : runs) {
            for (RunEntry e : d.entries()) {
                if (e.partitionRun().isEmpty()) {
                    continue;
                }
                PartitionRun p = e.partitionRun().get();
                boolean request = e.metric() == Metric.LATENCY;
                String phase = request ? Phase.DECODE.name() : p.phase().name();
                boolean graph = request || p.graph();
                String key = String.join("|", d.machine(), p.model().name(), phase, Integer.toString(p.batch()),
                        Boolean.toString(graph), p.plan().name(), p.transport().name());
                Builder b = byKey.computeIfAbsent(key, k -> new Builder(d.machine(), p.model().name(), phase,
                        p.batch(), graph, p.plan(), p.transport().name(), p.group().toString(), e.singleGpu()));
                if (e.outcome() == Outcome.SKIPPED && b.skip == null) {
                    b.skip = e.reason();
                    b.skipCause = e.cause();
                }
                if (!e.ok() || e.jmhFile() == null) {
                    continue;
                }
                if (request) {
                    // A request measured in rounds: the run's figure is its fastest round's p50.
                    double fastest = Double.POSITIVE_INFINITY;
                    List<Path> files = roundFiles(d, e);
                    for (Path file : files) {
                        fastest = Math.min(fastest, requestMicros(d, e, JmhJson.read(file)));
                    }
                    b.request.add(fastest);
                    b.requestRounds.add(files.size());
                } else {
                    // A decode step measured in rounds (ForkGroups.PARTITION_DECODE_ROUNDS): the run's figures are
                    // its fastest round's, each the median over that round's iteration.
                    double[] fastest = null;
                    List<Path> files = roundFiles(d, e);
                    for (Path file : files) {
                        double[] round = stepFigures(d, e, JmhJson.read(file));
                        if (fastest == null || round[0] < fastest[0]) {
                            fastest = round;
                        }
                    }
                    double comm = fastest[2];
                    double compute = fastest[3];
                    double wait = fastest[4];
                    b.step.add(fastest[0]);
                    b.tokens.add(fastest[1]);
                    b.commShare.add(comm / Math.max(1e-9, compute + comm + wait));
                    b.bus.add(fastest[5]);
                    b.stepRounds.add(files.size());
                    b.skip = null;
                }
            }
        }
        List<Figure> out = new ArrayList<>();
        for (Builder b : byKey.values()) {
            out.add(b.build());
        }
        return out;
    }

    /**
     * One round's request latency: the p50 of its requests' host-clock times, microseconds; checked. A round of
     * the quick preset holds one request (two on the H200).
     */
    private static double requestMicros(ResultData d, RunEntry e, JmhJson jmh) throws BadInputException {
        double[] h = jmh.histogramMicros();
        double p50 = h.length == 0 ? Double.NaN
                : new Percentile(50).withEstimationType(Percentile.EstimationType.R_7).evaluate(h);
        if (!(p50 > 0 && p50 < 1e12)) {
            throw new BadInputException(d.source() + ": " + e.id() + " has a request latency of " + p50 + " us over "
                    + h.length + " requests; expected above 0 and below 1e12 us, over one request or more");
        }
        return p50;
    }

    /** The JMH files of an ok step or request entry: each round's, or its one file when it was measured once. */
    private static List<Path> roundFiles(ResultData d, RunEntry e) throws BadInputException {
        if (e.rounds().size() <= 1) {
            return List.of(e.jmhFile());
        }
        List<Path> out = new ArrayList<>();
        for (RunEntry.Round r : e.rounds()) {
            if (r.outcome() != Outcome.OK || r.jmhFile() == null) {
                throw new BadInputException(d.source() + ": " + e.id() + " is ok but a round of it is "
                        + (r.outcome() == null ? "without a status" : r.outcome().text()) + " or names no JMH file");
            }
            out.add(r.jmhFile());
        }
        return out;
    }

    /**
     * One round's step figures, each the median over its iteration: step time, tokens/s, communication, compute and
     * wait time (µs), bus bandwidth (GB/s); checked.
     */
    private static double[] stepFigures(ResultData d, RunEntry e, JmhJson jmh) throws BadInputException {
        double step = median(jmh.secondary(SecondaryMetric.STEP_US));
        double tokens = median(jmh.secondary(SecondaryMetric.TOKENS_PER_SECOND));
        double comm = median(jmh.secondary(SecondaryMetric.COMM_US));
        double compute = median(jmh.secondary(SecondaryMetric.COMPUTE_US));
        double wait = median(jmh.secondary(SecondaryMetric.WAIT_US));
        double bus = median(jmh.secondary(SecondaryMetric.BUS_GBPS));
        if (!(step > 0 && tokens > 0 && step < 1e12 && tokens < 1e12) || !(bus >= 0 && bus <= Measurement.MAX_GBPS)
                || DoubleStream.of(comm, compute, wait).anyMatch(t -> !(t >= 0 && t < 1e12))) {
            throw new BadInputException(d.source() + ": " + e.id() + " has a step time of " + step + " us, "
                    + tokens + " tokens/s, compute, communication and wait of " + compute + ", " + comm + ", "
                    + wait + " us, " + bus + " GB/s; expected step and tokens/s above 0, times 0 to 1e12 us, "
                    + "0 to " + (long) Measurement.MAX_GBPS + " GB/s");
        }
        return new double[] {step, tokens, comm, compute, wait, bus};
    }

    private static double median(double[] v) {
        return median(Arrays.stream(v).boxed().toList());
    }

    private static final class Builder {
        final String machine;
        final String model;
        final String phase;
        final int batch;
        final boolean graph;
        final Plan plan;
        final String transport;
        final String group;
        final boolean singleGpu;
        final List<Double> tokens = new ArrayList<>();
        final List<Double> step = new ArrayList<>();
        final List<Double> request = new ArrayList<>();
        final List<Double> commShare = new ArrayList<>();
        final List<Double> bus = new ArrayList<>();
        final List<Integer> stepRounds = new ArrayList<>();
        final List<Integer> requestRounds = new ArrayList<>();
        String skip;
        SkipCause skipCause;

        Builder(String machine, String model, String phase, int batch, boolean graph, Plan plan, String transport,
                String group, boolean singleGpu) {
            this.machine = machine;
            this.model = model;
            this.phase = phase;
            this.batch = batch;
            this.graph = graph;
            this.plan = plan;
            this.transport = transport;
            this.group = group;
            this.singleGpu = singleGpu;
        }

        Figure build() {
            return new Figure(machine, model, phase, batch, graph, plan, transport, group, singleGpu, List.copyOf(tokens),
                    List.copyOf(step), List.copyOf(request), commShare.isEmpty() ? 0 : median(commShare),
                    bus.isEmpty() ? 0 : median(bus), tokens.isEmpty() && request.isEmpty() ? skip : null,
                    tokens.isEmpty() && request.isEmpty() ? skipCause : null, List.copyOf(stepRounds),
                    List.copyOf(requestRounds));
        }
    }
}
