package io.p2pbench.run;

import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelPreset;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.partition.Plan;
import io.p2pbench.spec.Combination;
import io.p2pbench.serving.Target;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.LinkClass;
import io.p2pbench.topology.PairInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a topology and a request into the list of benchmarks to run, with planned skips and a time
 * prediction. Pure: the same plan comes out for a live machine and for its topology JSON.
 */
public final class RunPlanner {
    /** Seconds a benchmark fork costs beyond its iterations: JVM start, CUDA context, setup (see {@link TimePredictor}). */
    public static final double FORK_OVERHEAD_SECONDS = TimePredictor.TRANSFER_FORK_SECONDS;
    /** Selects the host-device benchmarks in {@code --paths}. */
    public static final String HOST_DEVICE = "HOST_DEVICE";
    /** Selects the suite's ring all-reduce in {@code --paths}. */
    public static final String ALLREDUCE_RING = "ALLREDUCE_RING";
    /** Selects the NCCL collectives in {@code --paths}. */
    public static final String NCCL = "NCCL";
    /** Selects the activation exchanges in {@code --paths}. */
    public static final String EXCHANGE = "EXCHANGE";
    /** Selects the partition study in {@code --paths}; only when named (it is not part of a default run). */
    public static final String PARTITION = "PARTITION";
    /** Selects the serving sweeps in {@code --paths}; only when named (it is not part of a default run). */
    public static final String SERVING = "SERVING";

    private RunPlanner() {}

    /**
     * What the user asked for; null fields mean "what the preset says".
     *
     * @param pairs pairs to measure (sweep and matrix), or null for representatives and all pairs
     * @param sizes sizes of the sweep and host rows, or null
     * @param paths peer path names, {@link #HOST_DEVICE}, {@link #ALLREDUCE_RING}, {@link #NCCL},
     *     {@link #EXCHANGE}, or null for all
     * @param group GPUs of the collectives, or null: all GPUs (a single GPU: 0,0,0,0 for the ring
     *     and the exchanges, 0 for NCCL)
     * @param model model preset of the exchanges, or null for the defaults
     * @param servingTarget the serving sweeps' latency target, or null for {@link Target#DEFAULT}
     */
    public record Request(Preset preset, List<GpuPair> pairs, List<Long> sizes, Set<String> paths, Group group,
                          String model, Set<Plan> plans,
                          Target servingTarget) {
        /** A request with the default serving target. */
        public Request(Preset preset, List<GpuPair> pairs, List<Long> sizes, Set<String> paths, Group group,
                       String model, Set<Plan> plans) {
            this(preset, pairs, sizes, paths, group, model, plans, null);
        }

        /** A request for transfers and collectives with default groups and models. */
        public Request(Preset preset, List<GpuPair> pairs, List<Long> sizes, Set<String> paths) {
            this(preset, pairs, sizes, paths, null, null);
        }

        /** A request with every partition plan (null {@code plans}: each one that does not divide is a planned skip). */
        public Request(Preset preset, List<GpuPair> pairs, List<Long> sizes, Set<String> paths, Group group,
                       String model) {
            this(preset, pairs, sizes, paths, group, model, null, null);
        }

        boolean wants(String path) {
            return paths == null || paths.contains(path);
        }
    }

    /** Names accepted by {@code --paths}. */
    public static List<String> pathNames() {
        List<String> names = new ArrayList<>();
        for (CopyPath p : CopyPath.values()) {
            names.add(p.name());
        }
        names.add(HOST_DEVICE);
        names.add(ALLREDUCE_RING);
        names.add(NCCL);
        names.add(EXCHANGE);
        names.add(PARTITION);
        names.add(SERVING);
        return names;
    }

    /**
     * Checks the request against the machine; throws {@link IllegalArgumentException} naming the bad
     * value and what would be accepted.
     */
    public static void validate(Topology t, Request r) {
        int n = t.gpuCount();
        if (r.pairs() != null) {
            for (GpuPair p : r.pairs()) {
                for (int g : new int[] {p.src(), p.dst()}) {
                    if (g >= n) {
                        throw new IllegalArgumentException("pair '" + p + "' names GPU " + g + ", but this machine has "
                                + (n == 1 ? "only GPU 0" : "GPUs 0.." + (n - 1)));
                    }
                }
            }
        }
        if (r.paths() != null) {
            for (String p : r.paths()) {
                if (!pathNames().contains(p)) {
                    throw new IllegalArgumentException("unknown path '" + p + "'; use " + String.join(", ", pathNames()));
                }
            }
        }
        if (r.group() != null) {
            r.group().requireWithin(n);
            if (r.group().size() < 2 && (r.wants(ALLREDUCE_RING) || r.wants(EXCHANGE))) {
                throw new IllegalArgumentException("group '" + r.group() + "' has one rank, but the ring all-reduce and "
                        + "the exchanges need at least 2; repeat a GPU (e.g. 0,0) or choose --paths NCCL");
            }
        }
        if (r.model() != null) {
            ModelPreset.named(r.model());
        }
        if (r.sizes() != null && (r.wants(ALLREDUCE_RING) || r.wants(NCCL))) {
            Group ring = ringGroup(t, r);
            for (long s : r.sizes()) {
                for (DataType type : r.preset().collectiveTypes()) {
                    if (r.wants(ALLREDUCE_RING)) {
                        RingAllReduce.requireShape(ring, type, s);
                    }
                }
            }
        }
        if (r.sizes() != null) {
            long smallestGpu = t.gpus().stream().mapToLong(GpuInfo::memoryBytes).min().orElse(0);
            for (long s : r.sizes()) {
                // Compared as s > memory / 2, never 2 * s > memory: twice a size near 2^63 wraps to "fits".
                if (s > smallestGpu / 2) {
                    throw new IllegalArgumentException("size " + Sizes.format(s) + " does not fit: a copy needs a source "
                            + "and a destination buffer, " + (s > Long.MAX_VALUE / 2 ? "twice that"
                            : Sizes.format(2 * s)) + ", and the smallest GPU has "
                            + Sizes.format(smallestGpu) + "; use sizes up to " + Sizes.format(smallestGpu / 2 / 4 * 4));
                }
            }
        }
    }

