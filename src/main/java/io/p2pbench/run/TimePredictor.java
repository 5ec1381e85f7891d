package io.p2pbench.run;

import io.p2pbench.collective.ResultCheck;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.Exchange;
import io.p2pbench.spec.HostCopy;
import io.p2pbench.spec.HostCopyBidirectional;
import io.p2pbench.spec.NcclOp;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.PeerCopy;
import io.p2pbench.spec.PeerCopyBidirectional;
import io.p2pbench.spec.Ring;
import io.p2pbench.spec.Serving;
import io.p2pbench.spec.WorkloadSpec;
import java.util.List;
import java.util.function.Function;

/**
 * Predicted wall seconds of one benchmark fork: the fork's fixed cost (runner start, JVM start,
 * CUDA context, exit), the preset's iterations, and what grows with size. Calibrated on the
 * committed runs of one H200 ({@code results/h200x1-single-r580}, manifest {@code seconds} less
 * the iterations) and on a single-core collective sweep whose {@code phases.json} split each fork into
 * phases (docs/notes/run-overhead.md names the runs and gives the figures):
 * <ul>
 *   <li>transfers: about 0.9 s per fork at every size for peer copies (fills run on the GPU);
 *       host-device rows grow with the size (host fills and checks of pinned and, slower,
 *       pageable buffers; twice the buffers in both directions);</li>
 *   <li>collectives: about 1.05 s per fork, 0.65 s more for NCCL's communicators, and the CPU
 *       reference check at the end of the trial, which grows with elements x ranks.</li>
 * </ul>
 * The check's constants are those of the check on every core (16 on the node) over at most 128 MiB
 * per output, fitted to the committed all-core collective sweep (101.5 s wall, teardown 33.1 s against
 * 57.0 s in the single-core sweep). Runs in rounds (shared JVMs) exist only from the H100 node: {@link
 * #WARM_SHARED_COMBINATION_SECONDS} and the H100's {@link PartitionRates} are fitted to them
 * (docs/notes/run-overhead.md, "Rounds on the H100 node").
 */
public final class TimePredictor {
    /** Fixed seconds of a transfer fork beyond its iterations (0.85 s median at small sizes; 0.9 centres the quick reruns). */
    public static final double TRANSFER_FORK_SECONDS = 0.9;
    /** Fixed seconds of a collective fork beyond its iterations (ring all-reduce at 1 MiB). */
    public static final double COLLECTIVE_FORK_SECONDS = 1.05;
    /** What a collective's own JVM costs beyond a transfer's (more modules, the ring's buffers). */
    static final double COLLECTIVE_EXTRA_SECONDS = COLLECTIVE_FORK_SECONDS - TRANSFER_FORK_SECONDS;
    /** NCCL's communicators, set up and destroyed in every fork. */
    public static final double NCCL_INIT_SECONDS = 0.65;
    /** Host-device rows: seconds per byte, pinned, one direction (host fill and check). */
    static final double PINNED_SECONDS_PER_BYTE = 0.8e-9;
    /** Host-device rows: seconds per byte, pageable, one direction. */
    static final double PAGEABLE_SECONDS_PER_BYTE = 2.2e-9;
    /** Host-device rows in both directions, pinned. */
    static final double PINNED_BIDIR_SECONDS_PER_BYTE = 2.0e-9;
    /** Host-device rows in both directions, pageable. */
    static final double PAGEABLE_BIDIR_SECONDS_PER_BYTE = 6.8e-9;
    /** CPU reference check, nanoseconds per checked element and rank, float32 (all cores; the all-core sweep). */
    static final double CHECK_NANOS_FLOAT32 = 3.0;
    /** CPU reference check, nanoseconds per checked element and rank, bfloat16 (all cores; the all-core sweep). */
    static final double CHECK_NANOS_BFLOAT16 = 6.0;

