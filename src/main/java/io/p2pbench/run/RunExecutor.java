package io.p2pbench.run;

import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.Combination;
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
    private Double forkLimitSeconds;

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

    /** Tests: the outer timeout of every fork, instead of max(120 s, 4 x predicted). */
    RunExecutor forkLimitSeconds(double seconds) {
        this.forkLimitSeconds = seconds;
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
        double predictedLeft = RunPlanner.predictedSeconds(plan);
        double predictedDone = 0;
        double actualDone = 0;
        int toRun = (int) plan.stream().filter(c -> !c.plannedSkip()).count();
        int done = 0;
        try {
            for (int i = 0; i < plan.size(); i++) {
                Combination c = plan.get(i);
                if (c.plannedSkip()) {
                    continue;
                }
                synchronized (lock) {
                    if (interrupted) {
                        break;
                    }
                    current = i;
                }
                long t0 = System.nanoTime();
                RunManifest.Entry e = runOne(i, c);
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
                    throw new RunLock.Held("another JMH run took JMH's lock (" + Path.of(
                            System.getProperty("java.io.tmpdir"), "jmh.lock") + ") during this run, which stopped "
                            + "rather than measure beside it; what finished before is in " + folder.dir());
                }
                double took = (System.nanoTime() - t0) / 1e9;
                done++;
                predictedDone += c.predictedSeconds();
                predictedLeft -= c.predictedSeconds();
                actualDone += took;
                double eta = predictedLeft * (actualDone / Math.max(predictedDone, 1e-9));
                synchronized (lock) {
                    if (interrupted) {
                        // The JVM is exiting on a signal and the hook has written "interrupted" with this
                        // benchmark as interrupted (its fork was killed): this late result must not replace it.
                        break;
                    }
                    entries.set(i, e);
                    current = -1;
                    write("running");
                }
                out.printf(Locale.ROOT, "[%3d/%d] %-7s %-48s %s  (%.1fs, ETA %s)%n", done, toRun, e.status(), c.id(),
                        e.headline() != null ? e.headline() + verifiedNote(e) : e.reason() == null ? "" : e.reason(), took,
                        RunPlanner.formatDuration(eta));
                out.flush();
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
        double limit = forkLimitSeconds != null ? forkLimitSeconds : Math.max(120, 4 * c.predictedSeconds());
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> kill = watchdog.schedule(() -> {
            timedOut.set(true);
            killForks();
        }, (long) (limit * 1000), TimeUnit.MILLISECONDS);
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
        BenchmarkRecords.Target target = new BenchmarkRecords.Target(folder.dir(), c.id());
        RunManifest.Entry e = outcome(c, target, tmpJson, stem, logRel, results, runnerError, timedOut.get(), limit,
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
                                      String logRel, Collection<RunResult> results, String runnerError,
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
        if (results.isEmpty() || !Files.isRegularFile(tmpJson) || Files.size(tmpJson) < 4) {
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
        String jmhRel = folder.storeJmh(tmpJson, stem);
        String samplesRel = Files.isRegularFile(target.samplesFile())
                ? folder.dir().relativize(target.samplesFile()).toString() : null;
        return new RunManifest.Entry(c, "ok", null, jmhRel, samplesRel, logRel, seconds,
                headline(c, results.iterator().next()), verified);
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
