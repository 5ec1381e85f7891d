package io.p2pbench.run;

import io.p2pbench.partition.Phase;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which planned combinations share one benchmark JVM. A fork measures one curve: runnable
 * combinations of the same benchmark method whose specs differ only along their curve
 * ({@link WorkloadSpec#curve()}: size, GPU pair, element type, phase, graph or eager) and that bind to the same NUMA node, at most
 * {@link #MAX_PER_FORK} of them. Each still has its own JMH trial: its own buffers, fills, poison and
 * checks, samples, result file and log; only the JVM, the JIT's compiled code and the CUDA contexts
 * carry over. The first combination of a fork warms up with the preset's timing, later ones with
 * {@link #warm(Preset.Timing)}: the JIT and the GPU's clocks are already warm, the new buffers were
 * touched by their fills.
 *
 * <p>{@link Mode#GROUPED} is the default; {@link Mode#PER_BENCHMARK} ({@code
 * --fork-per-benchmark}) keeps one JVM per combination. A shared JVM alone is not isolation: on the H200
 * node a device-local 0-&gt;0 copy of 1 MiB measured 283-302 GB/s when it followed another size in the
 * same JVM and 473-511 GB/s alone, because the later combination's new streams landed on other hardware
 * queues. The group JVM therefore hands every combination the first one's streams and NCCL communicators
 * ({@link ForkGroupMain.Contexts}); with them the grouped and per-benchmark runs compare SAME on every
 * row (docs/notes/run-overhead.md).
 */
public final class ForkGroups {
    /** Most combinations one fork of a curve measures: what a crash can cost is then re-run in a fresh fork anyway. */
    public static final int MAX_PER_FORK = 32;
    /**
     * Most combinations one shared JVM of a round measures ({@link Mode#SHARED}). A crash costs the running
     * combination only (the executor starts a new JVM for the rest), so the cap only bounds a JVM's life. At 32 the
     * quick preset's 72 combinations of a round on one GPU (one NUMA node) took three JVMs, and each later one paid
     * a JVM start and a CUDA context again, the third an NCCL communicator too: on the H100 node (set L, 2026-12-06)
     * the reduce-scatter that opened the third took 5.3 s over 4 rounds, the all-gather before it 0.6 s.
     */
    public static final int MAX_PER_SHARED_FORK = 128;
    /** Warm-up of a later combination in a fork before grouping kept streams: one iteration of at most this many milliseconds. */
    public static final int WARM_WARMUP_MILLIS_BEFORE = 100;
    /**
     * Warm-up of a later combination in a fork: one iteration of at most this many milliseconds (with 30 and with
     * 100 ms the standard-timing subset compared SAME on 79 of 79 rows on the H200 node, docs/notes/run-overhead.md);
     * the manifest records it as {@code settings.groupWarmupMillis}.
     */
    public static final int WARM_WARMUP_MILLIS = 30;

    /** How combinations are spread over JVMs. */
    public enum Mode {
        /**
         * One JVM per round for every transfer, collective and exchange of one NUMA node, up to {@link
         * #MAX_PER_SHARED_FORK} of them (the default); partition and serving combinations one JVM per curve, as
         * {@link #GROUPED} (the partition decode steps' and requests' rounds after the first: one JVM, {@link
         * #laterRoundKey}). Each round of a run ({@link Round}) starts its JVMs afresh.
         */
        SHARED,
        /** One JVM per curve ({@code --fork-groups}). */
        GROUPED,
        /** One JVM per combination ({@code --fork-per-benchmark}). */
        PER_BENCHMARK;

        /** The manifest's words for it. */
        public String describe() {
            return this == SHARED ? "shared: one JVM per round for every transfer, collective and exchange (up to "
                    + MAX_PER_SHARED_FORK + " combinations), partition and serving one JVM per curve (the partition "
                    + "decode steps' and requests' later rounds one JVM); each combination its own trial on the first "
                    + "one's CUDA streams and NCCL communicators"
                    : this == GROUPED ? "grouped: one JVM per curve (up to " + MAX_PER_FORK + " combinations of one "
                    + "benchmark differing in size, pair, dtype, phase or graph; the partition decode steps' and "
                    + "requests' later rounds one JVM), each with its own trial"
                    + switch (ForkGroupMain.Contexts.current()) {
                        case REUSE_STREAMS -> " on the first one's CUDA streams and NCCL communicators (contexts reset "
                                + "before partition combinations)";
                        case RESET -> " in a fresh CUDA context";
                        case KEEP -> " (CUDA contexts not reset between them)";
                    }
                    : "per benchmark: one JVM per combination";
        }
    }

    private ForkGroups() {}

    /**
     * The runnable combinations of {@code plan} (indices into it) in forks: the curves in the order their
     * first combination is planned, each in plan order, cut into forks of at most {@link #MAX_PER_FORK} ({@link
     * #MAX_PER_SHARED_FORK} for a shared JVM).
     *
     * @param numaNode a combination's NUMA binding, or null
     */
    public static List<List<Integer>> of(List<Combination> plan, Mode mode, Function<Combination, Integer> numaNode) {
        return of(plan, mode, numaNode, c -> true);
    }

    /**
     * The forks of one round: the combinations it measures ({@link Round#measures}; a round that measures only the
     * rows of {@link #drawsContextLevel} packs them into as few JVMs as their forks allow). After the first round the
     * partition study's decode steps and requests of one NUMA node share one JVM ({@link #laterRoundKey}).
     */
    static List<List<Integer>> of(List<Combination> plan, Mode mode, Function<Combination, Integer> numaNode,
                                  Round round) {
        return of(plan, mode, numaNode, round::measures, c -> round.index() > 0 && partitionDecode(c)
                ? laterRoundKey(numaNode.apply(c)) : key(c, numaNode.apply(c), mode));
    }

    /**
     * The fork identity of a partition decode step or request after the first round: one JVM for all of them on a NUMA
     * node, each still its own trial in a CUDA context reset before it ({@link
     * ForkGroupMain.Contexts#resetsBefore}). In a JVM of one curve, the first decode step of a later round was the
     * JVM's first benchmark after a warm-up of 100 ms, and on one H100 host (2026-12-07) 6 of 12 such rounds of the
     * TP eager steps were 5-15% slower than the first round, which came third in its JVM (never slower in 6); in one
     * JVM only the first opens it, and it warms up for {@link #OPENING_WARMUP_MILLIS}. It also spares a JVM start per
     * curve and round.
     */
    static String laterRoundKey(Integer numaNode) {
        return "partition-decode|" + Objects.toString(numaNode);
    }

    /**
     * Warm-up of the partition decode step or request that opens a JVM of a later round: at least this many
     * milliseconds in all, about what the JVM of the first round had run of the same code before its decode steps.
     */
    public static final int OPENING_WARMUP_MILLIS = 1000;

    /**
     * The warm-up of a combination that opens a JVM of a later round of partition decode steps: the preset's where
     * it lasts {@link #OPENING_WARMUP_MILLIS} in all, else as many iterations made long enough for that.
     */
    public static Preset.Timing opening(Preset.Timing t) {
        int n = Math.max(1, t.warmupIterations());
        return (long) n * t.warmupMillis() >= OPENING_WARMUP_MILLIS ? t
                : new Preset.Timing(n, (OPENING_WARMUP_MILLIS + n - 1) / n, t.measurementMillis());
    }

    /**
     * The timing of the combination at position {@code k} (0-based) of a JVM of {@code round}: the first warms the
     * JVM up with {@code full}'s warm-up, or {@link #opening} where it opens a later round of partition decode steps;
     * later ones find the JIT and the GPU warm ({@link #warm}). A JVM of one combination ({@link Mode#PER_BENCHMARK})
     * is the first of its JVM in every round, so its rounds are measured alike and keep {@code full}.
     */
    static Preset.Timing inJvm(Preset.Timing full, int k, Round round, Combination c) {
        return k > 0 ? warm(full) : round.index() > 0 && partitionDecode(c) ? opening(full) : full;
    }

    /** The forks of the combinations {@code measured} selects, by {@link #key(Combination, Integer, Mode)}. */
    static List<List<Integer>> of(List<Combination> plan, Mode mode, Function<Combination, Integer> numaNode,
                                  Predicate<Combination> measured) {
        return of(plan, mode, numaNode, measured, c -> key(c, numaNode.apply(c), mode));
    }

    private static List<List<Integer>> of(List<Combination> plan, Mode mode, Function<Combination, Integer> numaNode,
                                          Predicate<Combination> measured, Function<Combination, String> keyOf) {
        Map<String, List<Integer>> byKey = new LinkedHashMap<>();
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            Combination c = plan.get(i);
            if (c.plannedSkip() || !measured.test(c)) {
                continue;
            }
            if (mode == Mode.PER_BENCHMARK) {
                out.add(List.of(i));
            } else {
                byKey.computeIfAbsent(keyOf.apply(c), k -> new ArrayList<>()).add(i);
            }
        }
        for (Map.Entry<String, List<Integer>> e : byKey.entrySet()) {
            List<Integer> curve = e.getValue();
            int cap = e.getKey().startsWith(SHARED_KEY) ? MAX_PER_SHARED_FORK : MAX_PER_FORK;
            for (int from = 0; from < curve.size(); from += cap) {
                out.add(List.copyOf(curve.subList(from, Math.min(curve.size(), from + cap))));
            }
        }
        return out;
    }

    /** The fork identity of a combination: benchmark, NUMA node and its spec's curve. */
    static String key(Combination c, Integer numaNode) {
        return c.benchmark() + "|" + Objects.toString(numaNode) + "|" + WorkloadSpec.of(c).curve();
    }

    /**
     * The fork identity in {@code mode}: in {@link Mode#SHARED} every combination whose streams are all kept ones
     * ({@link ForkGroupMain.Contexts#ownStreamsOnly}) shares the JVM of its NUMA node; the rest go by curve.
     */
    static String key(Combination c, Integer numaNode, Mode mode) {
        return mode == Mode.SHARED && sharesJvm(c) ? SHARED_KEY + Objects.toString(numaNode) : key(c, numaNode);
    }

    /** How the fork identity of a shared JVM begins (a benchmark's class name never does). */
    private static final String SHARED_KEY = "shared|";

    /**
     * Whether a combination may share a JVM with combinations of other benchmarks, and is measured in the run's rounds
     * (the partition study's decode steps and requests are measured in rounds of their own, {@link
     * #PARTITION_DECODE_ROUNDS}).
     */
    public static boolean sharesJvm(Combination c) {
        return ForkGroupMain.Contexts.ownStreamsOnly(Kind.of(c.kind()));
    }

    /**
     * How many rounds a combination is measured in when the run has {@code runRounds}: a transfer, collective
     * or exchange in all of them times its {@link #roundFactor} (only when the run has two rounds or more); a decode
     * step or request of the partition study in {@link #PARTITION_DECODE_ROUNDS} (only when the run has two rounds or
     * more); its prefill steps and serving sweeps once (a serving sweep searches its own length).
     */
    public static int roundsOf(Combination c, int runRounds) {
        if (!sharesJvm(c)) {
            return runRounds > 1 && partitionDecode(c) ? PARTITION_DECODE_ROUNDS : 1;
        }
        return runRounds > 1 ? roundFactor(c) * runRounds : runRounds;
    }

    /**
     * Rounds of a decode step (eager or graph) and of a request latency of the partition study in a run of two rounds
     * or more: rounds 1 to 3 of the run, each in a JVM of its own, each measuring the preset's whole iteration time. An
     * eager decode step launches its kernels from the host one by one, so a host slow for a few seconds stretches it:
     * on one H100 host (2026-12-07) one run drew the TP host-staged eager decode step 23% slower than its rerun and 17
     * runs of seven hosts, and measured once, nothing in the run told that window from a change. The run's figure is
     * its fastest round ({@code PartitionVerdict.figures}), so a round in such a window does not move it
     * (docs/compare.md, "Partition and serving results"). A request (a prefill and 32 decode steps, 0.6-1.1 s) is one
     * operation of JMH's sample mode: the quick preset's iteration of 0.5 s holds one (two on the H200), so a run of
     * one round had one request, and the same run's TP P2P request was 4.8% above its rerun's. Prefill steps
     * (compute-bound, within 3.1% between runs) stay at one round.
     */
    public static final int PARTITION_DECODE_ROUNDS = 3;

    /**
     * Whether {@code c} is measured in the partition study's rounds: a step of its decode phase or a request latency
     * (a prefill, then decode steps; its spec's phase is the decode phase).
     */
    static boolean partitionDecode(Combination c) {
        return WorkloadSpec.of(c).partitionStudyRun().map(p -> p.phase() == Phase.DECODE).orElse(false);
    }

    /**
     * How many parts the preset's measurement time of {@code c} is shared out in: its rounds for a combination that
     * shares the round's JVM (a run measures as long as a run of one round did); 1 for the partition study's decode
     * steps and requests, each round of which measures the whole time (one iteration of a few decode steps or one
     * request; a third of it would hold a fraction of the steps it holds today).
     */
    public static int timeShares(Combination c, int runRounds) {
        return sharesJvm(c) ? roundsOf(c, runRounds) : 1;
    }

    /**
     * How many times the run's rounds a combination that shares the round's JVM is measured in: {@link
     * #DEVICE_COPY_LEVEL_FACTOR} for a device copy drawn at a level of the CUDA context, {@link #CONTEXT_LEVEL_FACTOR}
     * for the other rows {@link #drawsContextLevel} names and for peer copies staged through pinned host memory up to
     * {@link #CONTEXT_LEVEL_MAX_DEVICE_COPY} (their rounds 2-3.5% apart on the H100 node, their drift between runs
     * 0-2.3%), 1 for the rest. The later rounds measure these rows alone, cheaply: no NCCL, no ring, one context.
     */
    static int roundFactor(Combination c) {
        if (!Metric.BANDWIDTH.label().equals(c.metric())) {
            return 1;
        }
        WorkloadSpec spec = WorkloadSpec.of(c);
        boolean small = c.sizeBytes() <= CONTEXT_LEVEL_MAX_DEVICE_COPY;
        if (spec.peerRoute().map(r -> r.path().needsPeerAccess()).orElse(false) && small) {
            return DEVICE_COPY_LEVEL_FACTOR;
        }
        return drawsContextLevel(c) || (small && spec.peerRoute().isPresent()) ? CONTEXT_LEVEL_FACTOR : 1;
    }

    /** How many times the run's rounds a row drawn at a level of the CUDA context is measured in. */
    public static final int CONTEXT_LEVEL_FACTOR = 2;

    /**
     * The same for a device copy up to {@link #CONTEXT_LEVEL_MAX_DEVICE_COPY} through peer access: its rounds lie at
     * two or three levels 4-7% apart, 3.2-4.9% standard deviation on the H100 node, so 8 rounds against 8 gave a 95%
     * interval of 5.0-8.5% with one baseline run; 16 against 16 (eight more JVMs of these six rows of the quick preset on
     * one GPU, about 7 s a run) caught them as a lone x0.90 in 3-12 of 12 comparisons instead of 0-6 (docs/compare.md,
     * "Rounds").
     */
    public static final int DEVICE_COPY_LEVEL_FACTOR = 4;

    /** The largest {@link #roundFactor}: a run of {@code n} rounds goes through this many times {@code n}. */
    public static final int MAX_ROUND_FACTOR = DEVICE_COPY_LEVEL_FACTOR;

    /**
     * Whether a combination's figure is drawn at a level of the process (its CUDA context) it runs in: the
     * device-timed bandwidth of copies by the copy engines or SMs between GPU memory up to 16 MiB, and of copies
     * between pinned host memory and a GPU. On the H100 node a 1 MiB device copy runs at one of a few levels 4-7%
     * apart, drawn anew with every context (cuCtxCreate or a primary-context reset in one process: the same spread as
     * between processes), never with the buffers' placement; on one host a pinned host-to-device copy of 64 MiB ran
     * at 55 GB/s in some processes and 37-50 GB/s in others, whatever CPUs they were bound to
     * (docs/notes/copy-level-per-process.md). Each round draws one level, so these rows need more
     * rounds than the rest for a spread of the mean of one run; their rounds are cheap (no host staging, no NCCL).
     * Copies staged through host memory, pageable copies and latencies (host-observed, 10 us and more a transfer)
     * do not show it.
     */
    static boolean drawsContextLevel(Combination c) {
        if (!Metric.BANDWIDTH.label().equals(c.metric())) {
            return false;
        }
        WorkloadSpec spec = WorkloadSpec.of(c);
        return spec.peerRoute().map(r -> r.path().needsPeerAccess() && c.sizeBytes() <= CONTEXT_LEVEL_MAX_DEVICE_COPY)
                .orElse(false) || spec.hostBuffer().map(h -> h.memory() == HostMemory.PINNED).orElse(false);
    }

    /**
     * The largest device copy drawn at a context's level: above it the copy is bandwidth-bound and its rounds agree
     * within 0.2-0.4% (64 MiB on the H100 node).
     */
    static final long CONTEXT_LEVEL_MAX_DEVICE_COPY = 16 * Sizes.MIB;

    /** The warm-up of a combination that is not the first of its fork. */
    public static Preset.Timing warm(Preset.Timing t) {
        return warm(t, WARM_WARMUP_MILLIS);
    }

    /** The same with a warm-up iteration of at most {@code millis}. */
    public static Preset.Timing warm(Preset.Timing t, int millis) {
        return new Preset.Timing(Math.min(1, t.warmupIterations()), Math.min(t.warmupMillis(), millis),
                t.measurementMillis());
    }
}