    /**
     * A later combination of a fork group ({@link ForkGroups}) in its already running JVM, on the streams the
     * first one made: the runner's start, allocation and fills, teardown and frees, without the JVM and CUDA
     * context start (two runs on the H200 node: launch, setup, checks, teardown and exit of the
     * later combinations 0.079 s on average in the standard-timing subset, 0.098 s in the quick preset;
     * pageable and collective rows add their size terms; docs/notes/run-overhead.md).
     */
    public static final double WARM_COMBINATION_SECONDS = 0.08;
    /**
     * A later combination of a JVM that a round's transfers and collectives share ({@link ForkGroups.Mode#SHARED},
     * the default since rounds): its setup, checks and teardown beside its warm-up and iterations, 0.01-0.04 s a round
     * (10th to 90th percentile, median 0.017 s) in the phases of the H100 node's quick runs, and what the model leaves
     * out; 0.03 s, fitted to the wall times, puts the predicted quick run (404 combination rounds, 2026-12-07)
     * within -5.0% to +5.0% of the wall time of 16 runs on four hosts, where {@link #WARM_COMBINATION_SECONDS}
     * predicted 1m30s for runs of 67-74 s. No H200 has run in rounds: the figure is the H100 node's.
     */
    public static final double WARM_SHARED_COMBINATION_SECONDS = 0.03;
    /**
     * The first combination of a fork group: the executor starts the group's JVM itself (no JMH runner
     * forking a second one), so JVM start, CUDA context and exit cost about 0.6 s beyond the warm-up and
     * iterations (H200 node: 0.60-0.63 s in the standard-timing subset, 0.73-0.86 s in the quick preset,
     * 0.94-0.98 s for the collectives' first combinations, which add their own terms; an earlier fit of 0.5 s
     * left a quick-preset run 17% under its wall time).
     */
    public static final double GROUPED_FORK_SECONDS = 0.6;
    /**
     * A later combination of a fork group that starts after a context reset (cudaDeviceReset, context
     * creation, module load from the kept image): H200 node, standard-timing subset grouped with a reset before every later combination: launch and setup of later combinations 0.18-0.22 s
     * against 0.02-0.05 s without a reset (the reset alone took 61-73 ms).
     */
    public static final double CONTEXT_RESET_SECONDS = 0.2;

    /**
     * What a run's prediction depends on beyond its plan: how its JVMs were shared, how much of a
     * collective's output the CPU cross-checked, and what a JVM per benchmark cost in that version.
     *
     * @param mode the fork mode
     * @param crossCheckFullBytes outputs up to this were cross-checked whole
     * @param crossCheckPieceBytes larger ones on four pieces of this
     * @param forkSeconds fixed seconds of a transfer benchmark's own JVM (per-benchmark mode; collectives
     *     add {@link #COLLECTIVE_EXTRA_SECONDS})
     * @param runStartSeconds the command's own start and end (topology, planning, manifest), once per run
     * @param contexts how the group JVMs kept combinations apart ({@link ForkGroupMain.Contexts#KEEP} in runs
     *     before context resets): a later combination that starts after a context reset adds {@link #CONTEXT_RESET_SECONDS}
     * @param groupWarmupMillis the warm-up iteration of a later combination of a fork group, at most
     * @param rounds the rounds of the run ({@link Round}; 1 in runs before rounds)
     * @param partition how the machine's GPUs run the partition study ({@link PartitionRates#of})
     */
    public record RunShape(ForkGroups.Mode mode, long crossCheckFullBytes, long crossCheckPieceBytes,
                           double forkSeconds, double runStartSeconds, ForkGroupMain.Contexts contexts,
                           int groupWarmupMillis, int rounds, PartitionRates partition) {
        /** A shape of a run of one round on the H200 node. */
        public RunShape(ForkGroups.Mode mode, long crossCheckFullBytes, long crossCheckPieceBytes,
                        double forkSeconds, double runStartSeconds, ForkGroupMain.Contexts contexts,
                        int groupWarmupMillis) {
            this(mode, crossCheckFullBytes, crossCheckPieceBytes, forkSeconds, runStartSeconds, contexts,
                    groupWarmupMillis, 1, PartitionRates.H200);
        }

        /**
         * This version's runs: grouped by default. A JVM per benchmark ({@code --fork-per-benchmark}) costs
         * about 0.55 s beyond its iterations (quick preset with --fork-per-benchmark on the H200 node: 80 s for
         * 72 benchmarks, against 113 s for 69 in the same preset before the fork class-data archive worked and
         * the fills ran in parallel).
         */
        public static RunShape current() {
            return new RunShape(ForkGroups.Mode.SHARED, ResultCheck.FULL_CHECK_BYTES,
                    ResultCheck.PIECE, 0.55, 2.0, ForkGroupMain.Contexts.current(),
                    ForkGroups.WARM_WARMUP_MILLIS, Round.DEFAULT_COUNT, PartitionRates.H200);
        }

        /**
         * Runs recorded before fork groups (no {@code forkMode} in their settings; the first
         * committed runs): one JVM each at {@link #TRANSFER_FORK_SECONDS}, cross-check 128/32 MiB; their
         * fork constant absorbed the command's own start.
         */
        public static final RunShape BEFORE_FORK_GROUPS = new RunShape(ForkGroups.Mode.PER_BENCHMARK, 128L << 20,
                32L << 20, TRANSFER_FORK_SECONDS, 0, ForkGroupMain.Contexts.KEEP, ForkGroups.WARM_WARMUP_MILLIS_BEFORE);

        /** This shape in another fork mode. */
        public RunShape with(ForkGroups.Mode m) {
            return new RunShape(m, crossCheckFullBytes, crossCheckPieceBytes, forkSeconds, runStartSeconds, contexts,
                    groupWarmupMillis, rounds, partition);
        }

        /**
         * This shape in a later round, whose collectives skip the CPU reference check ({@link Round#jvmArgs}): no
         * element cross-checked.
         */
        public RunShape withoutHostCheck() {
            return new RunShape(mode, 0, 0, forkSeconds, runStartSeconds, contexts, groupWarmupMillis, rounds,
                    partition);
        }

        /** This shape with {@code n} rounds. */
        public RunShape withRounds(int n) {
            return new RunShape(mode, crossCheckFullBytes, crossCheckPieceBytes, forkSeconds, runStartSeconds, contexts,
                    groupWarmupMillis, n, partition);
        }

        /** This shape on a machine whose GPUs run the partition study as {@code rates} says. */
        public RunShape with(PartitionRates rates) {
            return new RunShape(mode, crossCheckFullBytes, crossCheckPieceBytes, forkSeconds, runStartSeconds, contexts,
                    groupWarmupMillis, rounds, rates);
        }
    }

