package io.p2pbench.launch;

import io.p2pbench.cuda.CudaException;
import io.p2pbench.cuda.IpcMemHandle;
import io.p2pbench.cuda.NcclRank;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.Outcome;
import io.p2pbench.spec.Combination;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Runs a rank's steps of the plan: its side of each CUDA IPC copy of its host (exporting: fill, hand the handle
 * over through the job folder, keep the memory until the importer has unmapped it; importing: map, check,
 * measure, unmap) and its rank of each NCCL collective. A failure is recorded in the rank's entry with its reason
 * and the job goes on; a peer that ended or stopped answering fails only the steps that need it.
 */
final class RankSteps {
    private final RankState state;
    private final RankWorkload workload;
    private final JobRequest request;
    private final JobPlan plan;
    private final Watchdog dog;
    private boolean phaseReached;
    private String worldProblem;
    private Outcome worldProblemStatus;
    private String hostProblem;

    RankSteps(RankState state, RankWorkload workload, JobRequest request, JobPlan plan, Watchdog dog) {
        this.state = state;
        this.dog = dog;
        this.workload = workload;
        this.request = request;
        this.plan = plan;
    }

    void run(JobPlan.Step step) {
        if (step instanceof JobPlan.IpcStep ipc) {
            if (ipc.skipReason() != null) {
                return; // planned, on both sides: the importer's entry says why
            }
            if (ipc.exporter() == state.rank()) {
                export(ipc);
            } else {
                importCopy(ipc);
            }
        } else {
            collective((JobPlan.CollectiveStep) step);
        }
    }

    // ------------------------------------------------------------------ CUDA IPC

    private void export(JobPlan.IpcStep s) {
        JobFolder f = state.folder;
        if (s.previous() != null) {
            JobPlan.IpcStep before = (JobPlan.IpcStep) plan.steps().stream().filter(p -> p.id().equals(s.previous()))
                    .findFirst().orElseThrow();
            try {
                // One copy at a time per host: the one before must be over, or the two would share the links.
                f.await(f.stepDoneFile(before.id()), JobFolder.StepDone.class, state.patience, state.watch(before.ranks()),
                        "the end of copy " + before.id());
            } catch (JobFolder.Gone | LaunchException g) {
                state.say("note: " + g.getMessage() + "; going on with " + s.id());
            }
        }
        String gone = state.gone(s.importer());
        if (gone != null) {
            f.write(f.stepDoneFile(s.id()), new JobFolder.StepDone(state.rank(), "not exported: " + gone));
            return;
        }
        try {
            String error = null;
            byte[] handle = null;
            try {
                handle = dog.guard(s.id(), () -> workload.export(s.id(), state.me.gpu(), s.sizeBytes(), s.seed()));
            } catch (RuntimeException e) {
                error = oneLine(e);
            }
            f.write(f.handleFile(s.id()), new JobFolder.HandleMessage(state.rank(),
                    handle == null ? null : Base64.getEncoder().encodeToString(handle), s.sizeBytes(), s.seed(), error));
            try {
                f.await(f.stepDoneFile(s.id()), JobFolder.StepDone.class, state.patience, state.watch(List.of(s.importer())),
                        "rank " + s.importer() + "'s end of copy " + s.id());
            } catch (JobFolder.Gone g) {
                if (g.silent()) {
                    state.giveUpOn(s.importer());
                }
                f.write(f.stepDoneFile(s.id()), new JobFolder.StepDone(state.rank(), "given up: " + g.getMessage()));
            } catch (LaunchException unreadable) {
                state.say("note: " + unreadable.getMessage());
            }
        } finally {
            dog.guard(s.id(), () -> workload.unexport(s.id()));
        }
    }

