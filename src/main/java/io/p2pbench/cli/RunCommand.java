package io.p2pbench.cli;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelPreset;
import io.p2pbench.collective.ResultCheck;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.files.FileProblem;
import io.p2pbench.fork.ForkSettings;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.Reporter;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.LockFile;
import io.p2pbench.serving.Target;
import io.p2pbench.spec.Combination;
import io.p2pbench.run.Preset;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.partition.Plan;
import io.p2pbench.run.RunPlanner;
import io.p2pbench.run.ForkGroupMain;
import io.p2pbench.run.ForkGroups;
import io.p2pbench.run.Round;
import io.p2pbench.run.RunExecutor;
import io.p2pbench.run.RunLock;
import io.p2pbench.settings.Settings;
import io.p2pbench.spec.HostBuffer;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import io.p2pbench.topology.TopologyProbe;
import io.p2pbench.transfer.NumaPlacement;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code p2pbench run}: plans the benchmarks for this machine, runs them, writes a result folder. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs the benchmark suite on this machine's GPUs and writes results/<machine>/<time>/.",
            "The plan (benchmarks, skips with reasons, predicted time) is printed first; --dry-run stops there."})
final class RunCommand implements Callable<Integer> {
    /** Largest --staging-chunk: one pinned chunk per staged lane is allocated whole. */
    static final long MAX_STAGING_CHUNK = Sizes.GIB;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--preset", paramLabel = "NAME", defaultValue = "quick",
            description = "quick (minutes), standard (4 KiB..1 GiB, every path and pair) or full. Default: ${DEFAULT-VALUE}.")
    String preset;

    @Option(names = "--pairs", paramLabel = "LIST", split = ",", converter = PairConverter.class,
            description = "Only these ordered pairs, e.g. 0-1,1-0 (0-0 is a device-local copy).")
    List<GpuPair> pairs;

    @Option(names = "--sizes", paramLabel = "LIST", split = ",", converter = SizeConverter.class,
            description = "Transfer sizes, e.g. 4K,1M,256MiB (binary multiples; multiples of 4 bytes).")
    List<Long> sizes;

    @Option(names = "--paths", paramLabel = "LIST", split = ",",
            description = "Only these: CE_P2P_READ, CE_P2P_WRITE, CE_NO_P2P, HOST_STAGED, SM_P2P_READ, SM_P2P_WRITE, "
                    + "HOST_DEVICE, ALLREDUCE_RING, NCCL, EXCHANGE, PARTITION (opt-in: the partition study), SERVING "
                    + "(opt-in: serving sweeps at request rates).")
    List<String> paths;

    @Option(names = "--group", paramLabel = "GPUS", converter = GroupConverter.class,
            description = "GPUs of the collectives, e.g. 0,1,2,3 (may repeat: 0,0,0,0 runs the ring on one GPU). "
                    + "Default: every GPU; with one GPU 0,0,0,0 for the ring and exchanges, 0 for NCCL.")
    Group group;

    @Option(names = "--model", paramLabel = "PRESET",
            description = "Model shape of the activation exchanges: DENSE_8B, DENSE_70B or MOE_8X_TOP2.")
    String model;

    @Option(names = "--plans", paramLabel = "LIST", split = ",",
            description = "With --paths PARTITION or SERVING: only these plans (SINGLE, TP, PP, EP). A named plan that "
                    + "does not "
                    + "divide the model over --group is an error; by default such plans are planned skips.")
    List<String> plans;

    @CommandLine.Mixin
    ServingOptions serving;

    @Option(names = "--dry-run", description = "Print the plan and stop.")
    boolean dryRun;

    @Option(names = "--topology", paramLabel = "FILE",
            description = "With --dry-run: plan for the machine in this topology JSON (from 'p2pbench topology --json').")
    Path topologyFile;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "Root folder of result folders. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--staging-chunk", paramLabel = "SIZE", converter = SizeConverter.class, defaultValue = "4M",
            description = "Chunk size of HOST_STAGED copies. Default: ${DEFAULT-VALUE}.")
    long stagingChunk;

    @Option(names = "--wait", description = "If another p2pbench run is measuring on this machine, wait for it "
            + "to finish instead of refusing to start.")
    boolean waitForOtherRun;

    @Option(names = "--fork-groups", description = "One JVM per curve: up to 32 combinations of one benchmark "
            + "differing in size, pair, dtype, phase or graph, each its own trial on the streams and NCCL communicators "
            + "the first one made (docs/notes/run-overhead.md). Default: one JVM per round for every transfer, "
            + "collective and exchange (up to 128 combinations each).")
    boolean forkGroups;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "" + Round.DEFAULT_COUNT,
            description = "Measure every transfer, collective and exchange in N rounds spread over the run, each in "
                    + "fresh JVMs, the preset's measurement time shared out over them: compare judges a change "
                    + "against the spread of the rounds (docs/compare.md). Some rows take more, the later rounds in JVMs of "
                    + "their own: device copies up to 16 MiB 4N, pinned host copies and host-staged peer copies up to "
                    + "16 MiB 2N (bandwidth). 1 to "
                    + Round.MAX_COUNT
                    + ". Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(names = "--fork-per-benchmark", description = "One JVM per benchmark: each in a fresh process, about 0.5 s "
            + "more per benchmark (the 8x H200 standard plan: 1h06m instead of 42m).")
    boolean forkPerBenchmark;

    @Option(names = "--report", description = "After the run, render its report into --charts (summary.md, charts).")
    boolean report;

    @Option(names = "--charts", paramLabel = "DIR",
            description = "Where --report writes. Default: reports/<fingerprint>/.")
    Path charts;

    private Target servingTarget;

    /** The plans of {@code --plans}, or null for every plan; unknown names and a missing PARTITION path are bad input. */
    private Set<Plan> partitionPlans(Set<String> pathSet) {
        if (plans == null) {
            return null;
        }
        if (pathSet == null || !pathSet.contains(RunPlanner.PARTITION) && !pathSet.contains(RunPlanner.SERVING)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--plans chooses the partition study's and serving sweeps' plans; add --paths PARTITION or SERVING");
        }
        Set<Plan> out = EnumSet.noneOf(Plan.class);
        for (String name : plans) {
            String upper = name.trim().toUpperCase(Locale.ROOT);
            try {
                out.add(Plan.valueOf(upper));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown plan '" + name.trim()
                        + "'; use SINGLE, TP, PP or EP");
            }
        }
        return out;
    }

    @SuppressWarnings("try") // the lock is held for the block, not used in it
    @Override
    public Integer call() throws IOException {
        Optional<Integer> rank = LaunchedRun.ifLaunched(spec.commandLine(), preset, sizes, paths, out, dryRun,
                topologyFile); // started by srun, mpirun or torchrun with other ranks: docs/multiprocess.md
        if (rank.isPresent()) {
            return rank.get();
        }
        Preset p;
        try {
            p = Preset.named(preset);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (topologyFile != null && topologyFile.toString().isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--topology '' is empty; name a topology "
                    + "JSON file, as 'p2pbench topology --json' writes it");
        }
        if (topologyFile != null && !dryRun) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--topology plans for another machine and needs --dry-run");
        }
        if (charts != null && !report) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--charts " + charts + " says where --report "
                    + "writes, and --report is not given; add --report, or leave --charts out");
        }
        Set<String> pathSet = null;
        if (paths != null) {
            pathSet = new LinkedHashSet<>();
            for (String s : paths) {
                String word = s.trim().toUpperCase(Locale.ROOT);
                if (!RunPlanner.pathNames().contains(word)) {
                    // Quoted as given, not upper-cased: the line names what the user typed.
                    throw new CommandLine.ParameterException(spec.commandLine(), "unknown path '" + s + "'; use "
                            + String.join(", ", RunPlanner.pathNames()));
                }
                pathSet.add(word);
            }
        }
        if (sizes != null && pathSet != null && Set.of(RunPlanner.PARTITION, RunPlanner.SERVING).containsAll(pathSet)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--sizes sets the transfers' and collectives' "
                    + "sizes, and --paths " + String.join(",", pathSet) + " has none (its sizes come from --model); "
                    + "leave --sizes out, or add a transfer path");
        }
        servingTarget = serving.target(spec.commandLine(), pathSet);
        if (stagingChunk > MAX_STAGING_CHUNK) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--staging-chunk " + Sizes.format(stagingChunk)
                    + " is too large: host-staged copies allocate it whole in pinned memory on every path; use at most "
                    + Sizes.format(MAX_STAGING_CHUNK));
        }
        // Everything that can be checked without a GPU is checked before CUDA is asked for, so that a bad value is
        // named on a machine without a driver too, not hidden behind "CUDA is not available".
        if (forkGroups && forkPerBenchmark) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--fork-groups and --fork-per-benchmark exclude each other: give one (default: one JVM per curve)");
        }
        if (rounds < 1 || rounds > Round.MAX_COUNT) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds " + rounds
                    + " is not a number of rounds; use 1 to " + Round.MAX_COUNT + " (default " + Round.DEFAULT_COUNT
                    + ")");
        }
        if (model != null) {
            try {
                ModelPreset.named(model);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        Set<Plan> chosenPlans = partitionPlans(pathSet);
        if (!dryRun) {
            // Before CUDA and before planning: a run must never measure and then find it cannot write.
            OutputFolder.requireWritable("--out", out);
            if (report && charts != null) {
                OutputFolder.requireCanWrite("--charts", charts);
                try {
                    Reporter.requireReportFolder(charts);
                } catch (BadInputException e) {
                    throw new UserInputException("--charts " + e.getMessage());
                }
            }
        }
        if (dryRun) {
            return planAndRun(p, pathSet, chosenPlans);
        }
        // Before CUDA, before planning: two runs must never measure at the same time.
        try (RunLock lock = RunLock.acquire(RunLock.file(), commandLine(), waitForOtherRun, 1000,
                spec.commandLine().getOut())) {
            return planAndRun(p, pathSet, chosenPlans);
        } catch (RunLock.Held held) {
            throw new UserInputException(held.getMessage());
        } catch (LockFile.Unusable unusable) {
            throw new UserInputException(unusable.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserInputException("interrupted while waiting for the other run to finish");
        }
    }

    private Integer planAndRun(Preset p, Set<String> pathSet, Set<Plan> chosenPlans) throws IOException {
        Topology topology;
        if (topologyFile != null) {
            try {
                topology = TopologyJson.read(topologyFile);
            } catch (IOException e) {
                throw new UserInputException(FileProblem.of(e));
            }
        } else {
            Cuda.require();
            topology = TopologyProbe.probe();
        }
        RunPlanner.Request request = new RunPlanner.Request(p, pairs, sizes, pathSet, group, model,
                chosenPlans, servingTarget);
        List<Combination> plan;
        try {
            if (topologyFile == null && sizes != null) {
                checkFreeMemory(topology, sizes);
            }
            plan = RunPlanner.plan(topology, request);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter w = spec.commandLine().getOut();
        ForkGroups.Mode forkMode = forkPerBenchmark ? ForkGroups.Mode.PER_BENCHMARK
                : forkGroups ? ForkGroups.Mode.GROUPED : ForkGroups.Mode.SHARED;
        w.print(RunPlanner.describe(topology, p, plan, forkMode, rounds));
        w.flush();
        if (dryRun) {
            return 0;
        }
        Instant start = Instant.now();
        ResultFolder folder = ResultFolder.create(out, topology, start);
        w.println("Results: " + folder.dir());
        w.flush();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("bandwidthTiming", p.bandwidth());
        settings.put("latencyTiming", p.latency());
        settings.put("stagingChunkBytes", stagingChunk);
        settings.put("forkOverheadSecondsAssumed", RunPlanner.FORK_OVERHEAD_SECONDS);
        settings.put("forkMode", forkMode.name());
        settings.put("forks", forkMode.describe());
        settings.put("rounds", rounds);
        if (forkMode != ForkGroups.Mode.PER_BENCHMARK) {
            settings.put("groupContexts", ForkGroupMain.Contexts.current().word());
            settings.put("groupWarmupMillis", ForkGroups.WARM_WARMUP_MILLIS);
            settings.put("groupJitHints", "jmh");
        }
        settings.put("crossCheckFullBytes", ResultCheck.FULL_CHECK_BYTES);
        settings.put("crossCheckPieceBytes", ResultCheck.PIECE);
        List<String> jvmArgs = new ArrayList<>(ForkSettings.all());
        Settings own = Settings.current();
        if (own.corruptAll()) {
            jvmArgs.add("-D" + Settings.CORRUPT + "=true");
        }
        // The allocation experiments reach the forks and are recorded with the run.
        if (own.deviceAllocRoundBytes() != 0) {
            jvmArgs.add("-D" + Settings.DEVICE_ALLOC_ROUND + "=" + own.deviceAllocRoundBytes());
            settings.put(Settings.DEVICE_ALLOC_ROUND, Long.toString(own.deviceAllocRoundBytes()));
        }
        if (own.pointerLog() != null) {
            jvmArgs.add("-D" + Settings.POINTER_LOG + "=" + own.pointerLog());
            settings.put(Settings.POINTER_LOG, own.pointerLog().toString());
        }
        RunExecutor executor = new RunExecutor(folder, p, jvmArgs, w, c -> numaNode(topology, c)).mode(forkMode)
                .rounds(rounds).stagingChunkBytes(stagingChunk);
        RunManifest m;
        try {
            m = executor.run(commandLine(), topology.fingerprint(), settings, plan);
        } catch (IOException e) {
            // A full disk or a folder gone mid-run: every file already written stays as it was (atomic writes).
            throw new UserInputException("cannot write the results to " + folder.dir() + ": " + ioReason(e)
                    + "; the run stopped, and what finished before is kept there");
        }
        long ok = m.entries().stream().filter(e -> e.outcome() == Outcome.OK).count();
        long failed = m.entries().stream().filter(e -> e.outcome() == Outcome.FAILED || e.outcome() == Outcome.TIMEOUT)
                .count();
        long skipped = m.entries().stream().filter(e -> e.outcome() == Outcome.SKIPPED).count();
        w.printf(Locale.ROOT, "Done: %d ok, %d skipped, %d failed. Results in %s%n", ok, skipped, failed, folder.dir());
        w.flush();
        if (report) {
            try {
                Path summary = charts != null ? Reporter.render(List.of(folder.dir()), charts)
                        : Reporter.render(List.of(folder.dir()));
                w.println("Report: " + summary);
                w.flush();
            } catch (IOException e) {
                throw new UserInputException("the run finished, but its report failed: " + FileProblem.of(e));
            }
        }
        return failed > 0 ? 1 : 0;
    }

    private static String ioReason(IOException e) {
        if (e instanceof AtomicFiles.CannotWrite w) {
            return w.reason() + " (" + w.file() + ")";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason() + " (" + f.getFile() + ")";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private static void checkFreeMemory(Topology topology, List<Long> sizes) {
        for (var g : topology.gpus()) {
            long free = Cuda.memInfo(g.index())[0];
            for (long s : sizes) {
                if (s > free / 2) {
                    throw new IllegalArgumentException("size " + Sizes.format(s) + " does not fit: a copy needs "
                            + Sizes.format(2 * s) + " and GPU" + g.index() + " has " + Sizes.format(free)
                            + " free; use sizes up to " + Sizes.format(free / 2 / 4 * 4));
                }
            }
        }
    }

    private static Integer numaNode(Topology t, Combination c) {
        Optional<HostBuffer> buffer = WorkloadSpec.of(c).hostBuffer();
        if (buffer.isEmpty() || t.host().numaNodes() <= 1) {
            return null;
        }
        HostBuffer host = buffer.get();
        Integer gpuNode = t.gpu(host.device()).numaNode();
        if (gpuNode == null || gpuNode < 0) {
            return null;
        }
        if (host.numa() == NumaPlacement.LOCAL) {
            return gpuNode;
        }
        return gpuNode == 0 ? 1 : 0;
    }

    private String commandLine() {
        return "p2pbench " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }

    /** Parses a group, {@code 0,1,2,3}. */
    static final class GroupConverter implements CommandLine.ITypeConverter<Group> {
        @Override
        public Group convert(String value) {
            try {
                return Group.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Parses one pair, {@code SRC-DST}. */
    static final class PairConverter implements CommandLine.ITypeConverter<GpuPair> {
        @Override
        public GpuPair convert(String value) {
            try {
                return GpuPair.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Parses one size. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Sizes.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
