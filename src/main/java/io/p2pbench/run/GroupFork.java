package io.p2pbench.run;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.fork.ForkPhases;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Metric;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.SkipCause;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openjdk.jmh.runner.CompilerHints;

/**
 * One fork group ({@link ForkGroups}) in one JVM ({@link ForkGroupMain}), which reports each combination's start
 * and end on its standard output ({@link ForkChannel}); when that JVM dies or is killed by the watchdog, the running
 * combination is recorded failed or timed out and a new JVM runs the rest; so do a JVM that reports the end of
 * another combination than the one running and one whose CUDA context a sticky error poisoned.
 */
final class GroupFork {
    private final ForkContext run;

    GroupFork(ForkContext run) {
        this.run = run;
    }

    /** One combination's files and limit while its fork group runs, and what the JVM printed outside JMH meanwhile. */
    private record Slot(ForkOutcome.ForkFiles files, double limit, StringBuilder stray) {
        int index() {
            return files.index();
        }

        Combination c() {
            return files.c();
        }
    }

    /** Runs the combinations {@code group} of {@code plan} in {@code round}; false when the run must stop. */
    boolean run(List<Integer> group, List<Combination> plan, Round round) throws IOException {
        List<Integer> remaining = new ArrayList<>(group);
        while (!remaining.isEmpty()) {
            Map<Integer, Slot> slots = new LinkedHashMap<>();
            List<ForkGroupMain.Task> tasks = new ArrayList<>();
            for (int k = 0; k < remaining.size(); k++) {
                int i = remaining.get(k);
                Combination c = plan.get(i);
                ForkOutcome.ForkFiles f = run.outcome().prepare(i, c, round);
                Files.deleteIfExists(run.folder().resolve(f.logRel()));
                Preset.Timing full = round.timing(run.preset().timing(Metric.of(c.metric())), c);
                // The first combination of a JVM warms it up (longer where it opens a later round of partition
                // decode steps); later ones find the JIT and the GPU warm.
                Preset.Timing timing = ForkGroups.inJvm(full, k, round, c);
                slots.put(i, new Slot(f, run.forkLimitSeconds().applyAsDouble(c), new StringBuilder()));
                tasks.add(new ForkGroupMain.Task(i, c, run.stagingChunkBytes(),
                        timing.warmupIterations(), timing.warmupMillis(), timing.measurementMillis(), f.tmpJson().toString(),
                        run.folder().resolve(f.logRel()).toString(), f.phaseFile().toString()));
            }
            Path taskFile = Files.createTempFile("p2pbench-fork-group-", ".json");
            try {
                Files.writeString(taskFile, ResultFolder.mapper().writeValueAsString(tasks));
                Slot first = slots.get(remaining.get(0));
                String launcher = launcher(first.c());
                if (launcher == null) {
                    for (int i : List.copyOf(remaining)) {
                        Slot sl = slots.get(i);
                        RunManifest.Entry e = RunManifest.Entry.skipped(sl.c(), SkipCause.NO_NUMACTL,
                                NumaLauncher.NO_NUMACTL, null, 0.0);
                        remaining.remove(Integer.valueOf(i));
                        if (!run.recorder().record(i, sl.c(), e, 0, round)) {
                            return false;
                        }
                    }
                    return true;
                }
                String token = ForkChannel.newToken();
                if (!runJvm(command(launcher, first.c(), taskFile, token, round), token, remaining, slots, round)) {
                    return false;
                }
            } finally {
                Files.deleteIfExists(taskFile);
                for (Slot sl : slots.values()) {
                    Files.deleteIfExists(sl.files().phaseFile());
                }
            }
        }
        return true;
    }

