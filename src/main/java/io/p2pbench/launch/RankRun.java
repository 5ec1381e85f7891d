package io.p2pbench.launch;

import io.p2pbench.results.Outcome;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * One rank of {@code p2pbench run} started by a launcher ({@code docs/multiprocess.md}): binds to its GPU,
 * announces itself in the job folder, waits for every rank, makes the job's plan, runs its part of it, and ends;
 * rank 0 then collects every rank's part into one result folder ({@link JobCollector}).
 *
 * <p>Faults: a CUDA or NCCL call that hangs is ended by a watchdog after twice {@code P2PBENCH_RANK_TIMEOUT}: the
 * rank records it as timed out, writes what it finished, says it ended, and exits (rank 0 collects first). Ranks
 * that wait for a peer give up when it ended, exited (same host) or made no progress for the timeout.
 */
public final class RankRun {
    private final LaunchEnvironment launch;
    private final LaunchSettings settings;
    private final JobRequest request;
    private final Supplier<RankWorkload> workloads;
    private RankWorkload workload;
    private final PrintWriter out;
    private final PrintWriter err;
    private final IntConsumer halt;

    /**
     * @param halt ends the process after a hang (Runtime.halt in production: a thread stuck in a native call
     *     cannot be stopped otherwise)
     */
    public RankRun(LaunchEnvironment launch, LaunchSettings settings, JobRequest request,
                   Supplier<RankWorkload> workload, PrintWriter out, PrintWriter err, IntConsumer halt) {
        this.launch = launch;
        this.settings = settings;
        this.request = request;
        this.workloads = workload;
        this.out = out;
        this.err = err;
        this.halt = halt;
    }

