package io.p2pbench.launch;

import io.p2pbench.results.AtomicFiles;
import io.p2pbench.spec.Combination;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.results.RunStatus;
import io.p2pbench.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rank 0's end of a job: waits for every rank to end (giving up on a rank that exited, or made no progress for
 * {@code P2PBENCH_RANK_TIMEOUT}), then writes one result folder ({@code docs/results-format.md}) with every rank's
 * entries, each naming its host, rank and GPU. What a rank finished is kept; what it never finished is a failed
 * entry naming the rank and why. The job folder keeps only {@code collected.json} afterwards.
 *
 * <p>Parts come from other processes: only entries the plan gives that rank are taken, by id, with the status
 * and figures they report; placements come from the hellos, samples files from the rank's own folder by the
 * plan's ids, never from a path a part names.
 */
final class JobCollector {
    private final RankState state;
    private final JobPlan plan;
    private final JobRequest request;
    private final LaunchSettings settings;
    private final Topology topology;
    private final Instant started;
    private final PrintWriter err;

    JobCollector(RankState state, JobPlan plan, JobRequest request, LaunchSettings settings, Topology topology,
                 Instant started, PrintWriter err) {
        this.state = state;
        this.plan = plan;
        this.request = request;
        this.settings = settings;
        this.topology = topology;
        this.started = started;
        this.err = err;
    }