    /** The plan: every combination, planned skips included, in run order. */
    public static List<Combination> plan(Topology t, Request r) {
        validate(t, r);
        Preset p = r.sizes() == null ? r.preset() : r.preset().withSizes(r.sizes());
        Set<CopyPath> wanted = EnumSet.noneOf(CopyPath.class);
        for (CopyPath c : CopyPath.values()) {
            if (r.paths() == null || r.paths().contains(c.name())) {
                wanted.add(c);
            }
        }
        boolean hostRows = r.paths() == null || r.paths().contains(HOST_DEVICE);
        Map<String, Combination> plan = new LinkedHashMap<>();
        List<GpuPair> sweepPairs = r.pairs() != null ? r.pairs() : representativePairs(t);
        TransferPlanner.planPeers(t, p, sweepPairs, r.pairs() != null ? r.pairs() : allPairs(t), wanted, plan);
        if (hostRows) {
            TransferPlanner.planHost(t, p, plan);
        }
        TransferPlanner.planBindings(sweepPairs.get(0), t.gpus().get(0).index(), plan);
        CollectivePlanner.plan(t, p, r, plan);
        if (r.paths() != null && r.paths().contains(PARTITION)) {
            PartitionPlanner.plan(t, p, ringGroup(t, r), r.model(), r.plans(), plan::putIfAbsent);
        }
        if (r.paths() != null && r.paths().contains(SERVING)) {
            ServingPlanner.plan(t, p, ringGroup(t, r), r.model(), r.plans(),
                    r.servingTarget() != null ? r.servingTarget() : Target.DEFAULT, plan::putIfAbsent);
        }
        return new ArrayList<>(plan.values());
    }

    /** Largest size of the rows that compare the Java bindings (small copies, where the call cost shows). */
    public static final long BINDING_MAX_BYTES = 64 * Sizes.KIB;

    /** The ring's and exchanges' group: the request's, else every GPU, else four ranks on GPU 0. */
    static Group ringGroup(Topology t, Request r) {
        if (r.group() != null) {
            return r.group();
        }
        List<Integer> all = t.gpus().stream().map(GpuInfo::index).toList();
        return all.size() > 1 ? new Group(all) : new Group(List.of(all.get(0), all.get(0), all.get(0), all.get(0)));
    }

    /** NCCL's group: the request's, else every GPU (distinct). */
    static Group ncclGroup(Topology t, Request r) {
        return r.group() != null ? r.group() : new Group(t.gpus().stream().map(GpuInfo::index).toList());
    }

    static String groupId(Group g) {
        return "g" + g.toString().replace(',', '.');
    }

    static String skipForGroup(Topology t, Group g, CollectivePath path) {
        if (path == CollectivePath.P2P) {
            int[] d = g.distinctDevices();
            for (int a : d) {
                for (int b : d) {
                    if (a != b && !t.pair(a, b).map(PairInfo::canAccessPeer).orElse(false)) {
                        return "no peer access between GPU" + a + " and GPU" + b + " (cudaDeviceCanAccessPeer is 0)";
                    }
                }
            }
        }
        return null;
    }

    /** One pair per link class (nearest first), lowest indices first, plus the device-local pair 0-0. */
    public static List<GpuPair> representativePairs(Topology t) {
        Map<LinkClass, GpuPair> byClass = new TreeMap<>();
        for (PairInfo pi : t.pairs()) {
            if (!pi.self() && pi.src() < pi.dst()) {
                byClass.putIfAbsent(pi.link(), new GpuPair(pi.src(), pi.dst()));
            }
        }
        Set<GpuPair> out = new LinkedHashSet<>();
        out.add(new GpuPair(t.gpus().get(0).index(), t.gpus().get(0).index()));
        out.addAll(byClass.values());
        return new ArrayList<>(out);
    }

    static List<GpuPair> allPairs(Topology t) {
        List<GpuPair> out = new ArrayList<>();
        for (GpuInfo a : t.gpus()) {
            for (GpuInfo b : t.gpus()) {
                out.add(new GpuPair(a.index(), b.index()));
            }
        }
        return out;
    }

    /** Total predicted seconds of the combinations that will run. */
    public static double predictedSeconds(List<Combination> plan) {
        return plan.stream().filter(c -> !c.plannedSkip()).mapToDouble(Combination::predictedSeconds).sum();
    }

    /** The plan as printed before a run starts (and by --dry-run), one JVM per curve (the default). */
    public static String describe(Topology t, Preset preset, List<Combination> plan) {
        return describe(t, preset, plan, ForkGroups.Mode.SHARED, Round.DEFAULT_COUNT);
    }

    /** The plan as printed before a run starts (and by --dry-run). */
    public static String describe(Topology t, Preset preset, List<Combination> plan, ForkGroups.Mode mode,
                                  int rounds) {
        return PlanText.describe(t, preset, plan, mode, rounds);
    }

    /** The same latency row with its copies and waits through JCuda's driver API (only {@code binding} differs). */
    static Combination jcudaTwin(Combination c) {
        return TransferPlanner.jcudaTwin(c);
    }

    /** {@code 2m05s}, {@code 1h02m}, {@code 40s}. */
    public static String formatDuration(double seconds) {
        return PlanText.formatDuration(seconds);
    }
}