    /**
     * Predicted wall seconds of the runnable combinations of {@code plan} and the part of them that is
     * measurement (the measurement iterations), run as {@code shape} says.
     *
     * @return {total, measured}
     */
    public static double[] run(List<Combination> plan, Preset preset, RunShape shape,
                               Function<Combination, Integer> numaNode) {
        double[] each = perCombination(plan, preset, shape, numaNode);
        double total = 0;
        double measured = 0;
        for (int i = 0; i < plan.size(); i++) {
            if (!plan.get(i).plannedSkip()) {
                total += each[i];
                // Rounds share the measurement time out (a partition decode step's rounds each measure all of it).
                Combination c = plan.get(i);
                measured += measuredSeconds(c, preset, shape) * ForkGroups.roundsOf(c, shape.rounds())
                        / ForkGroups.timeShares(c, shape.rounds());
            }
        }
        return new double[] {total + shape.runStartSeconds(), measured};
    }

    /**
     * The measurement part of {@code c}'s fork: the preset's measurement iterations (a partition benchmark's in whole
     * operations: five prefill steps outlast the quick preset's iteration), a serving sweep's search.
     */
    private static double measuredSeconds(Combination c, Preset preset, RunShape shape) {
        return WorkloadSpec.of(c).accept(new WorkloadSpec.Cases<Double>() {
            @Override
            public Double peerCopy(PeerCopy s) {
                return iterations();
            }

            @Override
            public Double peerCopyBidirectional(PeerCopyBidirectional s) {
                return iterations();
            }

            @Override
            public Double hostCopy(HostCopy s) {
                return iterations();
            }

            @Override
            public Double hostCopyBidirectional(HostCopyBidirectional s) {
                return iterations();
            }

            @Override
            public Double ring(Ring s) {
                return iterations();
            }

            @Override
            public Double ncclOp(NcclOp s) {
                return iterations();
            }

            @Override
            public Double exchange(Exchange s) {
                return iterations();
            }

            @Override
            public Double partitionRun(PartitionRun s) {
                boolean request = Metric.of(c.metric()) == Metric.LATENCY;
                return iteration(iterations(), partitionOperationSeconds(s.step(), s.distinctGpus(), s.transport(),
                        request, s.decodeSteps(), shape.partition()));
            }

            @Override
            public Double serving(Serving s) {
                // A serving sweep's measurement is its whole search, not the preset's iteration time.
                return ServingPlanner.predictedSearch(s).elapsedSeconds();
            }

            private double iterations() {
                return preset.timing(Metric.of(c.metric())).measurementMillis() / 1000.0;
            }
        });
    }