    /** The java launcher of the group's JVM; null when its NUMA binding needs numactl and there is none. */
    private String launcher(Combination first) throws IOException {
        if (run.forkJvm() != null) {
            return run.forkJvm().toString();
        }
        Integer node = run.numaNode().apply(first);
        if (node != null) {
            Path wrapper = run.numa().forNode(node);
            return wrapper == null ? null : wrapper.toString();
        }
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private List<String> command(String launcher, Combination first, Path taskFile, String token, Round round) {
        List<String> cmd = new ArrayList<>();
        cmd.add(launcher);
        cmd.addAll(run.extraJvmArgs());
        cmd.addAll(round.jvmArgs());
        // The first combination's id on the command line names the JVM in process listings.
        cmd.addAll(ForkChannel.jvmArgs(run.folder().dir(), first.id(), null));
        cmd.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        if (System.getProperty("jmh.ignoreLock") != null) {
            cmd.add("-Djmh.ignoreLock=" + System.getProperty("jmh.ignoreLock"));
        }
        cmd.addAll(run.archive().jvmArgs());
        // What JMH adds to the command of a JVM it forks (Runner.getForkedMainCommand).
        CompilerHints.addCompilerHints(cmd);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(ForkGroupMain.class.getName());
        cmd.add(taskFile.toString());
        cmd.add(token);
        return cmd;
    }

    /**
     * One JVM of a fork group: reads its progress lines (those with {@code token}), records each combination as it
     * ends. The JVM is done with when it reports the end of another combination than the one running (broken: the
     * running one fails, naming both) or a combination that poisoned its CUDA context; the rest go to a new JVM.
     */
    private boolean runJvm(List<String> cmd, String token, List<Integer> remaining, Map<Integer, Slot> slots,
                           Round round) throws IOException {
        AtomicBoolean timedOut = new AtomicBoolean();
        Slot cur = slots.get(remaining.get(0));
        long curStart = ForkPhases.nowMicros();
        // Before the JVM starts: an interruption from then on names this combination as the one interrupted.
        if (!run.state().begin(cur.index())) {
            return false;
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (run.state().interrupted()) {
            ForkWatchdog.killForks();
            return false;
        }
        ScheduledFuture<?> kill = run.watchdog().arm(cur.limit(), timedOut);
        String broken = null;
        boolean poisoned = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                ForkChannel.Start start = ForkChannel.Start.parse(line, token);
                if (start != null) {
                    appendBefore(cur, start.before());
                    continue;
                }
                ForkChannel.Done done = ForkChannel.Done.parse(line, token);
                if (done == null) {
                    cur.stray().append(line).append('\n');
                    continue;
                }
                appendBefore(cur, done.before());
                kill.cancel(false);
                if (done.index() != cur.index()) {
                    broken = "the fork JVM reported the end of combination " + done.index() + " while combination "
                            + cur.index() + " (" + cur.c().id() + ") was running, so that JVM was treated as broken; "
                            + "the rest of its group ran in a new JVM";
                    break;
                }
                double seconds = Math.max(0, done.micros() - curStart) / 1e6;
                run.phases().record(cur.c(), cur.files().phaseFile(), curStart, done.micros());
                appendStray(cur);
                RunManifest.Entry e = run.outcome().conclude(cur.files(), done.error() == null, done.error(), false,
                        cur.limit(), seconds);
                remaining.remove(Integer.valueOf(cur.index()));
                if (!run.recorder().record(cur.index(), cur.c(), e, seconds, round)) {
                    ForkWatchdog.killForks();
                    return false;
                }
                if (remaining.isEmpty() || done.poisoned()) {
                    poisoned = done.poisoned();
                    break;
                }
                cur = slots.get(remaining.get(0));
                curStart = done.micros();
                run.state().begin(cur.index());
                kill = run.watchdog().arm(cur.limit(), timedOut);
            }
        } finally {
            kill.cancel(false);
        }
        if (broken != null) {
            p.destroyForcibly();
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
        if (remaining.isEmpty() || poisoned) {
            return true;
        }
        if (run.state().interrupted()) {
            return false;
        }
        if (broken != null) {
            long now = ForkPhases.nowMicros();
            double seconds = Math.max(0, now - curStart) / 1e6;
            run.phases().record(cur.c(), cur.files().phaseFile(), curStart, now);
            appendStray(cur);
            RunManifest.Entry e = run.outcome().conclude(cur.files(), false, broken, false, cur.limit(), seconds);
            remaining.remove(Integer.valueOf(cur.index()));
            return run.recorder().record(cur.index(), cur.c(), e, seconds, round);
        }
        // The JVM ended while cur was running: a crash, a kill, or the watchdog. The rest go to a new JVM.
        long now = ForkPhases.nowMicros();
        double seconds = Math.max(0, now - curStart) / 1e6;
        run.phases().record(cur.c(), cur.files().phaseFile(), curStart, now);
        cur.stray().append("<the fork JVM ended with exit code ").append(exit).append(timedOut.get()
                ? ", killed by the watchdog" : "").append(">\n");
        appendStray(cur);
        RunManifest.Entry e = run.outcome().conclude(cur.files(), false,
                exit == 0 ? "the fork ended before it reported a result" : ForkLog.forkDeath(exit), timedOut.get(),
                cur.limit(), seconds);
        remaining.remove(Integer.valueOf(cur.index()));
        return run.recorder().record(cur.index(), cur.c(), e, seconds, round);
    }

    /** Another writer's unfinished line that a progress line was appended to: the running combination's output. */
    private static void appendBefore(Slot slot, String before) {
        if (!before.isEmpty()) {
            slot.stray().append(before).append('\n');
        }
    }

    /** What the fork JVM printed outside JMH during this combination, appended to its log. */
    private void appendStray(Slot slot) throws IOException {
        if (slot.stray().length() == 0) {
            return;
        }
        Path log = run.folder().resolve(slot.files().logRel());
        Files.writeString(log, slot.stray(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        slot.stray().setLength(0);
    }
}
