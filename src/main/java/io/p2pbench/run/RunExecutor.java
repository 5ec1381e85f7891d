package io.p2pbench.run;

import io.p2pbench.fork.ForkPhases;
import io.p2pbench.spec.Combination;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.TransferFixture;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Runs a plan: each fork group ({@link ForkGroups}) in one benchmark JVM ({@link GroupFork}), or each combination
 * in a JVM of its own ({@link SingleFork}, {@link ForkGroups.Mode#PER_BENCHMARK}), each under an outer timeout
 * ({@link ForkWatchdog}): a hung CUDA call cannot hang the run, the fork is killed and the benchmark marked
 * {@code timeout}. A failed benchmark is marked {@code failed} with its error ({@link ForkOutcome}) and the run goes
 * on. The manifest ({@link RunState}) is rewritten atomically after every benchmark, so an interrupted run keeps
 * everything that finished; each benchmark's phases go to {@code phases.json} ({@link PhaseLog}) and a progress line
 * to {@code out} ({@link Progress}).
 */
public final class RunExecutor {
    private final ResultFolder folder;
    private final Preset preset;
    private final List<String> extraJvmArgs;
    private final PrintWriter out;
    private final Function<Combination, Integer> numaNode;
    private final RunState state;
    private Path forkJvm;
    private ToDoubleFunction<Combination> forkLimitSeconds = RunExecutor::forkLimitSeconds;
    private ForkGroups.Mode mode = ForkGroups.Mode.PER_BENCHMARK;
    private int rounds = 1;
    private long stagingChunkBytes = TransferFixture.DEFAULT_STAGING_CHUNK;
    private Progress progress;

    /**
     * @param numaNode the NUMA node a combination's fork must be bound to (host memory placement),
     *     or null for no binding
     */
    public RunExecutor(ResultFolder folder, Preset preset, List<String> extraJvmArgs, PrintWriter out,
                       Function<Combination, Integer> numaNode) {
        this.folder = folder;
        this.preset = preset;
        this.extraJvmArgs = List.copyOf(extraJvmArgs);
        this.out = out;
        this.numaNode = numaNode;
        this.state = new RunState(folder);
    }

    /** Tests: every fork is started with this launcher instead of this JVM's java (a script that misbehaves). */
    RunExecutor forkJvm(Path launcher) {
        this.forkJvm = launcher;
        return this;
    }

    /** How combinations are spread over JVMs ({@link ForkGroups.Mode#PER_BENCHMARK} unless told). */
    public RunExecutor mode(ForkGroups.Mode mode) {
        this.mode = mode;
        return this;
    }

    /** Rounds of the run ({@link Round}; 1 unless told). */
    public RunExecutor rounds(int rounds) {
        this.rounds = new Round(0, rounds).count();
        return this;
    }

    /** Bytes per chunk of host-staged copies ({@link TransferFixture#DEFAULT_STAGING_CHUNK} unless told). */
    public RunExecutor stagingChunkBytes(long bytes) {
        this.stagingChunkBytes = bytes;
        return this;
    }

    /** The outer timeout of a combination's fork: max(120 s, 4 x predicted). */
    static double forkLimitSeconds(Combination c) {
        return Math.max(120, 4 * c.predictedSeconds());
    }

    /**
     * Tests: the outer timeout of each combination's fork instead of {@link #forkLimitSeconds(Combination)}, so a
     * fork that must be killed gets a short one and the forks that must finish keep a generous one.
     */
    RunExecutor forkLimitSeconds(ToDoubleFunction<Combination> secondsOf) {
        this.forkLimitSeconds = secondsOf;
        return this;
    }

    /** Runs the plan; returns the final manifest. */
    public RunManifest run(String command, String fingerprint, Map<String, Object> settings, List<Combination> plan)
            throws IOException {
        state.start(command, preset.name(), fingerprint, settings, plan);
        Thread hook = new Thread(state::onInterrupt, "p2pbench-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        double[][] perRound = TimePredictor.perRound(plan, preset, TimePredictor.RunShape.current().with(mode)
                .withRounds(rounds).with(PartitionRates.of(folder.readTopology())), numaNode);
        int[] roundsOf = new int[plan.size()];
        for (int i = 0; i < plan.size(); i++) {
            roundsOf[i] = plan.get(i).plannedSkip() ? 0 : ForkGroups.roundsOf(plan.get(i), rounds);
        }
        progress = new Progress(out, perRound, roundsOf);
        PhaseLog phases = new PhaseLog(folder, out);
        try (ForkWatchdog watchdog = new ForkWatchdog()) {
            ForkContext context = new ForkContext(folder, preset, extraJvmArgs, numaNode, forkJvm, forkLimitSeconds,
                    stagingChunkBytes, ForkArchive.forThisJvm(), watchdog, state, phases, new ForkOutcome(folder), new NumaLauncher(folder),
                    this::record);
            SingleFork single = new SingleFork(context);
            GroupFork grouped = new GroupFork(context);
            // Round by round over the whole plan: a drift of the machine reaches every row's rounds alike.
            rounds:
            for (int r = 0; r < Round.steps(rounds); r++) {
                Round round = new Round(r, rounds);
                for (List<Integer> fork : ForkGroups.of(plan, mode, numaNode, round)) {
                    // A later round measures what is still ok: a combination that failed or was skipped is done.
                    List<Integer> todo = fork.stream().filter(i -> round.measures(plan.get(i))
                            && (round.index() == 0 || state.ok(i))).toList();
                    if (todo.isEmpty()) {
                        continue;
                    }
                    if (state.interrupted()) {
                        break rounds;
                    }
                    if (mode == ForkGroups.Mode.PER_BENCHMARK) {
                        int i = todo.get(0);
                        if (!state.begin(i)) {
                            break rounds;
                        }
                        long t0 = System.nanoTime();
                        RunManifest.Entry e = single.run(i, plan.get(i), round);
                        if (!record(i, plan.get(i), e, (System.nanoTime() - t0) / 1e9, round)) {
                            break rounds;
                        }
                    } else if (!grouped.run(todo, plan, round)) {
                        break rounds;
                    }
                }
            }
            state.complete();
            ForkPhases.Breakdown all = phases.total();
            out.printf(Locale.ROOT, "Time of %d benchmarks: %s%n", phases.count(), all.describe());
            out.flush();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it records the interruption
            }
        }
        return state.manifest();
    }

    /**
     * Records one finished combination, prints its progress line; false when the run must stop (an
     * interruption). Throws {@link RunLock.Held} when another JMH run took JMH's lock.
     */
    private boolean record(int i, Combination c, RunManifest.Entry e, double took, Round round) throws IOException {
        if (e.outcome() == Outcome.INTERRUPTED) {
            // Another JMH run took the machine between two benchmarks (the one cause of a fork's interrupted
            // entry, ForkOutcome): every later one would fail the same way and measure nothing. Stop, so the
            // folder never fills with such failures.
            state.stopForJmhLock(i, e);
            ForkWatchdog.killForks();
            throw new RunLock.Held("another JMH run took JMH's lock (" + Path.of(
                    System.getProperty("java.io.tmpdir"), "jmh.lock") + ") during this run, which stopped "
                    + "rather than measure beside it; what finished before is in " + folder.dir());
        }
        if (!state.finish(i, e, round, ForkGroups.roundsOf(c, round.count()))) {
            return false;
        }
        progress.done(i, c, e, took, round.label(c));
        return true;
    }
}