    /**
     * Predicted wall seconds of each combination of {@code plan} (by index; 0 for planned skips), summed over its
     * rounds: each round in the JVMs the executor gives it ({@link ForkGroups#of(List, ForkGroups.Mode, Function,
     * Round)}: a later round packs its rows into fewer JVMs, the partition study's later rounds share one), at its
     * place in its JVM ({@link ForkGroups#inJvm}: the first warms the JVM up, a later round of partition decode steps
     * opens with a longer warm-up), and the collectives' CPU reference check in the first round only ({@link
     * Round#jvmArgs}).
     */
    public static double[] perCombination(List<Combination> plan, Preset preset, RunShape shape,
                                          Function<Combination, Integer> numaNode) {
        double[] out = new double[plan.size()];
        for (double[] round : perRound(plan, preset, shape, numaNode)) {
            for (int i = 0; i < out.length; i++) {
                out[i] += round[i];
            }
        }
        return out;
    }

    /**
     * {@link #perCombination}'s seconds round by round: {@code [round][combination]}, over {@link Round#steps} rounds
     * (0 where the round does not measure the combination).
     */
    public static double[][] perRound(List<Combination> plan, Preset preset, RunShape shape,
                                      Function<Combination, Integer> numaNode) {
        double[][] out = new double[Round.steps(shape.rounds())][plan.size()];
        for (int r = 0; r < out.length; r++) {
            Round round = new Round(r, shape.rounds());
            for (List<Integer> fork : ForkGroups.of(plan, shape.mode(), numaNode, round)) {
                for (int k = 0; k < fork.size(); k++) {
                    Combination c = plan.get(fork.get(k));
                    Preset.Timing full = round.timing(preset.timing(Metric.of(c.metric())), c);
                    // The JVM's first combination takes the executor's warm-up (ForkGroups.inJvm); forEntry warms the
                    // later ones by the shape's group warm-up.
                    out[r][fork.get(k)] = forEntry(WorkloadSpec.of(c), c.sizeBytes(),
                            k == 0 ? ForkGroups.inJvm(full, 0, round, c) : full,
                            Metric.of(c.metric()) == Metric.LATENCY, k > 0,
                            round.index() > 0 ? shape.withoutHostCheck() : shape);
                }
            }
        }
        return out;
    }

    private TimePredictor() {}

    /** A transfer fork: fixed cost, iterations, and the host side's size-dependent work. */
    public static double transfer(Kind kind, Preset.Timing timing, long size, boolean pageable) {
        double perByte = switch (kind) {
            case HOST -> pageable ? PAGEABLE_SECONDS_PER_BYTE : PINNED_SECONDS_PER_BYTE;
            case HOST_BIDIR -> pageable ? PAGEABLE_BIDIR_SECONDS_PER_BYTE : PINNED_BIDIR_SECONDS_PER_BYTE;
            default -> 0.0;
        };
        return TRANSFER_FORK_SECONDS + timing.seconds() + size * perByte;
    }

    /** A collective fork: fixed cost, NCCL's communicators if any, iterations, and the CPU reference check. */
    public static double collective(Preset.Timing timing, long size, DataType type, int ranks, boolean nccl) {
        return collective(timing, size, type, ranks, nccl, RunShape.current());
    }

    /** The same with the cross-check of {@code shape}. */
    public static double collective(Preset.Timing timing, long size, DataType type, int ranks, boolean nccl,
                                    RunShape shape) {
        // A shape without the host check (a later round) cross-checks nothing.
        double elements = shape.crossCheckPieceBytes() <= 0 ? 0 : ResultCheck.checkedElements(size / type.bytes(),
                type.bytes(), shape.crossCheckFullBytes(), shape.crossCheckPieceBytes());
        double check = elements * ranks * (type == DataType.FLOAT32 ? CHECK_NANOS_FLOAT32 : CHECK_NANOS_BFLOAT16) * 1e-9;
        return COLLECTIVE_FORK_SECONDS + (nccl ? NCCL_INIT_SECONDS : 0) + timing.seconds() + check;
    }

    /** An activation exchange: measured like a transfer fork (no size growth seen at 32 MiB). */
    public static double exchange(Preset.Timing timing) {
        return TRANSFER_FORK_SECONDS + timing.seconds();
    }

