package io.p2pbench.run;

import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.Combination;
import io.p2pbench.results.Kind;
import io.p2pbench.results.Metric;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs a plan one benchmark at a time through JMH's Runner API (JMH forks a fresh JVM for each),
 * with an outer timeout per fork: a hung CUDA call cannot hang the run, the fork is killed and the
 * benchmark marked {@code timeout}. A failed benchmark is marked {@code failed} with its error and
 * the run goes on. The manifest is rewritten atomically after every benchmark, so an interrupted
 * run keeps everything that finished.
 */
public final class RunExecutor {
    private static final Pattern EXCEPTION_LINE = Pattern.compile(
            "^(?:Caused by: )?([a-zA-Z_$][\\w$]*\\.)+[\\w$]*(?:Exception|Error|Skipped)(?:: .*)?$");

    /** What JMH's Runner says when another JMH run holds its machine-wide lock. */
    static final String JMH_LOCK_TAKEN = "Unable to acquire the JMH lock";

    private static final Pattern FORK_EXIT = Pattern.compile("^<forked VM failed with exit code (\\d+)>$");

    private final ResultFolder folder;
    private final Preset preset;
    private final List<String> extraJvmArgs;
    private final PrintWriter out;
    private final List<RunManifest.Entry> entries = new ArrayList<>();
    private final Map<String, ForkPhases.Breakdown> phases = new java.util.LinkedHashMap<>();
    private final ForkArchive archive = ForkArchive.forThisJvm();
    private final Object lock = new Object();
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "p2pbench-fork-watchdog");
        t.setDaemon(true);
        return t;
    });
    private RunManifest manifest;
    private int current = -1;
    private volatile boolean finished;
    /** Set by the interrupt hook: the manifest says "interrupted" and nothing may overwrite it. */
    private boolean interrupted;

    private final java.util.function.Function<Combination, Integer> numaNode;
    private Path forkJvm;
    private java.util.function.ToDoubleFunction<Combination> forkLimitSeconds = RunExecutor::forkLimitSeconds;
    private ForkGroups.Mode mode = ForkGroups.Mode.PER_BENCHMARK;
    private double predictedLeft;
    private double[] predictedOf;
    private double predictedDone;
    private double actualDone;
    private int toRun;
    private int done;

    /**
     * @param numaNode the NUMA node a combination's fork must be bound to (host memory placement),
     *     or null for no binding
     */
    public RunExecutor(ResultFolder folder, Preset preset, List<String> extraJvmArgs, PrintWriter out,
                java.util.function.Function<Combination, Integer> numaNode) {
        this.folder = folder;
        this.preset = preset;
        this.extraJvmArgs = List.copyOf(extraJvmArgs);
        this.out = out;
        this.numaNode = numaNode;
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

    /** The outer timeout of a combination's fork: max(120 s, 4 x predicted). */
    static double forkLimitSeconds(Combination c) {
        return Math.max(120, 4 * c.predictedSeconds());
    }

    /**
     * Tests: the outer timeout of each combination's fork instead of {@link #forkLimitSeconds(Combination)}, so a
     * fork that must be killed gets a short one and the forks that must finish keep a generous one.
     */
    RunExecutor forkLimitSeconds(java.util.function.ToDoubleFunction<Combination> secondsOf) {
        this.forkLimitSeconds = secondsOf;
        return this;
    }

    /** Runs the plan; returns the final manifest. */
    public RunManifest run(String command, String fingerprint, Map<String, Object> settings, List<Combination> plan)
            throws IOException {
        String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        for (Combination c : plan) {
            entries.add(RunManifest.Entry.planned(c));
        }
        manifest = new RunManifest(RunManifest.FORMAT, io.p2pbench.topology.TopologyProbe.SUITE_VERSION,
                io.p2pbench.topology.SuiteBuild.CURRENT, command,
                preset.name(), fingerprint, started, null, "running", settings, entries);
        folder.writeManifest(manifest);
        Thread hook = new Thread(this::onInterrupt, "p2pbench-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        predictedOf = TimePredictor.perCombination(plan, preset, TimePredictor.RunShape.current().with(mode), numaNode);
        predictedLeft = java.util.Arrays.stream(predictedOf).sum();
        toRun = (int) plan.stream().filter(c -> !c.plannedSkip()).count();
        try {
            for (List<Integer> fork : ForkGroups.of(plan, mode, numaNode)) {
                synchronized (lock) {
                    if (interrupted) {
                        break;
                    }
                }
                if (mode == ForkGroups.Mode.PER_BENCHMARK) {
                    int i = fork.get(0);
                    synchronized (lock) {
                        current = i;
                    }
                    long t0 = System.nanoTime();
                    RunManifest.Entry e = runOne(i, plan.get(i));
                    if (!record(i, plan.get(i), e, (System.nanoTime() - t0) / 1e9)) {
                        break;
                    }
                } else if (!runGroup(fork, plan)) {
                    break;
                }
            }
            synchronized (lock) {
                if (!interrupted) {
                    finished = true;
                    write("complete");
                }
            }
            ForkPhases.Breakdown all = phases.values().stream().reduce(ForkPhases.Breakdown.zero(),
                    ForkPhases.Breakdown::plus);
            out.printf(Locale.ROOT, "Time of %d benchmarks: %s%n", phases.size(), all.describe());
            out.flush();
        } finally {
            watchdog.shutdownNow();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it records the interruption
            }
        }
        return manifest;
    }

    /**
     * Records one finished combination, prints its progress line; false when the run must stop (an
     * interruption). Throws {@link RunLock.Held} when another JMH run took JMH's lock.
     */
    private boolean record(int i, Combination c, RunManifest.Entry e, double took) throws IOException {
        if (e.reason() != null && e.reason().contains(JMH_LOCK_TAKEN)) {
            // Another JMH run took the machine between two benchmarks: every later one would fail
            // the same way and measure nothing. Stop, so the folder never fills with such failures.
            synchronized (lock) {
                entries.set(i, new RunManifest.Entry(c, "interrupted", "another JMH run took JMH's lock",
                        null, null, e.logFile(), e.seconds(), null));
                current = -1;
                finished = true;
                write("interrupted");
            }
            killForks();
            throw new RunLock.Held("another JMH run took JMH's lock (" + Path.of(
                    System.getProperty("java.io.tmpdir"), "jmh.lock") + ") during this run, which stopped "
                    + "rather than measure beside it; what finished before is in " + folder.dir());
        }
        done++;
        predictedDone += predictedOf[i];
        predictedLeft -= predictedOf[i];
        actualDone += took;
        double eta = predictedLeft * (actualDone / Math.max(predictedDone, 1e-9));
        synchronized (lock) {
            if (interrupted) {
                // The JVM is exiting on a signal and the hook has written "interrupted" with this
                // benchmark as interrupted (its fork was killed): this late result must not replace it.
                return false;
            }
            entries.set(i, e);
            current = -1;
            write("running");
        }
        out.printf(Locale.ROOT, "[%3d/%d] %-7s %-48s %s  (%.1fs, ETA %s)%n", done, toRun, e.status(), c.id(),
                e.headline() != null ? e.headline() + verifiedNote(e) : e.reason() == null ? "" : e.reason(), took,
                RunPlanner.formatDuration(eta));
        out.flush();
        return true;
    }

    private void write(String state) throws IOException {
        String end = state.equals("running") ? null : Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        manifest = new RunManifest(manifest.format(), manifest.suiteVersion(), manifest.suiteBuild(), manifest.command(),
                manifest.preset(), manifest.fingerprint(), manifest.startedAt(), end, state, manifest.settings(),
                List.copyOf(entries));
        folder.writeManifest(manifest);
    }

    private void onInterrupt() {
        synchronized (lock) {
            if (finished) {
                return;
            }
            interrupted = true;
            killForks();
            if (current >= 0) {
                RunManifest.Entry e = entries.get(current);
                entries.set(current, new RunManifest.Entry(e.combination(), "interrupted", "the run was interrupted",
                        null, null, e.logFile(), null, null));
            }
            try {
                write("interrupted");
            } catch (IOException ignored) {
                // nothing more can be done while the JVM exits
            }
        }
    }

    private static String verifiedNote(RunManifest.Entry e) {
        return e.bytesVerified() == null ? "" : "; " + io.p2pbench.transfer.Sizes.format(e.bytesVerified()) + " verified";
    }

    private static void killForks() {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
    }

    private RunManifest.Entry runOne(int index, Combination c) throws IOException {
        String stem = String.format(Locale.ROOT, "%03d-%s", index + 1, c.id());
        String logRel = "logs/" + stem + ".log";
        Path tmpJson = folder.resolve("jmh/." + stem + ".json.partial");
        Files.createDirectories(tmpJson.getParent());
        Files.createDirectories(folder.resolve("logs"));
        Files.deleteIfExists(tmpJson);
        Preset.Timing timing = preset.timing(Metric.of(c.metric()));
        List<String> jvmArgs = new ArrayList<>(extraJvmArgs);
        jvmArgs.add("-D" + BenchmarkRecords.RUN_DIR + "=" + folder.dir().toAbsolutePath());
        jvmArgs.add("-D" + BenchmarkRecords.COMBINATION + "=" + c.id());
        Path phaseFile = Files.createTempFile("p2pbench-phases-", ".txt");
        jvmArgs.add("-D" + ForkPhases.FILE_PROPERTY + "=" + phaseFile);
        jvmArgs.addAll(archive.jvmArgs());
        ChainedOptionsBuilder opts = new OptionsBuilder()
                .include("^" + Pattern.quote(c.benchmark()) + "$")
                .forks(1)
                .warmupIterations(timing.warmupIterations())
                .warmupTime(TimeValue.milliseconds(timing.warmupMillis()))
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(timing.measurementMillis()))
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .result(tmpJson.toString())
                .resultFormat(ResultFormatType.JSON)
                .output(folder.resolve(logRel).toString())
                .shouldFailOnError(false);
        for (Map.Entry<String, String> p : c.params().entrySet()) {
            opts.param(p.getKey(), p.getValue());
        }
        Integer node = numaNode.apply(c);
        if (node != null) {
            Path wrapper = numaWrapper(node);
            if (wrapper == null) {
                return new RunManifest.Entry(c, "skipped", "host memory placement needs numactl, which is not "
                        + "installed", null, null, null, 0.0, null);
            }
            opts.jvm(wrapper.toString());
        }
        if (forkJvm != null) {
            opts.jvm(forkJvm.toString());
        }
        double limit = forkLimitSeconds.applyAsDouble(c);
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> kill = watchdog(limit, timedOut);
        long t0 = System.nanoTime();
        long runnerStart = ForkPhases.nowMicros();
        Collection<RunResult> results;
        String runnerError = null;
        try {
            results = new Runner(opts.build()).run();
        } catch (RunnerException | RuntimeException e) {
            results = List.of();
            runnerError = e.getMessage();
        } finally {
            kill.cancel(false);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        recordPhases(c, phaseFile, runnerStart, ForkPhases.nowMicros());
        return conclude(c, tmpJson, stem, logRel, !results.isEmpty(), runnerError, timedOut.get(), limit, seconds);
    }

    /** One combination's files while its fork group runs. */
    private record Slot(int index, Combination c, String stem, String logRel, Path tmpJson, Path phaseFile,
                        double limit, StringBuilder stray) {}

    /**
     * Runs one fork group ({@link ForkGroups}) in one JVM ({@link ForkGroupMain}); when that JVM dies or is
     * killed by the watchdog, the running combination is recorded failed or timed out and a new JVM runs
     * the rest. False when the run must stop.
     */
    private boolean runGroup(List<Integer> group, List<Combination> plan) throws IOException {
        List<Integer> remaining = new ArrayList<>(group);
        while (!remaining.isEmpty()) {
            Map<Integer, Slot> slots = new java.util.LinkedHashMap<>();
            List<ForkGroupMain.Task> tasks = new ArrayList<>();
            for (int k = 0; k < remaining.size(); k++) {
                int i = remaining.get(k);
                Combination c = plan.get(i);
                String stem = String.format(Locale.ROOT, "%03d-%s", i + 1, c.id());
                String logRel = "logs/" + stem + ".log";
                Path tmpJson = folder.resolve("jmh/." + stem + ".json.partial");
                Files.createDirectories(tmpJson.getParent());
                Files.createDirectories(folder.resolve("logs"));
                Files.deleteIfExists(tmpJson);
                Files.deleteIfExists(folder.resolve(logRel));
                Path phaseFile = Files.createTempFile("p2pbench-phases-", ".txt");
                Preset.Timing full = preset.timing(Metric.of(c.metric()));
                // The first combination of a JVM warms it up; later ones find the JIT and the GPU warm.
                Preset.Timing timing = k == 0 ? full : ForkGroups.warm(full);
                double limit = forkLimitSeconds.applyAsDouble(c);
                slots.put(i, new Slot(i, c, stem, logRel, tmpJson, phaseFile, limit, new StringBuilder()));
                tasks.add(new ForkGroupMain.Task(i, c.id(), c.benchmark(), c.kind(), c.params(), timing.warmupIterations(),
                        timing.warmupMillis(), timing.measurementMillis(), tmpJson.toString(),
                        folder.resolve(logRel).toString(), phaseFile.toString()));
            }
            Path taskFile = Files.createTempFile("p2pbench-fork-group-", ".json");
            try {
                Files.writeString(taskFile, ResultFolder.mapper().writeValueAsString(tasks));
                Slot first = slots.get(remaining.get(0));
                Integer node = numaNode.apply(first.c());
                String launcher;
                if (forkJvm != null) {
                    launcher = forkJvm.toString();
                } else if (node != null) {
                    Path wrapper = numaWrapper(node);
                    if (wrapper == null) {
                        for (int i : List.copyOf(remaining)) {
                            Slot sl = slots.get(i);
                            RunManifest.Entry e = new RunManifest.Entry(sl.c(), "skipped", "host memory placement "
                                    + "needs numactl, which is not installed", null, null, null, 0.0, null);
                            remaining.remove(Integer.valueOf(i));
                            if (!record(i, sl.c(), e, 0)) {
                                return false;
                            }
                        }
                        return true;
                    }
                    launcher = wrapper.toString();
                } else {
                    launcher = Path.of(System.getProperty("java.home"), "bin", "java").toString();
                }
                List<String> cmd = new ArrayList<>();
                cmd.add(launcher);
                cmd.addAll(extraJvmArgs);
                cmd.add("-D" + BenchmarkRecords.RUN_DIR + "=" + folder.dir().toAbsolutePath());
                // The first combination's id on the command line names the JVM in process listings.
                cmd.add("-D" + BenchmarkRecords.COMBINATION + "=" + first.c().id());
                cmd.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
                if (System.getProperty("jmh.ignoreLock") != null) {
                    cmd.add("-Djmh.ignoreLock=" + System.getProperty("jmh.ignoreLock"));
                }
                cmd.addAll(archive.jvmArgs());
                if (ForkGroups.jmhJitHints()) {
                    // What JMH adds to the command of a JVM it forks (Runner.getForkedMainCommand).
                    org.openjdk.jmh.runner.CompilerHints.addCompilerHints(cmd);
                }
                cmd.add("-cp");
                cmd.add(System.getProperty("java.class.path"));
                cmd.add(ForkGroupMain.class.getName());
                cmd.add(taskFile.toString());
                if (!runGroupJvm(cmd, remaining, slots)) {
                    return false;
                }
            } finally {
                Files.deleteIfExists(taskFile);
                for (Slot sl : slots.values()) {
                    Files.deleteIfExists(sl.phaseFile());
                }
            }
        }
        return true;
    }

    /** One JVM of a fork group: reads its progress lines, records each combination as it ends. */
    private boolean runGroupJvm(List<String> cmd, List<Integer> remaining, Map<Integer, Slot> slots) throws IOException {
        AtomicBoolean timedOut = new AtomicBoolean();
        long startMicros = ForkPhases.nowMicros();
        Slot cur = slots.get(remaining.get(0));
        long curStart = startMicros;
        synchronized (lock) {
            if (interrupted) {
                return false;
            }
            // Before the JVM starts: an interruption from then on names this combination as the one interrupted.
            current = cur.index();
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        synchronized (lock) {
            if (interrupted) {
                killForks();
                return false;
            }
        }
        ScheduledFuture<?> kill = watchdog(cur.limit(), timedOut);
        try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith(ForkGroupMain.START + " ")) {
                    continue;
                }
                if (!line.startsWith(ForkGroupMain.DONE + " ")) {
                    cur.stray().append(line).append('\n');
                    continue;
                }
                kill.cancel(false);
                String[] f = line.split(" ", 5);
                long doneMicros = Long.parseLong(f[2]);
                String error = f[3].equals("ok") ? null : f.length > 4 ? f[4] : "the benchmark failed";
                double seconds = Math.max(0, doneMicros - curStart) / 1e6;
                recordPhases(cur.c(), cur.phaseFile(), curStart, doneMicros);
                appendStray(cur);
                RunManifest.Entry e = conclude(cur.c(), cur.tmpJson(), cur.stem(), cur.logRel(), error == null, error,
                        false, cur.limit(), seconds);
                remaining.remove(Integer.valueOf(cur.index()));
                if (!record(cur.index(), cur.c(), e, seconds)) {
                    killForks();
                    return false;
                }
                if (remaining.isEmpty()) {
                    break;
                }
                cur = slots.get(remaining.get(0));
                curStart = doneMicros;
                synchronized (lock) {
                    current = cur.index();
                }
                kill = watchdog(cur.limit(), timedOut);
            }
        } finally {
            kill.cancel(false);
        }
        int exit;
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            exit = p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return false;
        }
        if (remaining.isEmpty()) {
            return true;
        }
        synchronized (lock) {
            if (interrupted) {
                return false;
            }
        }
        // The JVM ended while cur was running: a crash, a kill, or the watchdog. The rest go to a new JVM.
        long now = ForkPhases.nowMicros();
        double seconds = Math.max(0, now - curStart) / 1e6;
        recordPhases(cur.c(), cur.phaseFile(), curStart, now);
        cur.stray().append("<the fork JVM ended with exit code ").append(exit).append(timedOut.get()
                ? ", killed by the watchdog" : "").append(">\n");
        appendStray(cur);
        RunManifest.Entry e = conclude(cur.c(), cur.tmpJson(), cur.stem(), cur.logRel(), false,
                exit == 0 ? "the fork ended before it reported a result" : forkDeath(exit), timedOut.get(),
                cur.limit(), seconds);
        remaining.remove(Integer.valueOf(cur.index()));
        return record(cur.index(), cur.c(), e, seconds);
    }

    /**
     * Kills the forks once {@code limitSeconds} have passed, and again every second until cancelled: JMH may start
     * the benchmark's JVM only after the first kill (it runs a probe JVM first), and that one must not hang the run.
     */
    private ScheduledFuture<?> watchdog(double limitSeconds, AtomicBoolean timedOut) {
        return watchdog.scheduleWithFixedDelay(() -> {
            timedOut.set(true);
            killForks();
        }, (long) (limitSeconds * 1000), 1000, TimeUnit.MILLISECONDS);
    }

    /** What the fork JVM printed outside JMH during this combination, appended to its log. */
    private void appendStray(Slot slot) throws IOException {
        if (slot.stray().length() == 0) {
            return;
        }
        Path log = folder.resolve(slot.logRel());
        Files.writeString(log, slot.stray(), java.nio.charset.StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        slot.stray().setLength(0);
    }

    /** The entry of a combination whose fork (or turn in a fork group) ended; keeps or drops its files. */
    private RunManifest.Entry conclude(Combination c, Path tmpJson, String stem, String logRel, boolean produced,
                                       String runnerError, boolean timedOut, double limit, double seconds)
            throws IOException {
        BenchmarkRecords.Target target = new BenchmarkRecords.Target(folder.dir(), c.id());
        RunManifest.Entry e = outcome(c, target, tmpJson, stem, logRel, produced, runnerError, timedOut, limit,
                seconds);
        // The fork's skip reason and verified count are now in the entry: their files would only repeat them.
        Files.deleteIfExists(target.skipFile());
        Files.deleteIfExists(target.verifiedFile());
        if (!"ok".equals(e.status())) {
            Files.deleteIfExists(target.samplesFile()); // a benchmark that did not finish ok keeps no figure
        }
        String keptLog = folder.storeLog(logRel, !"ok".equals(e.status()));
        return new RunManifest.Entry(e.combination(), e.status(), e.reason(), e.jmhFile(), e.samplesFile(), keptLog,
                e.seconds(), e.headline(), e.bytesVerified());
    }

    /** What became of one fork, from the files it left; stores its JMH JSON when it is ok. */
    private RunManifest.Entry outcome(Combination c, BenchmarkRecords.Target target, Path tmpJson, String stem,
                                      String logRel, boolean produced, String runnerError,
                                      boolean timedOut, double limit, double seconds) throws IOException {
        if (Files.isRegularFile(target.skipFile())) {
            Files.deleteIfExists(tmpJson);
            return new RunManifest.Entry(c, "skipped", Files.readString(target.skipFile()).strip(), null, null, logRel,
                    seconds, null);
        }
        if (timedOut) {
            Files.deleteIfExists(tmpJson);
            return new RunManifest.Entry(c, "timeout", "the fork did not finish within " + (long) limit
                    + " s and was killed", null, null, logRel, seconds, null);
        }
        if (!produced || !Files.isRegularFile(tmpJson) || Files.size(tmpJson) < 4) {
            Files.deleteIfExists(tmpJson);
            String reason = firstError(folder.resolve(logRel));
            return new RunManifest.Entry(c, "failed", reason != null ? reason
                    : runnerError != null ? runnerError : "the fork produced no result; see " + logRel + ".gz", null,
                    null, logRel, seconds, null);
        }
        Long verified = BenchmarkRecords.readVerified(target.verifiedFile());
        if (verified == null || verified <= 0) {
            // No figure without verified data: a fork that checked nothing has no result, whatever JMH says.
            Files.deleteIfExists(tmpJson);
            return new RunManifest.Entry(c, "failed", verified == null
                    ? "the fork recorded no data verification (" + folder.dir().relativize(target.verifiedFile())
                    + " is missing); its figures are not kept"
                    : "the fork verified 0 bytes; its figures are not kept", null, null, logRel, seconds, null);
        }
        String headline = Kind.SERVING.label().equals(c.kind()) ? servingHeadline(target) : headline(c, tmpJson);
        String jmhRel = folder.storeJmh(tmpJson, stem);
        String samplesRel = Files.isRegularFile(target.samplesFile())
                ? folder.dir().relativize(target.samplesFile()).toString() : null;
        return new RunManifest.Entry(c, "ok", null, jmhRel, samplesRel, logRel, seconds,
                headline, verified);
    }

    /** Reads the fork's phases into {@code phases.json}; a benchmark's timing never fails the run. */
    private void recordPhases(Combination c, Path phaseFile, long runnerStart, long runnerEnd) {
        try {
            List<String> lines = Files.isRegularFile(phaseFile) ? Files.readAllLines(phaseFile) : List.of();
            Files.deleteIfExists(phaseFile);
            phases.put(c.id(), ForkPhases.breakdown(lines, runnerStart, runnerEnd));
            ForkPhases.Breakdown all = phases.values().stream().reduce(ForkPhases.Breakdown.zero(),
                    ForkPhases.Breakdown::plus);
            Map<String, Object> doc = new java.util.LinkedHashMap<>();
            doc.put("about", "wall seconds per benchmark by phase; measured = the measurement iterations' timed part");
            doc.put("total", all);
            doc.put("overheadFraction", all.total() > 0 ? all.overhead() / all.total() : 0);
            doc.put("benchmarks", phases);
            io.p2pbench.results.AtomicFiles.write(folder.resolve(io.p2pbench.results.ResultMigration.PHASES),
                    ResultFolder.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                            .writeValueAsString(doc) + "\n");
        } catch (IOException e) {
            out.println("note: could not record the phases of " + c.id() + ": " + e.getMessage());
        }
    }

    /** A java launcher that binds the fork's CPUs and memory to one NUMA node, or null without numactl. */
    private Path numaWrapper(int node) throws IOException {
        Path numactl = null;
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir, "numactl");
            if (Files.isExecutable(p)) {
                numactl = p;
                break;
            }
        }
        if (numactl == null) {
            return null;
        }
        Path wrapper = folder.resolve("bin/java-numa" + node);
        if (!Files.exists(wrapper)) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            io.p2pbench.results.AtomicFiles.write(wrapper, "#!/bin/sh\nexec " + numactl + " --cpunodebind=" + node
                    + " --membind=" + node + " " + java + " \"$@\"\n");
            wrapper.toFile().setExecutable(true);
        }
        return wrapper;
    }

    /** A serving sweep's progress line from its samples file; "" when it cannot be read. */
    static String servingHeadline(BenchmarkRecords.Target target) {
        try {
            return io.p2pbench.serving.ServingSamples.read(io.p2pbench.results.AtomicFiles.read(target.samplesFile()))
                    .headline();
        } catch (IOException e) {
            return "";
        }
    }

    /** The progress line's figure from the fork's JMH JSON (one benchmark); "" when it cannot be read. */
    static String headline(Combination c, Path jmhJson) {
        try {
            com.fasterxml.jackson.databind.JsonNode b = ResultFolder.mapper().readTree(jmhJson.toFile()).path(0);
            if (Metric.of(c.metric()) == Metric.LATENCY) {
                com.fasterxml.jackson.databind.JsonNode pct = b.path("primaryMetric").path("scorePercentiles");
                return String.format(Locale.ROOT, "p50 %.2f us, p99 %.2f us (host-observed, %s)",
                        pct.path("50.0").asDouble(Double.NaN), pct.path("99.0").asDouble(Double.NaN),
                        Sizes.format(c.sizeBytes()));
            }
            Map<String, Double> scores = new java.util.TreeMap<>();
            b.path("secondaryMetrics").fields().forEachRemaining(f -> scores.put(f.getKey(),
                    f.getValue().path("score").asDouble(Double.NaN)));
            return bandwidthHeadline(c, scores);
        } catch (IOException e) {
            return "";
        }
    }

    static String headline(Combination c, RunResult r) {
        if (Metric.of(c.metric()) == Metric.LATENCY) {
            var stats = r.getPrimaryResult().getStatistics();
            return String.format(Locale.ROOT, "p50 %.2f us, p99 %.2f us (host-observed, %s)", stats.getPercentile(50),
                    stats.getPercentile(99), Sizes.format(c.sizeBytes()));
        }
        Map<String, Double> scores = new java.util.TreeMap<>();
        r.getSecondaryResults().forEach((k, v) -> scores.put(k, v.getScore()));
        return bandwidthHeadline(c, scores);
    }

    /** The progress line's figure of a bandwidth-style benchmark from its secondary scores; "" when it has none. */
    static String bandwidthHeadline(Combination c, Map<String, Double> s) {
        String single = c.singleGpu() ? " [single GPU]" : "";
        if (s.containsKey("stepUs") && s.containsKey("tokensPerSecond")) {
            return String.format(Locale.ROOT, "%.1f us/step, %.0f tokens/s (compute %.1f, exposed comm %.1f, wait %.1f us; "
                    + "device, median)%s", s.get("stepUs"), s.get("tokensPerSecond"), s.getOrDefault("computeUs", Double.NaN),
                    s.getOrDefault("commUs", Double.NaN), s.getOrDefault("waitUs", Double.NaN), single);
        }
        if (s.containsKey("busGBps") && s.containsKey("algGBps") && s.containsKey("timeUs")) {
            return String.format(Locale.ROOT, "algbw %.2f GB/s, busbw %.2f GB/s, %.1f us/op (device, median)%s",
                    s.get("algGBps"), s.get("busGBps"), s.get("timeUs"), single);
        }
        if (s.containsKey("sumGBps") && s.containsKey("forwardGBps") && s.containsKey("reverseGBps")) {
            return String.format(Locale.ROOT, "%.2f + %.2f = %.2f GB/s (device, median)",
                    s.get("forwardGBps"), s.get("reverseGBps"), s.get("sumGBps"));
        }
        Double dev = s.get("deviceGBps");
        return dev == null ? "" : String.format(Locale.ROOT, "%.2f GB/s (device, median)", dev);
    }

    /**
     * The benchmark's own error from a JMH log: the first exception line naming a p2pbench class
     * (a data mismatch, a CUDA error), else the first exception line at all, or null.
     */
    static String firstError(Path log) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            return null;
        }
        String any = null;
        String died = null;
        for (String line : lines) {
            String l = line.strip();
            java.util.regex.Matcher exit = FORK_EXIT.matcher(l);
            if (exit.matches() && died == null) {
                died = forkDeath(Integer.parseInt(exit.group(1)));
            }
            if (EXCEPTION_LINE.matcher(l).matches()) {
                if (l.contains("io.p2pbench.")) {
                    return l.replaceFirst("^Caused by: ", "");
                }
                if (any == null) {
                    any = l;
                }
            }
        }
        return died != null ? died : any;
    }

    /** What JMH's "forked VM failed with exit code N" means, in one line. */
    static String forkDeath(int code) {
        String signal = switch (code - 128) {
            case 9 -> " (killed by SIGKILL: the out-of-memory killer, or a kill -9)";
            case 6 -> " (SIGABRT: the JVM or a native library aborted; see the log for hs_err)";
            case 11 -> " (SIGSEGV: a crash in native code; see the log for hs_err)";
            case 15 -> " (SIGTERM)";
            case 2 -> " (SIGINT)";
            default -> "";
        };
        return "the fork died with exit code " + code + signal + " before it reported a result";
    }
}
