package io.p2pbench.run;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.results.Combination;
import io.p2pbench.results.Kind;
import io.p2pbench.results.Metric;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelPreset;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.collective.NcclCollective;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Binding;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.LinkClass;
import io.p2pbench.topology.PairInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.Feasibility;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.NumaPlacement;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
     * @param servingTarget the serving sweeps' latency target, or null for {@link io.p2pbench.serving.Target#DEFAULT}
     */
    public record Request(Preset preset, List<GpuPair> pairs, List<Long> sizes, Set<String> paths, Group group,
                          String model, Set<io.p2pbench.partition.Plan> plans,
                          io.p2pbench.serving.Target servingTarget) {
        /** A request with the default serving target. */
        public Request(Preset preset, List<GpuPair> pairs, List<Long> sizes, Set<String> paths, Group group,
                       String model, Set<io.p2pbench.partition.Plan> plans) {
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
        for (GpuPair pair : sweepPairs) {
            for (CopyPath path : p.sweepPaths()) {
                if (!wanted.contains(path)) {
                    continue;
                }
                for (long size : p.sweepSizes()) {
                    add(plan, peer(t, p, pair, path, size, Metric.BANDWIDTH, false, "sweep"));
                    add(plan, peer(t, p, pair, path, size, Metric.LATENCY, false, "sweep"));
                    if (p.bidirectionalSweepPaths().contains(path) && pair.src() <= pair.dst()) {
                        add(plan, peer(t, p, pair, path, size, Metric.BANDWIDTH, true, "sweep"));
                    }
                }
            }
        }
        List<GpuPair> matrixPairs = r.pairs() != null ? r.pairs() : allPairs(t);
        for (CopyPath path : p.matrixPaths()) {
            if (!wanted.contains(path)) {
                continue;
            }
            for (GpuPair pair : matrixPairs) {
                add(plan, peer(t, p, pair, path, p.matrixSize(), Metric.BANDWIDTH, false, "matrix"));
                if (p.bidirectionalMatrix() && pair.src() <= pair.dst()) {
                    add(plan, peer(t, p, pair, path, p.matrixSize(), Metric.BANDWIDTH, true, "matrix"));
                }
            }
        }
        if (hostRows) {
            planHost(t, p, plan);
        }
        planBindings(sweepPairs.get(0), t.gpus().get(0).index(), plan);
        planCollectives(t, p, r, plan);
        if (r.paths() != null && r.paths().contains(PARTITION)) {
            PartitionPlanner.plan(t, p, ringGroup(t, r), r.model(), r.plans(), plan::putIfAbsent);
        }
        if (r.paths() != null && r.paths().contains(SERVING)) {
            ServingPlanner.plan(t, p, ringGroup(t, r), r.model(), r.plans(),
                    r.servingTarget() != null ? r.servingTarget() : io.p2pbench.serving.Target.DEFAULT, plan::putIfAbsent);
        }
        return new ArrayList<>(plan.values());
    }

    private static void planHost(Topology t, Preset p, Map<String, Combination> plan) {
        List<Integer> devices = t.gpus().stream().map(GpuInfo::index).toList();
        int numaNodes = t.host().numaNodes();
        for (int device : devices) {
            // The full sweep on the first GPU; every other GPU at the matrix size, to catch one bad link.
            List<Long> sizes = device == devices.get(0) ? p.hostSizes() : List.of(p.matrixSize());
            Integer gpuNuma = t.gpu(device).numaNode();
            for (NumaPlacement numa : NumaPlacement.values()) {
                Optional<String> numaSkip = Feasibility.numa(numa, numaNodes, gpuNuma);
                if (numaSkip.isPresent() && numa == NumaPlacement.REMOTE) {
                    // One row says why, not one per size.
                    add(plan, host(p, device, HostDirection.H2D, HostMemory.PINNED, numa, p.matrixSize(),
                            Metric.BANDWIDTH, "sweep", numaSkip.get()));
                    continue;
                }
                for (long size : sizes) {
                    for (HostMemory memory : HostMemory.values()) {
                        for (HostDirection dir : HostDirection.values()) {
                            add(plan, host(p, device, dir, memory, numa, size, Metric.BANDWIDTH, "sweep",
                                    numaSkip.orElse(null)));
                            add(plan, host(p, device, dir, memory, numa, size, Metric.LATENCY, "sweep",
                                    numaSkip.orElse(null)));
                        }
                        add(plan, hostBidirectional(p, device, memory, numa, size, numaSkip.orElse(null)));
                    }
                }
            }
        }
    }

    /** Largest size of the rows that compare the Java bindings (small copies, where the call cost shows). */
    public static final long BINDING_MAX_BYTES = 64 * Sizes.KIB;

    /**
     * The binding comparison: for the small latency rows of the first sweep pair's CE_P2P_READ copy
     * and of the first GPU's pinned host copies (local memory), the same copy through JCuda's driver
     * API, planned right after its JavaCPP row (group {@code binding}).
     */
    private static void planBindings(GpuPair firstPair, int firstDevice, Map<String, Combination> plan) {
        List<Combination> ordered = new ArrayList<>();
        for (Combination c : plan.values()) {
            ordered.add(c);
            Map<String, String> q = c.params();
            boolean peerRow = Kind.PEER.label().equals(c.kind()) && CopyPath.CE_P2P_READ.name().equals(q.get("path"))
                    && firstPair.toString().equals(q.get("pair"));
            boolean hostRow = Kind.HOST.label().equals(c.kind()) && HostMemory.PINNED.name().equals(q.get("memory"))
                    && NumaPlacement.LOCAL.name().equals(q.get("numa"))
                    && Integer.toString(firstDevice).equals(q.get("device"));
            if ((peerRow || hostRow) && Metric.LATENCY.label().equals(c.metric()) && c.sizeBytes() <= BINDING_MAX_BYTES
                    && !c.plannedSkip() && Binding.JAVACPP_RUNTIME.name().equals(q.get("binding"))) {
                // Right after its JavaCPP row: on a drifting VM, minutes apart is already a difference.
                ordered.add(jcudaTwin(c));
            }
        }
        plan.clear();
        for (Combination c : ordered) {
            add(plan, c);
        }
    }

    /** The same latency row with its copies and waits through JCuda's driver API (only {@code binding} differs). */
    static Combination jcudaTwin(Combination c) {
        String tag = "-" + Metric.LATENCY.idTag() + "-";
        String prefix = Kind.of(c.kind()).label() + tag;
        if (!c.id().startsWith(prefix)) {
            throw new IllegalArgumentException(c.id() + " is not a latency row of kind " + c.kind());
        }
        String id = Kind.of(c.kind()).label() + tag + "jcuda-" + c.id().substring(prefix.length());
        Map<String, String> params = new LinkedHashMap<>(c.params());
        params.put("binding", Binding.JCUDA_DRIVER.name());
        return new Combination(id, c.benchmark(), c.kind(), c.metric(), params, "binding", c.link(), c.sizeBytes(),
                c.singleGpu(), null, c.predictedSeconds());
    }

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

    private static void planCollectives(Topology t, Preset p, Request r, Map<String, Combination> plan) {
        Group ring = ringGroup(t, r);
        Group nccl = ncclGroup(t, r);
        if (r.wants(ALLREDUCE_RING)) {
            for (long size : p.collectiveSizes()) {
                for (DataType type : p.collectiveTypes()) {
                    for (CollectivePath path : CollectivePath.values()) {
                        add(plan, ring(t, p, ring, type, path, size, Metric.BANDWIDTH));
                        if (p.collectiveLatency() || (type == DataType.FLOAT32 && path == CollectivePath.P2P)) {
                            add(plan, ring(t, p, ring, type, path, size, Metric.LATENCY));
                        }
                    }
                }
            }
        }
        if (r.wants(NCCL)) {
            for (long size : p.collectiveSizes()) {
                for (BusBandwidth.Operation op : BusBandwidth.Operation.values()) {
                    for (DataType type : p.collectiveTypes()) {
                        if (type != DataType.FLOAT32 && op != BusBandwidth.Operation.ALL_REDUCE && !p.collectiveLatency()) {
                            continue; // quick: bfloat16 for all-reduce only
                        }
                        add(plan, nccl(p, nccl, op, type, size, Metric.BANDWIDTH));
                        if (p.collectiveLatency() || (type == DataType.FLOAT32 && op == BusBandwidth.Operation.ALL_REDUCE)) {
                            add(plan, nccl(p, nccl, op, type, size, Metric.LATENCY));
                        }
                    }
                }
            }
        }
        if (r.wants(EXCHANGE)) {
            for (ActivationExchange.Pattern pattern : ActivationExchange.Pattern.values()) {
                ModelPreset model = r.model() != null ? ModelPreset.named(r.model())
                        : pattern == ActivationExchange.Pattern.EXPERT ? ModelPreset.MOE_8X_TOP2 : ModelPreset.DENSE_8B;
                for (CollectivePath path : CollectivePath.values()) {
                    add(plan, exchange(t, p, ring, pattern, model, path, Metric.BANDWIDTH));
                    if (p.collectiveLatency()) {
                        add(plan, exchange(t, p, ring, pattern, model, path, Metric.LATENCY));
                    }
                }
            }
        }
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

    private static Combination ring(Topology t, Preset p, Group g, DataType type, CollectivePath path, long size,
                                    Metric metric) {
        String id = "ring-" + metric.idTag() + "-" + type + "-" + path + "-" + groupId(g) + "-" + Sizes.compact(size);
        JmhBenchmark bench = JmhBenchmark.ALL_REDUCE;
        return combination(id, bench, metric, bench.params(g, type, path, size), "collective", "group", size,
                g.repeatsDevices(), skipForGroup(t, g, path), TimePredictor.collective(p.timing(metric), size, type, g.size(), false));
    }

    private static Combination nccl(Preset p, Group g, BusBandwidth.Operation op, DataType type, long size,
                                    Metric metric) {
        String id = "nccl-" + metric.idTag() + "-" + op + "-" + type + "-" + groupId(g) + "-" + Sizes.compact(size);
        String skip = null;
        try {
            NcclCollective.requireShape(g, op, type, size);
        } catch (IllegalArgumentException e) {
            skip = e.getMessage();
        }
        JmhBenchmark bench = JmhBenchmark.NCCL_COLLECTIVE;
        return combination(id, bench, metric, bench.params(g, op, type, size), "collective", "group", size,
                g.measuresNoInterconnect(), skip,
                TimePredictor.collective(p.timing(metric), size, type, g.size(), true));
    }

    /** The pipeline crosses every boundary of the group (ranks - 1); expert routing is uniform (1 / ranks). */
    private static Combination exchange(Topology t, Preset p, Group g, ActivationExchange.Pattern pattern,
                                        ModelPreset preset, CollectivePath path, Metric metric) {
        ModelShape model = preset.shape();
        String id = "exch-" + metric.idTag() + "-" + pattern + "-" + model.name() + "-" + path + "-" + groupId(g);
        String skip = null;
        try {
            ActivationExchange.requireShape(pattern, g, model, g.size() - 1, 1.0 / g.size());
        } catch (IllegalArgumentException e) {
            skip = e.getMessage();
        }
        if (skip == null) {
            skip = skipForGroup(t, g, path);
        }
        long size = model.activationBytes();
        JmhBenchmark bench = JmhBenchmark.ACTIVATION_EXCHANGE;
        return combination(id, bench, metric, bench.params(g, pattern, preset, path), "collective", "group", size,
                g.repeatsDevices(), skip, TimePredictor.exchange(p.timing(metric)));
    }

    private static Combination combination(String id, JmhBenchmark bench, Metric metric, Map<String, String> params,
                                           String group, String link, long size, boolean singleGpu, String skip,
                                           double predictedSeconds) {
        return new Combination(id, bench.method(metric), bench.kind().label(), metric.label(), params, group, link, size,
                singleGpu, skip, predictedSeconds);
    }

    private static void add(Map<String, Combination> plan, Combination c) {
        plan.putIfAbsent(c.id(), c);
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

    private static Combination peer(Topology t, Preset p, GpuPair pair, CopyPath path, long size, Metric metric,
                                    boolean bidirectional, String group) {
        String id = (bidirectional ? "peer-bidir-" : "peer-" + metric.idTag() + "-") + path + "-" + pair.src() + "-"
                + pair.dst() + "-" + Sizes.compact(size);
        JmhBenchmark bench = bidirectional ? JmhBenchmark.PEER_COPY_BIDIRECTIONAL : JmhBenchmark.PEER_COPY;
        String skip = Feasibility.peerCopy(path, pair, t).orElse(null);
        if (skip == null) {
            long need = Feasibility.deviceBytesPerGpu(pair, size, bidirectional);
            long have = Math.min(t.gpu(pair.src()).memoryBytes(), t.gpu(pair.dst()).memoryBytes());
            if (need > have) {
                skip = "too little memory: needs " + Sizes.format(need) + " per GPU, GPU has " + Sizes.format(have);
            }
        }
        String link = t.pair(pair.src(), pair.dst()).map(pi -> pi.link().label()).orElse("?");
        // One-way copies name their Java binding (JavaCPP's; planBindings adds the JCuda twins).
        Map<String, String> params = bidirectional ? bench.params(pair, path, size)
                : bench.params(pair, path, size, Binding.JAVACPP_RUNTIME);
        return combination(id, bench, metric, params, group, link, size, pair.sameGpu(), skip,
                TimePredictor.transfer(bidirectional ? Kind.PEER_BIDIR : Kind.PEER, p.timing(metric), size, false));
    }

    private static Combination host(Preset p, int device, HostDirection dir, HostMemory memory, NumaPlacement numa,
                                    long size, Metric metric, String group, String skip) {
        String id = "host-" + metric.idTag() + "-" + dir + "-" + memory + "-" + numa + "-gpu" + device + "-"
                + Sizes.compact(size);
        JmhBenchmark bench = JmhBenchmark.HOST_DEVICE_COPY;
        return combination(id, bench, metric, bench.params(device, dir, memory, numa, size, Binding.JAVACPP_RUNTIME),
                group, "host", size, false, skip,
                TimePredictor.transfer(Kind.HOST, p.timing(metric), size, memory == HostMemory.PAGEABLE));
    }

    private static Combination hostBidirectional(Preset p, int device, HostMemory memory, NumaPlacement numa, long size,
                                                 String skip) {
        String id = "host-bidir-" + memory + "-" + numa + "-gpu" + device + "-" + Sizes.compact(size);
        JmhBenchmark bench = JmhBenchmark.HOST_DEVICE_BIDIRECTIONAL;
        return combination(id, bench, Metric.BANDWIDTH, bench.params(device, memory, numa, size), "sweep", "host", size,
                false, skip, TimePredictor.transfer(Kind.HOST_BIDIR, p.bandwidth(), size, memory == HostMemory.PAGEABLE));
    }

    /** Total predicted seconds of the combinations that will run. */
    public static double predictedSeconds(List<Combination> plan) {
        return plan.stream().filter(c -> !c.plannedSkip()).mapToDouble(Combination::predictedSeconds).sum();
    }

    /** The plan as printed before a run starts (and by --dry-run), one JVM per curve (the default). */
    public static String describe(Topology t, Preset preset, List<Combination> plan) {
        return describe(t, preset, plan, ForkGroups.Mode.GROUPED);
    }

    /** The plan as printed before a run starts (and by --dry-run). */
    public static String describe(Topology t, Preset preset, List<Combination> plan, ForkGroups.Mode mode) {
        StringBuilder sb = new StringBuilder();
        long runs = plan.stream().filter(c -> !c.plannedSkip()).count();
        double[] predicted = TimePredictor.run(plan, preset, TimePredictor.RunShape.current().with(mode), c -> null);
        int jvms = ForkGroups.of(plan, mode, c -> null).size();
        sb.append(String.format(Locale.ROOT, "Plan for %s (%d GPU%s), preset %s: %d benchmarks to run, %d skipped, "
                        + "predicted %s%n", t.fingerprint(), t.gpuCount(), t.gpuCount() == 1 ? "" : "s", preset.name(),
                runs, plan.size() - runs, formatDuration(predicted[0])));
        if (runs > 0) {
            sb.append(String.format(Locale.ROOT, "  in %d JVM%s (%s); measurement iterations %s of it, overhead %.0f%%%n",
                    jvms, jvms == 1 ? "" : "s", mode == ForkGroups.Mode.GROUPED ? "one per curve" : "one per benchmark",
                    formatDuration(predicted[1]), 100 * (1 - predicted[1] / Math.max(predicted[0], 1e-9))));
        }
        Map<String, int[]> groups = new LinkedHashMap<>();
        Map<String, List<Long>> sizes = new LinkedHashMap<>();
        for (Combination c : plan) {
            if (c.plannedSkip()) {
                continue;
            }
            String key = String.format(Locale.ROOT, "%-10s %-14s %-9s", c.group(), c.kind(), c.metric());
            groups.computeIfAbsent(key, k -> new int[1])[0]++;
            sizes.computeIfAbsent(key, k -> new ArrayList<>()).add(c.sizeBytes());
        }
        for (Map.Entry<String, int[]> e : groups.entrySet()) {
            List<Long> s = sizes.get(e.getKey());
            long min = s.stream().mapToLong(Long::longValue).min().orElse(0);
            long max = s.stream().mapToLong(Long::longValue).max().orElse(0);
            sb.append(String.format(Locale.ROOT, "  %s %4d  sizes %s%n", e.getKey(), e.getValue()[0],
                    min == max ? Sizes.format(min) : Sizes.format(min) + " .. " + Sizes.format(max)));
        }
        Map<String, Set<String>> reasons = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Combination c : plan) {
            if (c.plannedSkip()) {
                String what = c.params().getOrDefault("path", c.kind() + " " + c.params().getOrDefault("numa", ""));
                String key = what.strip() + ": " + c.skipReason();
                reasons.computeIfAbsent(key, k -> new java.util.TreeSet<>())
                        .add(skipWhere(c));
                counts.merge(key, 1, Integer::sum);
            }
        }
        if (!reasons.isEmpty()) {
            sb.append("Skipped here (recorded in the results with these reasons):\n");
            reasons.forEach((r, where) -> sb.append(String.format(Locale.ROOT, "  %4d x %s [%s]%n", counts.get(r), r,
                    where.size() > 4 ? where.size() + " pairs" : String.join(", ", where))));
        }
        sb.append(ServingPlanner.describe(plan));
        return sb.toString();
    }

    /** Where a planned skip applies: its pair, its GPU or its group, never a placeholder. */
    static String skipWhere(Combination c) {
        Map<String, String> p = c.params();
        if (p.containsKey("pair")) {
            return p.get("pair");
        }
        if (p.containsKey("device")) {
            return "GPU" + p.get("device");
        }
        if (p.containsKey("group")) {
            return "group " + p.get("group");
        }
        return c.id();
    }

    /** {@code 2m05s}, {@code 1h02m}, {@code 40s}. */
    public static String formatDuration(double seconds) {
        long s = Math.round(seconds);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return s + "s";
    }
}