    private void importCopy(JobPlan.IpcStep s) {
        JobFolder f = state.folder;
        Combination c = plan.combination(s, state.rank());
        try {
            JobFolder.HandleMessage h;
            try {
                h = f.await(f.handleFile(s.id()), JobFolder.HandleMessage.class, state.patience,
                        state.watch(List.of(s.exporter())), "rank " + s.exporter() + "'s CUDA IPC handle for " + s.id());
            } catch (JobFolder.Gone g) {
                if (g.silent()) {
                    state.giveUpOn(s.exporter());
                }
                fail(c, g.getMessage());
                return;
            } catch (LaunchException unreadable) {
                fail(c, unreadable.getMessage());
                return;
            }
            if (h.error() != null) {
                fail(c, "rank " + s.exporter() + " could not export its buffer: " + h.error());
                return;
            }
            byte[] handle = decode(h, s);
            if (handle == null) {
                fail(c, "rank " + s.exporter() + "'s handle file for " + s.id() + " does not match the plan (exporter "
                        + h.exporter() + ", " + h.sizeBytes() + " bytes, seed " + h.seed() + ")");
                return;
            }
            RankHello exporter = plan.world().get(s.exporter());
            String label = "rank " + s.exporter() + " GPU" + exporter.gpu() + " -> rank " + state.rank() + " GPU"
                    + state.me.gpu() + (s.sameGpu() ? " (same GPU)" : "");
            long t0 = System.nanoTime();
            try {
                RankWorkload.Measured m = dog.guard(s.id(), () -> workload.copyFrom(s.id(), label, state.me.gpu(), handle,
                        s.sizeBytes(), s.seed(), request.warmupBatches(), request.batches()));
                ok(c, m, (System.nanoTime() - t0) / 1e9, s.sameGpu() ? "intra-node, same GPU (single GPU)" : "intra-node");
            } catch (RuntimeException e) {
                fail(c, oneLine(e));
            }
        } finally {
            f.write(f.stepDoneFile(s.id()), new JobFolder.StepDone(state.rank(), "unmapped"));
        }
    }

