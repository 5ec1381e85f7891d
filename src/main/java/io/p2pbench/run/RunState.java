package io.p2pbench.run;

import io.p2pbench.spec.Combination;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.results.RunStatus;
import io.p2pbench.topology.SuiteBuild;
import io.p2pbench.topology.TopologyProbe;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run's manifest and whether the run was interrupted. The manifest is rewritten atomically after every
 * benchmark, so an interrupted run keeps everything that finished; the interrupt hook (a signal, the JVM
 * exiting) marks the running benchmark interrupted, and nothing may overwrite that afterwards.
 */
final class RunState {
    private final ResultFolder folder;
    private final List<RunManifest.Entry> entries = new ArrayList<>();
    private final Object lock = new Object();
    private RunManifest manifest;
    private int current = -1;
    private boolean finished;
    /** Set by the interrupt hook: the manifest says "interrupted" and nothing may overwrite it. */
    private boolean interrupted;

    RunState(ResultFolder folder) {
        this.folder = folder;
    }

    /** Writes the manifest of a run that starts now, every combination planned. */
    void start(String command, String preset, String fingerprint, Map<String, Object> settings, List<Combination> plan)
            throws IOException {
        String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        for (Combination c : plan) {
            entries.add(RunManifest.Entry.planned(c));
        }
        manifest = new RunManifest(RunManifest.FORMAT, TopologyProbe.SUITE_VERSION, SuiteBuild.CURRENT, command,
                preset, fingerprint, started, null, RunStatus.RUNNING, settings, entries);
        folder.writeManifest(manifest);
    }

    /** The manifest as last written. */
    RunManifest manifest() {
        synchronized (lock) {
            return manifest;
        }
    }

    /** Whether the interrupt hook ran. */
    boolean interrupted() {
        synchronized (lock) {
            return interrupted;
        }
    }

    /**
     * Combination {@code index} runs from now on: an interruption names it as the one interrupted. False (and
     * nothing changes) when the run was interrupted already.
     */
    boolean begin(int index) {
        synchronized (lock) {
            if (interrupted) {
                return false;
            }
            current = index;
            return true;
        }
    }

    /**
     * Records combination {@code index}'s entry; false when the run was interrupted meanwhile: the JVM is exiting
     * on a signal and the hook has written "interrupted" with this benchmark interrupted (its fork was killed), so
     * this late result must not replace it.
     */
    boolean finish(int index, RunManifest.Entry e) throws IOException {
        return finish(index, e, Round.ONLY, 1);
    }

    /**
     * Records round {@code round} of combination {@code index}, which is measured in {@code rounds} rounds: the
     * entry of a combination measured once, or the round joined to the entry's earlier rounds ({@link #joined}).
     */
    boolean finish(int index, RunManifest.Entry e, Round round, int rounds) throws IOException {
        synchronized (lock) {
            if (interrupted) {
                return false;
            }
            entries.set(index, rounds == 1 ? e : joined(entries.get(index), e, round.index(), rounds));
            current = -1;
            write(RunStatus.RUNNING);
            return true;
        }
    }

    /** Whether combination {@code index} is ok so far (every round measured until now ok). */
    boolean ok(int index) {
        synchronized (lock) {
            return entries.get(index).outcome() == Outcome.OK;
        }
    }

    /**
     * The entry of a combination after round {@code r} (0-based) of {@code rounds}: every round so far in {@code
     * rounds}; ok while every round is, else the status of the round that was not, its reason naming the round; the
     * files and headline of the first round, the seconds and verified bytes of all.
     */
    static RunManifest.Entry joined(RunManifest.Entry before, RunManifest.Entry e, int r, int rounds) {
        List<RunManifest.RoundResult> all = new ArrayList<>(r == 0 || before.rounds() == null ? List.of() : before.rounds());
        all.add(e.asRound());
        RunManifest.RoundResult first = all.get(0);
        boolean ok = all.stream().allMatch(x -> x.outcome() == Outcome.OK);
        Outcome status = ok ? Outcome.OK : e.outcome();
        String reason = ok ? null : "round " + (r + 1) + " of " + rounds + ": " + e.reason();
        double seconds = all.stream().mapToDouble(x -> x.seconds() == null ? 0 : x.seconds()).sum();
        Long verified = ok ? all.stream().mapToLong(x -> x.bytesVerified() == null ? 0 : x.bytesVerified()).sum() : null;
        return new RunManifest.Entry(e.combination(), status, reason, ok ? first.jmhFile() : null,
                ok ? first.samplesFile() : null, ok ? first.logFile() : e.logFile(), seconds,
                ok ? first.headline() : null, verified, null, List.copyOf(all), ok ? null : e.skipCause());
    }

    /** Ends the run at combination {@code index} because another JMH run took JMH's lock. */
    void stopForJmhLock(int index, RunManifest.Entry e) throws IOException {
        synchronized (lock) {
            entries.set(index, e);
            current = -1;
            finished = true;
            write(RunStatus.INTERRUPTED);
        }
    }

    /** Marks the run complete, unless it was interrupted. */
    void complete() throws IOException {
        synchronized (lock) {
            if (!interrupted) {
                finished = true;
                write(RunStatus.COMPLETE);
            }
        }
    }

    /** The interrupt hook: kills the forks and records the run, and the running combination, as interrupted. */
    void onInterrupt() {
        synchronized (lock) {
            if (finished) {
                return;
            }
            interrupted = true;
            ForkWatchdog.killForks();
            // A combination whose earlier rounds finished ok keeps them: only its running round is lost.
            if (current >= 0 && entries.get(current).outcome() != Outcome.OK) {
                RunManifest.Entry e = entries.get(current);
                entries.set(current, new RunManifest.Entry(e.combination(), Outcome.INTERRUPTED,
                        "the run was interrupted", null, null, e.logFile(), null, null));
            }
            try {
                write(RunStatus.INTERRUPTED);
            } catch (IOException ignored) {
                // nothing more can be done while the JVM exits
            }
        }
    }

    private void write(RunStatus state) throws IOException {
        String end = state == RunStatus.RUNNING ? null : Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        manifest = new RunManifest(manifest.format(), manifest.suiteVersion(), manifest.suiteBuild(), manifest.command(),
                manifest.preset(), manifest.fingerprint(), manifest.startedAt(), end, state, manifest.settings(),
                List.copyOf(entries));
        folder.writeManifest(manifest);
    }
}