    /** Partition steps: bf16 GEMM rate of cuBLAS on the H200 node (780-880 TFLOP/s measured; the low end). */
    static final double PARTITION_FLOPS_PER_SECOND = 780e12;
    /** Partition steps: HBM bytes per second a step's weight and KV reads reach (decode steps on the H200 node). */
    static final double PARTITION_BYTES_PER_SECOND = 4.0e12;
    /** Partition steps: the causal flash-attention kernel's rate in prefill (142 TFLOP/s measured, docs/notes/forward-step.md). */
    static final double PARTITION_ATTENTION_FLOPS_PER_SECOND = 140e12;
    /**
     * Partition steps: what a layer costs beyond its FLOPs and bytes (its dozen small kernels' launch and
     * tail inside a graph, skinny decode GEMMs below the copy bandwidth): fitted to the DENSE_8B decode step.
     */
    static final double PARTITION_LAYER_SECONDS = 26e-6;
    /** Steps per {@code step} operation: four timed back-to-back plus one instrumented (PartitionBenchmark.step). */
    static final int STEPS_PER_OPERATION = 5;
    /**
     * Bytes per second a partition step's boundaries cross through pinned host memory ({@link Transport#HOST_STAGED}):
     * the TP prefill step of DENSE_8B (64 all-reduces of 128 MiB) was 297 ms slower staged than over P2P on the H200
     * node (2026-12-02), 309 ms on the H100 node (2026-12-07): 28-29 GB/s of boundary bytes.
     */
    static final double PARTITION_STAGED_BYTES_PER_SECOND = 28e9;

    /**
     * Estimated device seconds of one step of {@code spec} over {@code distinctGpus} GPUs: per rank and
     * layer, its GEMM FLOPs at {@link #PARTITION_FLOPS_PER_SECOND}, its attention FLOPs at {@link
     * #PARTITION_ATTENTION_FLOPS_PER_SECOND}, its weight, KV and elementwise activation bytes at
     * {@link #PARTITION_BYTES_PER_SECOND} and {@link #PARTITION_LAYER_SECONDS}; the LM head once. Pipeline
     * stages run one after another (no micro-batches); other plans run their ranks at once, ranks sharing
     * a GPU one after another. Communication is left out: on one GPU it is small against the compute
     * (committed runs), and no multi-GPU run exists to calibrate it. Checked against the forward step on the
     * H200 node (docs/notes/forward-step.md): DENSE_8B and MOE_8X_TOP2, prefill 0.410 s and 0.694 s per
     * step measured, decode 5.78 ms and 23.6 ms.
     */
    public static double partitionStepSeconds(PartitionSpec spec, int distinctGpus) {
        double attention = spec.attentionFlopsPerLayer();
        double perLayer = (spec.flopsPerLayer() - attention) / PARTITION_FLOPS_PER_SECOND
                + attention / PARTITION_ATTENTION_FLOPS_PER_SECOND
                + (spec.weightBytesPerLayer() + spec.kvBytesPerLayer() + spec.elementwiseBytesPerLayer())
                / PARTITION_BYTES_PER_SECOND + PARTITION_LAYER_SECONDS;
        double head = spec.headGemm().flops() / PARTITION_FLOPS_PER_SECOND
                + spec.headBytesPerRank() / PARTITION_BYTES_PER_SECOND;
        double perRank = perLayer * spec.maxLayersPerRank() + head;
        int ranks = spec.ranks();
        int sequential = spec.plan() == Plan.PP ? ranks
                : (ranks + Math.max(1, distinctGpus) - 1) / Math.max(1, distinctGpus);
        return perRank * sequential;
    }

    /**
     * A partition-study fork: a transfer fork's fixed cost, then each iteration at least its time and
     * at least one operation (a {@code step} operation is {@link #STEPS_PER_OPERATION} steps; a request is
     * a prefill and {@code decodeSteps} decode steps, whose estimate is {@code operationSeconds}), and
     * the verification after each iteration ({@link PartitionRates#checkSeconds()} a step; a {@code request} verifies
     * its prefill and its decode step). Prefill steps of 0.3-0.6 s make the operation, not the
     * preset's iteration time, set a fork's length (MOE_8X_TOP2 at quick timing: 6.2-8.3 s per prefill fork).
     */
    public static double partition(Preset.Timing timing, double operationSeconds, boolean request,
                                   PartitionRates rates) {
        int iterations = timing.warmupIterations() + 1;
        double warm = timing.warmupIterations() * iteration(timing.warmupMillis() / 1000.0, operationSeconds);
        double measure = iteration(timing.measurementMillis() / 1000.0, operationSeconds);
        return TRANSFER_FORK_SECONDS + warm + measure + iterations * (request ? 2 : 1) * rates.checkSeconds();
    }