    private static byte[] decode(JobFolder.HandleMessage h, JobPlan.IpcStep s) {
        if (h.exporter() != s.exporter() || h.sizeBytes() != s.sizeBytes() || h.seed() != s.seed() || h.handle() == null) {
            return null;
        }
        try {
            byte[] b = Base64.getDecoder().decode(h.handle());
            return b.length == IpcMemHandle.BYTES ? b : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ NCCL

    private void collective(JobPlan.CollectiveStep s) {
        Combination c = plan.combination(s, state.rank());
        if (!phaseReached) {
            // Every rank reaches its first collective step at the same point of the plan, skipped or not: the
            // communicators are made there, by all ranks together (ncclCommInitRank, ncclCommSplit are collective).
            phaseReached = true;
            if (runs(JobPlan.Scope.WORLD) || runs(JobPlan.Scope.HOST)) {
                reachPhase();
                if (worldProblem == null) {
                    openWorld(s);
                }
                if (worldProblem == null && runs(JobPlan.Scope.HOST)) {
                    openHost(s);
                }
            }
        }
        if (s.skipReason() != null) {
            return; // planned: the entry says why
        }
        if (worldProblem != null) {
            state.record(c.id(), worldProblemStatus, worldProblem, null, 0.0, null, null);
            return;
        }
        if (s.scope() == JobPlan.Scope.HOST && hostProblem != null) {
            fail(c, hostProblem);
            return;
        }
        long t0 = System.nanoTime();
        try {
            RankWorkload.Measured m = dog.guard(s.id(), () -> workload.collective(s.scope(), s.op(), s.type(),
                    s.sizeBytes(), request.warmupBatches(), request.batches()));
            ok(c, m, (System.nanoTime() - t0) / 1e9, s.span() + (s.sharedGpu() ? ", ranks share a GPU" : ""));
        } catch (CudaException e) {
            // A failed NCCL or CUDA call may leave the communicator unusable: the later collectives are not tried.
            fail(c, oneLine(e));
            worldProblem = "an earlier NCCL step failed on this rank: " + oneLine(e);
            worldProblemStatus = Outcome.FAILED;
        } catch (RuntimeException e) {
            fail(c, oneLine(e));
        }
    }

    /** Every rank has finished its copies before NCCL starts (NCCL's bootstrap would otherwise wait for them). */
    private void reachPhase() {
        JobFolder f = state.folder;
        f.write(f.phaseFile(state.rank(), "copies"), new JobFolder.StepDone(state.rank(), "copies done"));
        for (RankHello h : plan.world()) {
            if (h.rank() == state.rank()) {
                continue;
            }
            try {
                f.await(f.phaseFile(h.rank(), "copies"), JobFolder.StepDone.class, state.patience,
                        state.watch(List.of(h.rank())), "rank " + h.rank() + "'s end of the CUDA IPC copies");
            } catch (JobFolder.Gone g) {
                if (g.silent()) {
                    state.giveUpOn(h.rank());
                }
                worldProblem = "NCCL needs every rank, and " + g.getMessage();
                worldProblemStatus = Outcome.FAILED;
                return;
            }
        }
    }

    /** Whether any collective of {@code scope} is planned to run (the same answer on every rank). */
    private boolean runs(JobPlan.Scope scope) {
        return plan.steps().stream().anyMatch(p -> p instanceof JobPlan.CollectiveStep cs && cs.scope() == scope
                && cs.skipReason() == null);
    }

    private void openHost(JobPlan.CollectiveStep s) {
        String host = state.me.host();
        try {
            dog.guard(s.id(), () -> workload.joinHost(plan.hosts().indexOf(host), state.rank()));
        } catch (RuntimeException e) {
            hostProblem = "could not make the communicator of " + host + "'s ranks: " + oneLine(e);
            state.say("NCCL: " + hostProblem);
        }
    }

    private void openWorld(JobPlan.CollectiveStep s) {
        try {
            dog.guard(s.id(), () -> workload.joinWorld(state.me.gpu(), plan.world().size(), state.rank()));
        } catch (CudaException e) {
            boolean shared = plan.steps().stream().anyMatch(p -> p instanceof JobPlan.CollectiveStep cs && cs.sharedGpu());
            if (shared && NcclRank.invalidUsage(e)) {
                worldProblemStatus = Outcome.SKIPPED;
                worldProblem = "NCCL refuses two ranks of one communicator on one GPU: " + oneLine(e);
            } else {
                worldProblemStatus = Outcome.FAILED;
                worldProblem = "could not join the job's NCCL communicator: " + oneLine(e);
            }
        } catch (RuntimeException e) {
            worldProblemStatus = Outcome.FAILED;
            worldProblem = "could not join the job's NCCL communicator: " + oneLine(e);
        }
        if (worldProblem != null) {
            state.say("NCCL: " + worldProblem);
        }
    }

    // ------------------------------------------------------------------ outcomes

    private void ok(Combination c, RankWorkload.Measured m, double seconds, String where) {
        String samples = "samples/" + c.id() + ".json.gz";
        try {
            AtomicFiles.writeGzip(state.folder.samplesFile(state.rank(), c.id()), BenchmarkRecords.samplesJson(
                    new BatchSamples(c.id(), m.lanes(), m.bytesPerTransfer(), m.copiesPerBatch(), m.batches(),
                            m.bytesVerified())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the samples of " + c.id() + ": " + e.getMessage(), e);
        }
        state.record(c.id(), Outcome.OK, null, samples, seconds, m.headline(), m.bytesVerified());
        state.say(String.format(Locale.ROOT, "ok      %-44s %s  [%s]", c.id(), m.headline(), where));
    }

    private void fail(Combination c, String reason) {
        state.record(c.id(), Outcome.FAILED, reason, null, null, null, null);
        state.say(String.format(Locale.ROOT, "failed  %-44s %s", c.id(), reason));
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage();
        String first = m == null ? "" : m.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
        return first.isEmpty() ? e.getClass().getSimpleName() : first;
    }
}
