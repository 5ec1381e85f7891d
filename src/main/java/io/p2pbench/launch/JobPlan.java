package io.p2pbench.launch;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.collective.ProcessCollective;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.spec.Combination;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The steps of a job of several processes, made by every rank alike from every rank's {@link RankHello}: the
 * CUDA IPC copies of each host (the first two ranks over every size, every ordered pair of ranks at one large
 * size; a host's copies one after another, the hosts at once), then the NCCL collectives over all ranks
 * (inter-node where the job spans hosts, else intra-node) and, on several hosts, over the ranks of each host at
 * once (intra-node). Ranks sharing a GPU make a single-GPU row, as the suite labels a group like {@code 0,0}.
 */
public final class JobPlan {
    /** Where a collective runs. */
    public enum Scope {
        /** Every rank of the job. */
        WORLD,
        /** The ranks of one host (ncclCommSplit by host). */
        HOST
    }

    /** One step; every rank runs the steps it takes part in, in plan order. */
    public sealed interface Step permits IpcStep, CollectiveStep {
        /** Unique, path-safe. */
        String id();

        /** The ranks taking part. */
        List<Integer> ranks();
    }

    /**
     * A copy from {@code exporter}'s GPU memory to {@code importer}'s through CUDA IPC, on {@code host}.
     *
     * @param previous the copy that runs on the same host just before, which must be over first; null for the first
     * @param skipReason why it cannot run, planned (both ranks skip it), else null
     */
    public record IpcStep(String id, String host, int exporter, int importer, long sizeBytes, boolean sameGpu,
                          String previous, String skipReason) implements Step {
        @Override
        public List<Integer> ranks() {
            return List.of(exporter, importer);
        }

        /** The pattern seed both ranks derive from the id. */
        public int seed() {
            return id.hashCode();
        }
    }

    /**
     * One collective over {@code ranks}; {@code host} for a {@link Scope#HOST} step, else null.
     *
     * @param sharedGpu two of the ranks use one GPU (NCCL refuses that)
     * @param skipReason why it cannot run, planned, else null
     */
    public record CollectiveStep(String id, Scope scope, String host, Operation op, DataType type, long sizeBytes,
                                 List<Integer> ranks, int hosts, boolean sharedGpu, String skipReason) implements Step {
        /** {@code inter-node} when its ranks span hosts, else {@code intra-node}. */
        public String span() {
            return hosts > 1 ? "inter-node" : "intra-node";
        }
    }

    private final List<RankHello> world;
    private final List<String> hosts;
    private final List<Step> steps;
    private final boolean testOnly;
    private final Topology links;

    private JobPlan(List<RankHello> world, List<String> hosts, List<Step> steps, boolean testOnly, Topology links) {
        this.world = world;
        this.hosts = hosts;
        this.steps = steps;
        this.testOnly = testOnly;
        this.links = links;
    }

    /**
     * The plan for {@code world} (one hello per rank, any order).
     *
     * @param ncclSkip why no NCCL collective can run in this job (no NCCL in a test stand-in), or null
     * @param links this rank's node, whose link matrix names the link of a copy between two ranks on a host of the
     *     same machine kind (fingerprint), found by PCI bus id; null where unknown ({@code ?})
     */
    public static JobPlan make(List<RankHello> world, JobRequest request, boolean testOnly, String ncclSkip,
                               Topology links) {
        List<RankHello> ranks = world.stream().sorted(Comparator.comparingInt(RankHello::rank)).toList();
        Map<String, List<RankHello>> byHost = new LinkedHashMap<>();
        for (RankHello h : ranks) {
            byHost.computeIfAbsent(h.host(), k -> new ArrayList<>()).add(h);
        }
        List<String> hosts = List.copyOf(byHost.keySet());
        List<Step> steps = new ArrayList<>();
        if (request.ipc()) {
            for (Map.Entry<String, List<RankHello>> e : byHost.entrySet()) {
                steps.addAll(ipcSteps(e.getKey(), e.getValue(), request));
            }
        }
        if (request.nccl()) {
            String skip = ncclSkip != null ? ncclSkip : bootstrapProblem(ranks);
            for (Operation op : sorted(request.operations())) {
                for (DataType type : sorted(request.collectiveTypes())) {
                    for (long size : request.collectiveSizes()) {
                        steps.add(collective(Scope.WORLD, null, op, type, size, ranks, hosts.size(), skip));
                    }
                }
            }
            if (hosts.size() > 1) {
                for (Operation op : sorted(request.operations())) {
                    for (DataType type : sorted(request.collectiveTypes())) {
                        for (long size : request.collectiveSizes()) {
                            for (Map.Entry<String, List<RankHello>> e : byHost.entrySet()) {
                                steps.add(collective(Scope.HOST, e.getKey(), op, type, size, e.getValue(), 1, skip));
                            }
                        }
                    }
                }
            }
        }
        return new JobPlan(ranks, hosts, List.copyOf(steps), testOnly, links);
    }

    private static <E extends Enum<E>> List<E> sorted(Set<E> set) {
        return set.stream().sorted().toList();
    }

    private static List<IpcStep> ipcSteps(String host, List<RankHello> onHost, JobRequest request) {
        List<RankHello> local = onHost.stream().sorted(Comparator.comparingInt(RankHello::localRank)).toList();
        List<IpcStep> out = new ArrayList<>();
        if (local.size() < 2) {
            return out;
        }
        List<long[]> wanted = new ArrayList<>(); // exporter index, importer index, size
        for (long size : request.ipcSweepSizes()) {
            wanted.add(new long[] {0, 1, size});
        }
        for (int a = 0; a < local.size(); a++) {
            for (int b = 0; b < local.size(); b++) {
                boolean inSweep = a == 0 && b == 1 && request.ipcSweepSizes().contains(request.ipcMatrixSize());
                if (a != b && !inSweep) {
                    wanted.add(new long[] {a, b, request.ipcMatrixSize()});
                }
            }
        }
        String previous = null;
        for (long[] w : wanted) {
            RankHello exporter = local.get((int) w[0]);
            RankHello importer = local.get((int) w[1]);
            String id = "ipc-r" + exporter.rank() + "-r" + importer.rank() + "-" + Sizes.compact(w[2]);
            String skip = exporter.sameGpu(importer) || importer.sees(exporter) ? null : "CUDA IPC between two GPUs "
                    + "needs the exporter's GPU visible in the importing process, and rank " + importer.rank()
                    + " sees only CUDA_VISIBLE_DEVICES=" + importer.cudaVisibleDevices() + "; start the ranks seeing "
                    + "every GPU of the node (local rank i takes GPU i), as vLLM's workers do";
            out.add(new IpcStep(id, host, exporter.rank(), importer.rank(), w[2], exporter.sameGpu(importer), previous,
                    skip));
            if (skip == null) {
                previous = id; // a skipped copy has no end to wait for
            }
        }
        return out;
    }

    private static CollectiveStep collective(Scope scope, String host, Operation op, DataType type, long size,
                                             List<RankHello> ranks, int hosts, String skip) {
        String where = scope == Scope.WORLD ? "world" : "host" + hostTag(host);
        String id = "nccl-" + op + "-" + type + "-" + where + "-" + Sizes.compact(size);
        boolean shared = false;
        for (int i = 0; i < ranks.size(); i++) {
            for (int j = i + 1; j < ranks.size(); j++) {
                shared |= ranks.get(i).sameGpu(ranks.get(j));
            }
        }
        String reason = skip;
        if (reason == null && ranks.size() < 2) {
            reason = "a collective needs 2 or more ranks; " + (host == null ? "the job" : host) + " has 1";
        }
        if (reason == null) {
            try {
                ProcessCollective.requireShape(ranks.size(), op, type, size);
            } catch (IllegalArgumentException e) {
                reason = e.getMessage();
            }
        }
        return new CollectiveStep(id, scope, host, op, type, size, ranks.stream().map(RankHello::rank).toList(), hosts,
                shared, reason);
    }

    private static String hostTag(String host) {
        return "-" + host.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /**
     * Why NCCL cannot bootstrap in this job, or null: NCCL_COMM_ID missing for some rank, different between ranks,
     * or not naming rank 0's host (rank 0 says whether it does).
     */
    static String bootstrapProblem(List<RankHello> ranks) {
        List<Integer> missing = ranks.stream().filter(h -> h.ncclCommId() == null).map(RankHello::rank).toList();
        if (!missing.isEmpty()) {
            return "NCCL_COMM_ID is not set for " + (missing.size() == ranks.size() ? "any rank"
                    : "rank" + (missing.size() == 1 ? " " : "s ") + join(missing)) + "; set it to rank 0's host and a "
                    + "free port in every rank's environment (e.g. export NCCL_COMM_ID=$(hostname):29517 in the batch "
                    + "script; docs/multiprocess.md)";
        }
        Map<String, List<Integer>> values = ranks.stream().collect(Collectors.groupingBy(RankHello::ncclCommId,
                LinkedHashMap::new, Collectors.mapping(RankHello::rank, Collectors.toList())));
        if (values.size() > 1) {
            return "the ranks disagree on NCCL_COMM_ID (" + values.entrySet().stream()
                    .map(e -> e.getKey() + " for rank" + (e.getValue().size() == 1 ? " " : "s ") + join(e.getValue()))
                    .collect(Collectors.joining(", ")) + "); give every rank rank 0's host:port";
        }
        RankHello zero = ranks.get(0);
        if (Boolean.FALSE.equals(zero.ncclCommIdHere())) {
            return "NCCL_COMM_ID=" + zero.ncclCommId() + " does not name rank 0's host (" + zero.host() + "), where "
                    + "NCCL's bootstrap root listens; set it to " + zero.host() + ":PORT";
        }
        return null;
    }

    private static String join(List<Integer> ranks) {
        return ranks.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** Every rank's hello, by rank. */
    public List<RankHello> world() {
        return world;
    }

    /** The hosts, in the order of their lowest rank. */
    public List<String> hosts() {
        return hosts;
    }

    /** Every step, in order. */
    public List<Step> steps() {
        return steps;
    }

    /** The steps rank {@code rank} takes part in, in order. */
    public List<Step> stepsOf(int rank) {
        return steps.stream().filter(s -> s.ranks().contains(rank)).toList();
    }

    /** The manifest entries rank {@code rank} writes, in plan order: the copies it imports, its collective ranks. */
    public List<Combination> combinationsOf(int rank) {
        List<Combination> out = new ArrayList<>();
        for (Step s : stepsOf(rank)) {
            if (!(s instanceof IpcStep ipc) || ipc.importer() == rank) {
                out.add(combination(s, rank));
            }
        }
        return out;
    }

    /** The entry rank {@code rank} writes for step {@code s}. */
    public Combination combination(Step s, int rank) {
        Map<String, String> params = new LinkedHashMap<>();
        if (s instanceof IpcStep ipc) {
            ProcessKind kind = testOnly ? ProcessKind.TEST_STAND_IN : ProcessKind.IPC;
            params.put("ranks", ipc.exporter() + "-" + ipc.importer());
            params.put("path", "CE_IPC_READ");
            params.put("sizeBytes", Long.toString(ipc.sizeBytes()));
            params.put("span", "intra-node");
            params.put("host", ipc.host());
            return new Combination(kind.idTag() + "-bw-" + ipc.id().substring("ipc-".length()), kind.measuredBy(),
                    kind.label(), "bandwidth", params, "multiprocess", link(ipc), ipc.sizeBytes(),
                    ipc.sameGpu(), ipc.skipReason(), 1.0);
        }
        CollectiveStep c = (CollectiveStep) s;
        params.put("ranks", join(c.ranks()).replace(" ", ""));
        params.put("operation", c.op().name());
        params.put("dtype", c.type().name());
        params.put("sizeBytes", Long.toString(c.sizeBytes()));
        params.put("span", c.span());
        params.put("hosts", Integer.toString(c.hosts()));
        params.put("rank", Integer.toString(rank));
        return new Combination(ProcessKind.NCCL_PROCESSES.idTag() + "-bw-" + c.id().substring("nccl-".length())
                + "-r" + rank, ProcessKind.NCCL_PROCESSES.measuredBy(), ProcessKind.NCCL_PROCESSES.label(),
                "bandwidth", params, "multiprocess", "group", c.sizeBytes(), c.sharedGpu(), c.skipReason(), 2.0);
    }

    /** The link class between the GPUs of a copy's two ranks ({@code X}: the same GPU), or {@code ?}. */
    String link(IpcStep ipc) {
        if (ipc.sameGpu()) {
            return "X";
        }
        RankHello a = world.get(ipc.exporter());
        RankHello b = world.get(ipc.importer());
        if (links == null || !links.fingerprint().equals(a.fingerprint()) || !links.fingerprint().equals(b.fingerprint())) {
            return "?";
        }
        Integer ia = byBus(a.pciBusId());
        Integer ib = byBus(b.pciBusId());
        return ia == null || ib == null ? "?" : links.pair(ia, ib).map(p -> p.link().label()).orElse("?");
    }

    private Integer byBus(String bus) {
        return links.gpus().stream().filter(g -> bus != null && bus.equalsIgnoreCase(g.pciBusId()))
                .map(GpuInfo::index).findFirst().orElse(null);
    }

    /** One line: how many copies and collectives, and over what. */
    public String describe() {
        long copies = steps.stream().filter(s -> s instanceof IpcStep).count();
        List<CollectiveStep> collectives = steps.stream().filter(s -> s instanceof CollectiveStep)
                .map(s -> (CollectiveStep) s).toList();
        long skipped = collectives.stream().filter(c -> c.skipReason() != null).count();
        return String.format(Locale.ROOT, "Plan: %d CUDA IPC cop%s (%s), %d NCCL collective%s (%s)%s",
                copies, copies == 1 ? "y" : "ies", testOnly ? "CPU test stand-in" : "intra-node",
                collectives.size(), collectives.size() == 1 ? "" : "s",
                hosts.size() > 1 ? "all ranks inter-node, and each host's ranks intra-node" : "all ranks, intra-node",
                skipped > 0 ? "; " + skipped + " cannot run: "
                        + collectives.stream().filter(c -> c.skipReason() != null).findFirst().orElseThrow().skipReason()
                        : "");
    }
}