    /** The workload {@code settings} ask for: CUDA IPC and NCCL, or a test stand-in. */
    public static RankWorkload workload(LaunchSettings settings) {
        if (settings.workloadClass() == null) {
            return new GpuRankWorkload();
        }
        try {
            return (RankWorkload) Class.forName(settings.workloadClass()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new LaunchException("-D" + LaunchSettings.WORKLOAD_PROPERTY + "=" + settings.workloadClass()
                    + " names no RankWorkload class with a public no-argument constructor (" + e + ")");
        }
    }

    /**
     * Runs this rank; returns its exit code: 0 when every entry is ok or skipped, 1 when one failed or (rank 0) a
     * rank did not finish.
     *
     * @throws LaunchException (exit code 2) when the job cannot run as started; the rank says so in the job folder
     *     first, so that the others stop waiting for it
     */
    public int run() {
        JobFolder folder = JobFolder.at(request.out(), settings.jobId());
        Topology topology;
        RankGpu gpu;
        try {
            workload = workloads.get();
            topology = workload.topology();
            gpu = RankGpu.bind(launch, settings.host(), topology.gpuCount(), settings.cudaVisibleDevices());
        } catch (RuntimeException e) {
            // Said in the job folder first, so that the other ranks stop waiting for this one at once.
            folder.write(folder.doneFile(launch.rank()), new JobFolder.RankDone(launch.rank(), RankEnd.REFUSED,
                    RankSteps.oneLine(e)));
            if (workload != null) {
                workload.close();
            }
            throw e;
        }
        GpuInfo g = topology.gpu(gpu.device());
        RankHello me = new RankHello(launch.rank(), launch.worldSize(), launch.localRank(), launch.localWorldSize(),
                settings.host(), launch.nodeId(), ProcessHandle.current().pid(), pidNamespace(), Instant.now().toString(),
                launch.launcher().label(), settings.suiteVersion(), settings.suiteBuild(), gpu.device(), g.uuid(),
                g.pciBusId(), g.numaNode(), NumaCheck.describe(topology.host().numaNodes(), g.numaNode()),
                settings.cudaVisibleDevices(), settings.ncclCommId(),
                launch.rank() == 0 && settings.ncclCommId() != null ? isThisHost(settings.ncclCommId()) : null,
                workload.label(), topology.fingerprint(), topology.gpus().stream().map(GpuInfo::pciBusId).toList());
        RankState state = new RankState(folder, me, settings.rankTimeout(), out);
        state.say(launch.describe() + " on " + me.host() + ": GPU " + me.gpu() + " (" + (me.gpuUuid() == null ? "?"
                : me.gpuUuid()) + "; " + gpu.how() + "), " + me.numaNote() + "; job " + settings.jobId() + " in "
                + folder.dir());
        launch.notes().forEach(n -> state.say("note: " + n));
        List<RankHello> world;
        try {
            join(state);
            world = awaitWorld(state);
        } catch (LaunchException e) {
            state.end(RankEnd.REFUSED, e.getMessage(), null, null);
            workload.close();
            throw e;
        }
        JobPlan plan = JobPlan.make(world, request, workload.testOnly(), workload.ncclUnavailable(), topology);
        if (me.rank() == 0) {
            JobReport.world(out, settings.jobId(), plan, workload);
        }
        state.plan(plan.combinationsOf(me.rank()));
        Instant started = Instant.now();
        long limit = 2 * settings.rankTimeout().toSeconds();
        try (Watchdog dog = new Watchdog(limit, step -> hung(state, plan, step, limit, started))) {
            RankSteps steps = new RankSteps(state, workload, request, plan, dog);
            for (JobPlan.Step s : plan.stepsOf(me.rank())) {
                steps.run(s);
            }
        } finally {
            workload.close();
        }
        int[] counts = state.counts();
        state.end(counts[2] > 0 ? RankEnd.FAILED : RankEnd.COMPLETE, counts[0] + " ok, " + counts[1] + " skipped, "
                + counts[2] + " failed", null, null);
        if (me.rank() == 0) {
            return new JobCollector(state, plan, request, settings, topology, started, err).collect();
        }
        state.say(String.format(Locale.ROOT, "done: %d ok, %d skipped, %d failed; rank 0 collects the job",
                counts[0], counts[1], counts[2]));
        return counts[2] > 0 ? 1 : 0;
    }

    /** The watchdog's end of a step whose call never returned. */
    private void hung(RankState state, JobPlan plan, String step, long limit, Instant started) {
        String why = "step " + step + " did not finish within " + limit + " s (twice P2PBENCH_RANK_TIMEOUT): a CUDA "
                + "or NCCL call hung; rank " + state.rank() + " ended there";
        plan.steps().stream().filter(x -> x.id().equals(step)).findFirst()
                .filter(x -> !(x instanceof JobPlan.IpcStep ipc) || ipc.importer() == state.rank())
                .ifPresent(x -> state.record(plan.combination(x, state.rank()).id(), Outcome.TIMEOUT, why, null, null,
                        null, null));
        if (!state.end(RankEnd.FAILED, why, Outcome.FAILED, "not run: rank " + state.rank() + " ended at step " + step
                + ", whose call hung")) {
            return;
        }
        err.println("p2pbench: rank " + state.rank() + ": " + why);
        err.flush();
        int code = 1;
        if (state.rank() == 0) {
            try {
                code = Math.max(1, new JobCollector(state, plan, request, settings, workload.topology(), started, err)
                        .collect());
            } catch (RuntimeException e) {
                err.println("p2pbench: rank 0 could not collect the job: " + RankSteps.oneLine(e));
            }
        }
        out.flush();
        err.flush();
        halt.accept(code);
    }

    private void join(RankState state) {
        JobFolder f = state.folder;
        RankHello me = state.me;
        if (Files.exists(f.collectedFile()) || Files.exists(f.helloFile(me.rank()))
                || (me.rank() == 0 && Files.exists(f.jobFile()))) {
            throw new LaunchException("the job folder " + f.dir() + " already holds a job with id " + settings.jobId()
                    + "; give this job its own id (P2PBENCH_JOB_ID) or remove the folder");
        }
        if (me.rank() == 0) {
            f.write(f.jobFile(), new JobFolder.JobInfo(settings.jobId(), me.worldSize(), me.launcher(),
                    me.suiteVersion(), me.suiteBuild(), me.startedAt(), request.command()));
        }
        f.write(f.helloFile(me.rank()), me); // first, so that rank 0 names this rank's build if it differs
        if (me.rank() != 0) {
            JobFolder.JobInfo job;
            try {
                job = f.await(f.jobFile(), JobFolder.JobInfo.class, startup(), state.watch(List.of(0)),
                        "rank 0's job.json");
            } catch (JobFolder.Gone g) {
                throw new LaunchException(g.getMessage() + "; is rank 0 running, and is " + request.out()
                        + " on a file system every rank reaches?");
            }
            if (job.worldSize() != me.worldSize()) {
                throw new LaunchException("rank 0 runs a job of " + job.worldSize() + " ranks, this rank one of "
                        + me.worldSize() + "; start every rank of one job with the same launcher");
            }
            requireSameBuild(me, job.suiteVersion(), job.suiteBuild());
        }
    }

    private static void requireSameBuild(RankHello h, String version, String build) {
        if (!h.suiteVersion().equals(version) || !h.suiteBuild().equals(build)) {
            throw new LaunchException(h.describe() + " runs p2pbench " + h.build() + " but rank 0 runs p2pbench "
                    + version + " (build " + build + "); run one build on every rank");
        }
    }

    private List<RankHello> awaitWorld(RankState state) {
        Map<Integer, RankHello> all = new TreeMap<>();
        for (int r = 0; r < state.me.worldSize(); r++) {
            RankHello h;
            try {
                h = state.folder.await(state.folder.helloFile(r), RankHello.class, startup(),
                        state.watch(List.of(r)), "rank " + r + "'s hello");
            } catch (JobFolder.Gone g) {
                throw new LaunchException(g.getMessage() + "; every rank must start, and " + request.out()
                        + " must be on a file system every rank reaches");
            }
            state.know(h);
            all.put(r, h);
        }
        List<RankHello> world = new ArrayList<>(all.values());
        checkWorld(world);
        return world;
    }

    /** How long ranks wait for each other to start: the timeout, and at least a minute (launchers start ranks apart). */
    private Duration startup() {
        Duration minute = Duration.ofMinutes(1);
        return settings.rankTimeout().compareTo(minute) < 0 ? minute : settings.rankTimeout();
    }

    /** The same checks on every rank, from the same hellos: every rank refuses alike, or none does. */
    static void checkWorld(List<RankHello> world) {
        RankHello zero = world.get(0);
        for (int i = 0; i < world.size(); i++) {
            RankHello h = world.get(i);
            if (h.rank() != i || h.worldSize() != world.size()) {
                throw new LaunchException("rank " + i + "'s hello says rank " + h.rank() + " of " + h.worldSize()
                        + "; start every rank of one job with the same launcher");
            }
            requireSameBuild(h, zero.suiteVersion(), zero.suiteBuild());
        }
        Map<String, List<RankHello>> byHost = new TreeMap<>();
        world.forEach(h -> byHost.computeIfAbsent(h.host(), k -> new ArrayList<>()).add(h));
        for (Map.Entry<String, List<RankHello>> e : byHost.entrySet()) {
            List<RankHello> local = e.getValue();
            local.sort(Comparator.comparingInt(RankHello::localRank));
            for (int i = 0; i < local.size(); i++) {
                RankHello h = local.get(i);
                if (h.localWorldSize() != local.size() || h.localRank() != i) {
                    throw new LaunchException(e.getKey() + " runs " + local.size() + " ranks (" + local.stream()
                            .map(x -> Integer.toString(x.rank())).reduce((a, b) -> a + ", " + b).orElse("")
                            + ") but rank " + h.rank() + " says local rank " + h.localRank() + " of "
                            + h.localWorldSize() + "; the launcher's local ranks must number each host's ranks 0..n-1");
                }
            }
        }
    }

    /** Whether NCCL_COMM_ID's host is this machine (rank 0's check: NCCL's bootstrap root listens there). */
    static boolean isThisHost(String commId) {
        int colon = commId.lastIndexOf(':');
        String host = colon > 0 ? commId.substring(0, colon) : commId;
        host = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    private static String pidNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }
}
