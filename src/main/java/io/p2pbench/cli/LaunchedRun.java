package io.p2pbench.cli;

import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.cuda.Nccl;
import io.p2pbench.launch.JobPreview;
import io.p2pbench.launch.JobRequest;
import io.p2pbench.launch.LaunchEnvironment;
import io.p2pbench.launch.LaunchException;
import io.p2pbench.launch.LaunchSettings;
import io.p2pbench.launch.RankRun;
import io.p2pbench.run.Preset;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import io.p2pbench.topology.TopologyProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;

/**
 * {@code p2pbench run} started by a launcher (srun, mpirun/mpiexec, torchrun-style variables) with more than one
 * rank: the options that apply are turned into a {@link JobRequest} and the rank runs in the launch package
 * ({@code docs/multiprocess.md}). Everything else of {@code run} stays out of it, so a world of one rank, or no
 * launcher, is the ordinary one-process run.
 */
final class LaunchedRun {
    /** The options of {@code run} that mean something to a job of several processes. */
    private static final Set<String> APPLY = Set.of("--preset", "--sizes", "--paths", "--out", "--dry-run",
            "--topology");

    private LaunchedRun() {}

    /**
     * Runs this process as a rank when a launcher started it with other ranks; empty otherwise.
     *
     * @throws UserInputException for a launcher environment that cannot run (one line, exit 2)
     */
    static Optional<Integer> ifLaunched(CommandLine cl, String preset, List<Long> sizes, List<String> paths, Path out,
                                        boolean dryRun, Path topologyFile) {
        Map<String, String> env = System.getenv();
        Optional<LaunchEnvironment> launch;
        try {
            launch = LaunchEnvironment.detect(env);
        } catch (LaunchException e) {
            throw new UserInputException(e.getMessage());
        }
        if (launch.isEmpty()) {
            return Optional.empty();
        }
        if (!launch.get().multiProcess()) {
            // A world of one is the ordinary run; say so where another launcher's variables disagree.
            launch.get().notes().forEach(n -> cl.getErr().println("p2pbench: note: " + launch.get().describe()
                    + ", so this is an ordinary one-process run; " + n));
            cl.getErr().flush();
            return Optional.empty();
        }
        LaunchEnvironment e = launch.get();
        for (CommandLine.Model.OptionSpec o : cl.getParseResult().matchedOptions()) {
            if (!APPLY.contains(o.longestName())) {
                throw new CommandLine.ParameterException(cl, o.longestName() + " does not apply to a job of several "
                        + "processes (" + e.describe() + ": each rank measures its own GPU); there run takes "
                        + String.join(", ", APPLY.stream().sorted().toList()));
            }
        }
        JobRequest request = request(cl, e, preset, sizes, paths, out);
        try {
            if (dryRun) {
                Topology t = topologyFile != null ? TopologyJson.read(topologyFile) : TopologyProbe.probe();
                JobPreview.print(cl.getOut(), e, env, t, request);
                return Optional.of(0);
            }
            if (topologyFile != null) {
                throw new CommandLine.ParameterException(cl, "--topology plans for another machine and needs --dry-run");
            }
            OutputFolder.requireWritable("--out", out);
            LaunchSettings settings = LaunchSettings.read(env, e);
            return Optional.of(new RankRun(e, settings, request, () -> RankRun.workload(settings), cl.getOut(), cl.getErr(),
                    code -> Runtime.getRuntime().halt(code)).run());
        } catch (LaunchException problem) {
            throw new UserInputException("rank " + e.rank() + ": " + problem.getMessage());
        } catch (IOException unreadable) {
            throw new UserInputException(unreadable.getMessage());
        }
    }

    private static JobRequest request(CommandLine cl, LaunchEnvironment e, String presetName, List<Long> sizes,
                                      List<String> paths, Path out) {
        Preset p;
        try {
            p = Preset.named(presetName);
        } catch (IllegalArgumentException bad) {
            throw new CommandLine.ParameterException(cl, bad.getMessage());
        }
        boolean ipc = true;
        boolean nccl = true;
        if (paths != null) {
            ipc = false;
            nccl = false;
            for (String s : paths) {
                String name = s.trim().toUpperCase(Locale.ROOT);
                if (!JobRequest.PATHS.contains(name)) {
                    throw new CommandLine.ParameterException(cl, "--paths " + s.trim() + " does not apply to a job of "
                            + "several processes; there --paths takes " + String.join(", ", JobRequest.PATHS));
                }
                ipc |= name.equals("IPC");
                nccl |= name.equals("NCCL");
            }
        }
        List<Long> sweep = sizes != null ? sizes : p.sweepSizes();
        long matrix = sizes != null ? Collections.max(sizes) : p.matrixSize();
        List<Long> collective = sizes != null ? sizes : p.collectiveSizes();
        int[] batches = switch (p.name()) {
            case "quick" -> new int[] {1, 5};
            case "standard" -> new int[] {2, 10};
            default -> new int[] {3, 20};
        };
        String command = "p2pbench " + String.join(" ", cl.getParseResult().originalArgs());
        return new JobRequest(command, p.name(), out, sweep, matrix, collective,
                p.collectiveTypes().isEmpty() ? EnumSet.of(Nccl.DataType.FLOAT32) : p.collectiveTypes(),
                EnumSet.allOf(BusBandwidth.Operation.class), ipc, nccl, batches[0], batches[1]);
    }
}
