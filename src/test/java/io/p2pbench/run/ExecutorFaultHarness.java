package io.p2pbench.run;

import io.p2pbench.spec.Combination;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.topology.SyntheticTopologies;
import io.p2pbench.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Runs the executor on two real combinations with a fork launcher that misbehaves, in this JVM
 * (the tests) or as its own process (the SIGINT test): {@code root launcher firstLimitSeconds}.
 * The launcher misbehaves on the first combination only, so only the first fork's limit is the test's
 * to choose; every other fork must finish and gets {@link #MUST_FINISH_SECONDS}.
 */
public final class ExecutorFaultHarness {
    /**
     * The limit of a fork that must finish: starting a JVM and failing for want of CUDA takes seconds, many more
     * on a build machine whose cores are busy with other builds; this is far above both.
     */
    static final double MUST_FINISH_SECONDS = 180;

    private ExecutorFaultHarness() {}

    /** Two runnable host-device latency rows of a one-H200 plan, 4 bytes. */
    static List<Combination> twoCombinations() {
        Topology t = SyntheticTopologies.singleH200();
        List<Combination> plan = RunPlanner.plan(t, new RunPlanner.Request(Preset.QUICK, null, List.of(4L),
                java.util.Set.of("HOST_DEVICE")));
        return plan.stream().filter(c -> !c.plannedSkip() && c.metric().equals("latency")).limit(2).toList();
    }

    /** Two latency rows of one curve (same direction and memory, 4 and 8 bytes): one fork group. */
    static List<Combination> oneCurve() {
        Topology t = SyntheticTopologies.singleH200();
        List<Combination> plan = RunPlanner.plan(t, new RunPlanner.Request(Preset.QUICK, null, List.of(4L, 8L),
                java.util.Set.of("HOST_DEVICE")));
        List<Combination> latency = plan.stream().filter(c -> !c.plannedSkip() && c.metric().equals("latency")).toList();
        Combination first = latency.get(0);
        Combination second = latency.stream().filter(c -> c != first
                && ForkGroups.key(c, null).equals(ForkGroups.key(first, null))).findFirst().orElseThrow();
        return List.of(first, second);
    }

    /** Runs them; returns the result folder. {@code firstLimitSeconds}: the limit of the first combination's fork. */
    static ResultFolder run(Path root, Path launcher, double firstLimitSeconds, PrintWriter out) throws Exception {
        return run(root, launcher, firstLimitSeconds, out, false, ForkGroups.Mode.GROUPED);
    }

    static ResultFolder run(Path root, Path launcher, double firstLimitSeconds, PrintWriter out, ForkGroups.Mode mode)
            throws Exception {
        return run(root, launcher, firstLimitSeconds, out, false, mode);
    }

    static ResultFolder run(Path root, Path launcher, double firstLimitSeconds, PrintWriter out, boolean honourJmhLock,
                            ForkGroups.Mode mode) throws Exception {
        return run(root, launcher, firstLimitSeconds, out, honourJmhLock, mode, twoCombinations());
    }

    static ResultFolder run(Path root, Path launcher, double firstLimitSeconds, PrintWriter out, boolean honourJmhLock,
                            ForkGroups.Mode mode, List<Combination> plan) throws Exception {
        return run(root, launcher, firstLimitSeconds, out, honourJmhLock, mode, plan, 1);
    }

    static ResultFolder run(Path root, Path launcher, double firstLimitSeconds, PrintWriter out, boolean honourJmhLock,
                            ForkGroups.Mode mode, List<Combination> plan, int rounds) throws Exception {
        if (!honourJmhLock) {
            System.setProperty("jmh.ignoreLock", "true"); // no measurement here; other JMH runs on the build machine
        }
        Topology t = SyntheticTopologies.singleH200();
        ResultFolder folder = ResultFolder.create(root, t, Instant.now());
        out.println("folder " + folder.dir());
        out.flush();
        RunExecutor e = new RunExecutor(folder, Preset.QUICK, List.of(), out, c -> null)
                .forkLimitSeconds(c -> c.id().equals(plan.get(0).id()) ? firstLimitSeconds : MUST_FINISH_SECONDS)
                .mode(mode).rounds(rounds);
        if (launcher != null) {
            e.forkJvm(launcher);
        }
        RunManifest m = e.run("p2pbench run (fault test)", t.fingerprint(), Map.of(), plan);
        out.println("state " + m.state());
        out.flush();
        return folder;
    }

    /**
     * {@code root launcher|- firstLimitSeconds [honour-jmh-lock|-] [GROUPED|PER_BENCHMARK]}; a run stopped by another JMH run prints
     * {@code held: <message>} and exits 3.
     */
    public static void main(String[] args) throws Exception {
        try {
            run(Path.of(args[0]), args[1].equals("-") ? null : Path.of(args[1]), Double.parseDouble(args[2]),
                    new PrintWriter(System.out), args.length > 3 && args[3].equals("honour-jmh-lock"),
                    args.length > 4 ? ForkGroups.Mode.valueOf(args[4]) : ForkGroups.Mode.GROUPED);
        } catch (RunLock.Held held) {
            System.out.println("held: " + held.getMessage());
            System.out.flush();
            System.exit(3);
        }
    }
}
