package io.p2pbench.launch;

import io.p2pbench.spec.Combination;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.RunManifest;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * What one rank knows while it runs: its hello, every rank's, its entries (written to {@code part.json} after
 * every change, so a rank that dies later keeps what it finished), and which other ranks it has given up on.
 * Shared by the step runner and the watchdog thread; every change holds the lock.
 */
final class RankState {
    final JobFolder folder;
    final RankHello me;
    final Duration patience;
    private final PrintWriter out;
    private final Map<Integer, RankHello> world = new ConcurrentHashMap<>();
    private final Set<Integer> silent = ConcurrentHashMap.newKeySet();
    private final List<RunManifest.Entry> entries = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private boolean ended;

    RankState(JobFolder folder, RankHello me, Duration patience, PrintWriter out) {
        this.folder = folder;
        this.me = me;
        this.patience = patience;
        this.out = out;
        world.put(me.rank(), me);
    }

    int rank() {
        return me.rank();
    }

    /** Where this rank prints. */
    PrintWriter out() {
        return out;
    }

    void know(RankHello other) {
        world.put(other.rank(), other);
    }

    /** Prints a line of this rank, prefixed {@code [rank R]}. */
    void say(String line) {
        synchronized (out) {
            out.println("[rank " + me.rank() + "] " + line);
            out.flush();
        }
    }

    /** Why rank {@code r} will never write again, or null while it may: it ended, exited, or stopped answering. */
    String gone(int r) {
        if (silent.contains(r)) {
            return "rank " + r + " stopped answering earlier in this job";
        }
        if (Files.isRegularFile(folder.doneFile(r))) {
            JobFolder.RankDone d;
            try {
                d = folder.read(folder.doneFile(r), JobFolder.RankDone.class);
            } catch (RuntimeException unreadable) {
                return "rank " + r + " has ended";
            }
            return "rank " + r + " has ended (" + d.state() + (d.message() == null ? "" : ": " + d.message()) + ")";
        }
        return exited(r);
    }

    /**
     * Why rank {@code r} cannot write again because its process is gone, or null: known only for a rank of this
     * host and PID namespace (elsewhere only its silence tells).
     */
    String exited(int r) {
        RankHello h = world.get(r);
        if (h != null && r != me.rank() && h.host().equals(me.host()) && h.pidNamespace() != null
                && h.pidNamespace().equals(me.pidNamespace())
                && ProcessHandle.of(h.pid()).map(p -> !p.isAlive()).orElse(true)) {
            return "rank " + r + " (pid " + h.pid() + " on " + h.host() + ") has exited";
        }
        return null;
    }

    /** Marks rank {@code r} as not answering, so later waits for it end at once. */
    void giveUpOn(int r) {
        silent.add(r);
    }

    /** A wait's watch over {@code ranks}: gone when any of them is, progressing while any of their parts changes. */
    JobFolder.Watch watch(Collection<Integer> ranks) {
        return watch(ranks, this::gone);
    }

    /** A watch over {@code ranks} that counts them gone when {@code why} says so. */
    JobFolder.Watch watch(Collection<Integer> ranks, IntFunction<String> why) {
        return new JobFolder.Watch() {
            @Override
            public String whyNever() {
                for (int r : ranks) {
                    String never = why.apply(r);
                    if (never != null) {
                        return never;
                    }
                }
                return null;
            }

            @Override
            public long progress() {
                long sum = 0;
                for (int r : ranks) {
                    sum += JobFolder.stamp(folder.partFile(r)) + JobFolder.stamp(folder.helloFile(r));
                }
                return sum;
            }
        };
    }

    /** Starts the entry list from the plan: pending, or skipped with the planned reason. */
    synchronized void plan(List<Combination> combinations) {
        for (Combination c : combinations) {
            RunManifest.Entry p = RunManifest.Entry.planned(c);
            index.put(c.id(), entries.size());
            entries.add(new RunManifest.Entry(c, p.outcome(), p.reason(), null, null, null, p.seconds(), null, null,
                    me.placement()));
        }
        writePart();
    }

    /** This rank's entry {@code id}. */
    synchronized RunManifest.Entry entry(String id) {
        return entries.get(index.get(id));
    }

    /** Records the outcome of entry {@code id} and rewrites the part, unless the rank has already ended. */
    synchronized void record(String id, Outcome status, String reason, String samplesFile, Double seconds,
                             String headline, Long bytesVerified) {
        if (ended) {
            return;
        }
        RunManifest.Entry e = entry(id);
        entries.set(index.get(id), new RunManifest.Entry(e.combination(), status, reason, null, samplesFile, null,
                seconds, headline, bytesVerified, me.placement()));
        writePart();
    }

    /** A copy of every entry. */
    synchronized List<RunManifest.Entry> entries() {
        return List.copyOf(entries);
    }

    private void writePart() {
        folder.write(folder.partFile(me.rank()), new JobFolder.RankPart(me.rank(), List.copyOf(entries)));
    }

    /**
     * Ends the rank: pending entries become {@code pendingStatus} with {@code reason} (when not null), the part is
     * written a last time, then {@code done.json}. Returns false if it had already ended (the other thread did).
     */
    synchronized boolean end(RankEnd state, String message, Outcome pendingStatus, String reason) {
        if (ended) {
            return false;
        }
        if (pendingStatus != null) {
            for (int i = 0; i < entries.size(); i++) {
                RunManifest.Entry e = entries.get(i);
                if (e.outcome() == Outcome.PENDING) {
                    entries.set(i, new RunManifest.Entry(e.combination(), pendingStatus, reason, null, null, null,
                            null, null, null, me.placement()));
                }
            }
            writePart();
        }
        ended = true;
        folder.write(folder.doneFile(me.rank()), new JobFolder.RankDone(me.rank(), state, message));
        return true;
    }

    /** Counts of this rank's entries by status: ok, skipped, failed (failed, timeout, pending). */
    synchronized int[] counts() {
        int[] c = new int[3];
        for (RunManifest.Entry e : entries) {
            c[e.outcome() == Outcome.OK ? 0 : e.outcome() == Outcome.SKIPPED ? 1 : 2]++;
        }
        return c;
    }
}
