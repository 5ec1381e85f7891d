package io.p2pbench.launch;

import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code p2pbench run --dry-run} under a launcher: what this rank would do, without CUDA, the job folder or other
 * ranks. The plan needs every rank's host and GPU, which only the running job knows; the preview assumes block
 * placement (ranks 0..L-1 on the first host, L..2L-1 on the next, one GPU each, as srun and mpirun place them by
 * default) and says so.
 */
public final class JobPreview {
    private JobPreview() {}

    private static String names(Stream<String> values) {
        return String.join(", ", values.distinct().toList());
    }

    /**
     * Prints the preview of the rank {@code launch} describes on {@code topology} (the machine, or the file of
     * {@code --topology}).
     */
    public static void print(PrintWriter out, LaunchEnvironment launch, Map<String, String> env,
                             Topology topology, JobRequest request) {
        String cvd = env.get("CUDA_VISIBLE_DEVICES");
        String host = launch.nodeName() != null ? launch.nodeName() : LaunchSettings.hostName();
        RankGpu gpu = RankGpu.bind(launch, host, topology.gpuCount(), cvd);
        String job;
        try {
            job = LaunchSettings.jobId(env, launch);
        } catch (LaunchException e) {
            job = "none (" + e.getMessage().split(";")[0] + ")";
        }
        GpuInfo g = topology.gpu(gpu.device());
        out.printf(Locale.ROOT, "Dry run: %s on %s: GPU %d (%s; %s); job %s%n", launch.describe(), host, gpu.device(),
                g.uuid() == null ? "?" : g.uuid(), gpu.how(), job);
        launch.notes().forEach(n -> out.println("note: " + n));
        int perHost = launch.localWorldSize();
        List<RankHello> world = new ArrayList<>();
        for (int r = 0; r < launch.worldSize(); r++) {
            int hostIndex = r / perHost;
            int local = r % perHost;
            boolean mine = r == launch.rank();
            String h = mine || hostIndex == launch.rank() / perHost ? host : "host" + hostIndex;
            GpuInfo gi = topology.gpuCount() == perHost ? topology.gpu(local) : g;
            world.add(new RankHello(r, launch.worldSize(), local, Math.min(perHost, launch.worldSize() - hostIndex * perHost),
                    h, null, 0, null, "", launch.launcher().label(), "", "", topology.gpuCount() == perHost ? local : 0,
                    h.equals(host) ? gi.uuid() : gi.uuid() + "@" + h, gi.pciBusId(), gi.numaNode(), "", cvd,
                    env.get("NCCL_COMM_ID"), r == 0 ? Boolean.TRUE : null, "", topology.fingerprint(), null));
        }
        JobPlan plan = JobPlan.make(world, request, false, null, topology);
        out.printf(Locale.ROOT, "Assuming block placement (%d rank%s per host, %d host%s) for the plan:%n", perHost,
                perHost == 1 ? "" : "s", plan.hosts().size(), plan.hosts().size() == 1 ? "" : "s");
        out.println(plan.describe());
        Map<String, List<JobPlan.CollectiveStep>> collectives = new LinkedHashMap<>();
        for (JobPlan.Step s : plan.stepsOf(launch.rank())) {
            if (s instanceof JobPlan.IpcStep ipc) {
                out.printf(Locale.ROOT, "  %-28s %s%s%n", s.id(), ipc.importer() == launch.rank()
                        ? "imports from rank " + ipc.exporter() : "exports to rank " + ipc.importer(),
                        ipc.sameGpu() ? " (same GPU)" : "");
            } else {
                JobPlan.CollectiveStep c = (JobPlan.CollectiveStep) s;
                String over = c.scope() == JobPlan.Scope.WORLD ? "all " + c.ranks().size() + " ranks"
                        : c.host() + "'s " + c.ranks().size() + " ranks";
                collectives.computeIfAbsent(over + " (" + c.span() + ")", k -> new ArrayList<>()).add(c);
            }
        }
        collectives.forEach((over, steps) -> out.printf(Locale.ROOT, "  %d NCCL collectives over %s: %s x %s x %s%s%n",
                steps.size(), over, names(steps.stream().map(c -> c.op().name())),
                names(steps.stream().map(c -> c.type().name())),
                names(steps.stream().map(c -> Sizes.format(c.sizeBytes()))),
                steps.stream().filter(c -> c.skipReason() != null).findFirst()
                        .map(c -> "; cannot run: " + c.skipReason()).orElse("")));
        out.flush();
    }
}