    /** Collects the job; returns rank 0's exit code: 0 when every entry is ok or skipped, else 1. */
    int collect() {
        JobFolder f = state.folder;
        Map<Integer, String> unfinished = new LinkedHashMap<>();
        for (RankHello h : plan.world()) {
            if (h.rank() == state.rank()) {
                continue;
            }
            try {
                JobFolder.RankDone d = f.await(f.doneFile(h.rank()), JobFolder.RankDone.class, state.patience,
                        awaitEnd(h.rank()), "the end of " + h.describe());
                if (d.end() == RankEnd.REFUSED) {
                    unfinished.put(h.rank(), "it refused to run: " + d.message());
                }
            } catch (JobFolder.Gone g) {
                unfinished.put(h.rank(), g.silent() ? "it made no progress for " + state.patience.toSeconds()
                        + " s (P2PBENCH_RANK_TIMEOUT)" : String.valueOf(state.gone(h.rank())));
            }
        }
        List<RunManifest.Entry> entries = new ArrayList<>();
        Map<Integer, Map<String, RunManifest.Entry>> reported = new HashMap<>();
        for (RankHello h : plan.world()) {
            reported.put(h.rank(), h.rank() == state.rank() ? byId(state.entries()) : readPart(h.rank()));
        }
        try {
            Topology t = plan.hosts().size() > 1 ? withFingerprint(topology, topology.fingerprint() + "-"
                    + plan.hosts().size() + "hosts") : topology;
            ResultFolder folder = ResultFolder.create(request.out(), t, started);
            for (JobPlan.Step s : plan.steps()) {
                for (int r : s.ranks()) {
                    if (s instanceof JobPlan.IpcStep ipc && ipc.importer() != r) {
                        continue;
                    }
                    entries.add(entry(folder, plan.combination(s, r), plan.world().get(r), reported.get(r),
                            unfinished.get(r)));
                }
            }
            RunManifest m = new RunManifest(RunManifest.FORMAT, settings.suiteVersion(), settings.suiteBuild(),
                    request.command(), request.preset(), t.fingerprint(), started.toString(), Instant.now().toString(),
                    unfinished.isEmpty() ? RunStatus.COMPLETE : RunStatus.INTERRUPTED, settings(unfinished), entries);
            folder.writeManifest(m);
            f.write(f.collectedFile(), Map.of("resultFolder", folder.dir().toString()));
            clean(f);
            return JobReport.end(state.out(), plan, folder, m, unfinished, err);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job's result folder under " + request.out() + ": "
                    + e.getMessage() + "; every rank's part stays in " + f.dir(), e);
        }
    }

    /** Waiting for a rank's end: gone only when its process exited on this host; progress while its part changes. */
    private JobFolder.Watch awaitEnd(int rank) {
        return state.watch(List.of(rank), state::exited);
    }

    private Map<String, RunManifest.Entry> readPart(int rank) {
        Path file = state.folder.partFile(rank);
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        try {
            JobFolder.RankPart p = state.folder.read(file, JobFolder.RankPart.class);
            return p.rank() == rank && p.entries() != null ? byId(p.entries()) : Map.of();
        } catch (RuntimeException unreadable) {
            err.println("p2pbench: rank " + rank + "'s part " + file + " is unreadable (" + RankSteps.oneLine(unreadable)
                    + "); its entries count as not finished");
            return Map.of();
        }
    }

    private static Map<String, RunManifest.Entry> byId(List<RunManifest.Entry> entries) {
        Map<String, RunManifest.Entry> out = new HashMap<>();
        for (RunManifest.Entry e : entries) {
            if (e != null && e.combination() != null && e.combination().id() != null && e.outcome() != null) {
                out.put(e.combination().id(), e);
            }
        }
        return out;
    }

    private RunManifest.Entry entry(ResultFolder folder, Combination c, RankHello h, Map<String, RunManifest.Entry> part,
                                    String unfinished) throws IOException {
        RunManifest.Entry e = part.get(c.id());
        // A rank reports what it ran: pending (never reached) or interrupted (no rank writes it) is not finished.
        Outcome status = e == null || e.outcome() == Outcome.INTERRUPTED ? Outcome.PENDING : e.outcome();
        if (status == Outcome.PENDING) {
            String why = unfinished != null ? unfinished : "it reported no outcome for this entry";
            return new RunManifest.Entry(c, Outcome.FAILED, h.describe() + " did not finish: " + why, null, null, null,
                    null, null, null, h.placement());
        }
        String samples = null;
        if (status == Outcome.OK) {
            Path from = state.folder.samplesFile(h.rank(), c.id());
            if (Files.isRegularFile(from)) {
                samples = "samples/" + c.id() + ".json.gz";
                AtomicFiles.write(folder.resolve(samples), Files.readAllBytes(from));
            }
        }
        String reason = e.reason() == null ? null : e.reason().lines().findFirst().orElse("");
        return new RunManifest.Entry(c, status, reason, null, samples, null, e.seconds(), e.headline(),
                status == Outcome.OK ? e.bytesVerified() : null, h.placement());
    }

    private Map<String, Object> settings(Map<Integer, String> unfinished) {
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("id", settings.jobId());
        job.put("launcher", plan.world().get(0).launcher());
        job.put("worldSize", plan.world().size());
        job.put("hosts", plan.hosts());
        job.put("measuredWith", plan.world().get(0).workload());
        String commId = plan.world().get(0).ncclCommId();
        job.put("ncclBootstrap", commId == null ? "NCCL_COMM_ID unset" : "NCCL_COMM_ID=" + commId);
        job.put("rankTimeoutSeconds", settings.rankTimeout().toSeconds());
        job.put("ranks", plan.world());
        if (!unfinished.isEmpty()) {
            Map<String, String> why = new LinkedHashMap<>();
            unfinished.forEach((r, w) -> why.put(Integer.toString(r), w));
            job.put("unfinishedRanks", why);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("job", job);
        s.put("warmupBatches", request.warmupBatches());
        s.put("batches", request.batches());
        return s;
    }

    private static Topology withFingerprint(Topology t, String fingerprint) {
        List<String> notes = new ArrayList<>(t.notes() == null ? List.of() : t.notes());
        notes.add("a job over several hosts: this is rank 0's host; every rank's host and GPU are in the manifest "
                + "(settings.job.ranks)");
        return new Topology(t.suiteVersion(), t.capturedAt(), t.host(), t.gpus(), t.pairs(), fingerprint, notes);
    }

    /** Deletes the collected files of the job folder; collected.json stays, so the id is not reused by mistake. */
    private static void clean(JobFolder f) {
        try (var walk = Files.walk(f.dir())) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(f.dir()) && !p.equals(f.collectedFile())) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // A rank still writing (one that hung and came back) may recreate files; they are not needed.
        }
    }
}