    /** JMH ends an iteration at the first operation to finish after its time: whole operations. */
    private static double iteration(double seconds, double operation) {
        return operation <= 0 ? seconds : Math.max(1, Math.ceil(seconds / operation)) * operation;
    }

    /** The seconds of one operation of a partition benchmark: 5 steps, or a whole request. */
    public static double partitionOperationSeconds(PartitionSpec spec, int distinctGpus, Transport transport,
                                                   boolean request, int decodeSteps, PartitionRates rates) {
        if (!request) {
            return STEPS_PER_OPERATION * stepSeconds(spec, distinctGpus, transport, rates);
        }
        PartitionSpec prefill = new PartitionSpec(spec.model(), spec.plan(),
                spec.ranks(), Phase.PREFILL, spec.batch(), spec.prompt(), spec.context());
        PartitionSpec decode = new PartitionSpec(spec.model(), spec.plan(),
                spec.ranks(), Phase.DECODE, spec.batch(), spec.prompt(), spec.context());
        return stepSeconds(prefill, distinctGpus, transport, rates)
                + decodeSteps * stepSeconds(decode, distinctGpus, transport, rates);
    }

    /**
     * {@link #partitionStepSeconds} scaled for the GPU ({@code rates}), and where the boundaries cross through pinned
     * host memory their bytes at {@link #PARTITION_STAGED_BYTES_PER_SECOND} (the other transports' communication is
     * small against the step on one GPU).
     */
    static double stepSeconds(PartitionSpec spec, int distinctGpus, Transport transport, PartitionRates rates) {
        double staged = transport == Transport.HOST_STAGED
                ? (double) spec.boundariesPerStep() * spec.bytesPerBoundary() / PARTITION_STAGED_BYTES_PER_SECOND : 0;
        return partitionStepSeconds(spec, distinctGpus) * rates.scale(spec.phase()) + staged;
    }

    /**
     * The prediction for a planned combination as a manifest records it (its spec and size), in a fork of its
     * own as runs before fork groups had them, for checking the predictor against measured runs.
     */
    public static double forEntry(Combination c, Preset.Timing timing, boolean latency) {
        return forEntry(WorkloadSpec.of(c), c.sizeBytes(), timing, latency, false, RunShape.BEFORE_FORK_GROUPS);
    }

    /**
     * The prediction for {@code spec}: in a fork of its own, or not the first in its JVM ({@code warmJvm}: {@link
     * #WARM_COMBINATION_SECONDS} instead of the fork's fixed cost, and the short warm-up of {@link
     * ForkGroups#warm}), with the cross-check of {@code shape}.
     */
    public static double forEntry(WorkloadSpec spec, long size, Preset.Timing timing, boolean latency, boolean warmJvm,
                                  RunShape shape) {
        Kind k = spec.kind();
        Preset.Timing t = warmJvm ? ForkGroups.warm(timing, shape.groupWarmupMillis()) : timing;
        double isolated = spec.accept(new IsolatedSeconds(t, size, latency, shape));
        boolean collective = k == Kind.ALLREDUCE_RING || k == Kind.NCCL;
        double fixed = collective ? COLLECTIVE_FORK_SECONDS : TRANSFER_FORK_SECONDS;
        double own = shape.mode() == ForkGroups.Mode.PER_BENCHMARK
                ? shape.forkSeconds() + (collective ? COLLECTIVE_EXTRA_SECONDS : 0)
                : warmJvm ? (shape.mode() == ForkGroups.Mode.SHARED && ForkGroupMain.Contexts.ownStreamsOnly(k)
                        ? WARM_SHARED_COMBINATION_SECONDS : WARM_COMBINATION_SECONDS)
                        + (shape.contexts().resetsBefore(k) ? CONTEXT_RESET_SECONDS : 0)
                : GROUPED_FORK_SECONDS;
        // A later NCCL combination of a group that keeps its communicators does not initialise them again.
        boolean keptComms = warmJvm && k == Kind.NCCL && shape.mode() != ForkGroups.Mode.PER_BENCHMARK
                && shape.contexts().keepsHandles();
        return isolated - fixed + own - (keptComms ? NCCL_INIT_SECONDS : 0);
    }
}
