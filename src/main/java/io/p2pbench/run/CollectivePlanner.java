package io.p2pbench.run;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelPreset;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.collective.NcclCollective;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.Exchange;
import io.p2pbench.spec.NcclOp;
import io.p2pbench.spec.Ring;
import io.p2pbench.spec.Skip;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.Sizes;
import java.util.Map;

/** The collective rows of a plan: the suite's ring all-reduce, NCCL's collectives and the activation exchanges. */
final class CollectivePlanner {
    private CollectivePlanner() {}

    static void plan(Topology t, Preset p, RunPlanner.Request r, Map<String, Combination> plan) {
        Group ring = RunPlanner.ringGroup(t, r);
        Group nccl = RunPlanner.ncclGroup(t, r);
        if (r.wants(RunPlanner.ALLREDUCE_RING)) {
            for (long size : p.collectiveSizes()) {
                for (DataType type : p.collectiveTypes()) {
                    for (CollectivePath path : CollectivePath.values()) {
                        add(plan, ring(t, p, new Ring(ring, type, path, size), Metric.BANDWIDTH));
                        if (p.collectiveLatency() || (type == DataType.FLOAT32 && path == CollectivePath.P2P)) {
                            add(plan, ring(t, p, new Ring(ring, type, path, size), Metric.LATENCY));
                        }
                    }
                }
            }
        }
        if (r.wants(RunPlanner.NCCL)) {
            for (long size : p.collectiveSizes()) {
                for (BusBandwidth.Operation op : BusBandwidth.Operation.values()) {
                    for (DataType type : p.collectiveTypes()) {
                        if (type != DataType.FLOAT32 && op != BusBandwidth.Operation.ALL_REDUCE && !p.collectiveLatency()) {
                            continue; // quick: bfloat16 for all-reduce only
                        }
                        add(plan, nccl(p, new NcclOp(nccl, op, type, size), Metric.BANDWIDTH));
                        if (p.collectiveLatency() || (type == DataType.FLOAT32 && op == BusBandwidth.Operation.ALL_REDUCE)) {
                            add(plan, nccl(p, new NcclOp(nccl, op, type, size), Metric.LATENCY));
                        }
                    }
                }
            }
        }
        if (r.wants(RunPlanner.EXCHANGE)) {
            for (ActivationExchange.Pattern pattern : ActivationExchange.Pattern.values()) {
                ModelPreset model = r.model() != null ? ModelPreset.named(r.model())
                        : pattern == ActivationExchange.Pattern.EXPERT ? ModelPreset.MOE_8X_TOP2 : ModelPreset.DENSE_8B;
                for (CollectivePath path : CollectivePath.values()) {
                    add(plan, exchange(t, p, new Exchange(ring, pattern, model, path), Metric.BANDWIDTH));
                    if (p.collectiveLatency()) {
                        add(plan, exchange(t, p, new Exchange(ring, pattern, model, path), Metric.LATENCY));
                    }
                }
            }
        }
    }

    private static Combination ring(Topology t, Preset p, Ring s, Metric metric) {
        Group g = s.group();
        String id = "ring-" + metric.idTag() + "-" + s.dtype() + "-" + s.path() + "-" + RunPlanner.groupId(g) + "-"
                + Sizes.compact(s.sizeBytes());
        return s.combination(id, metric, "collective", "group", s.sizeBytes(), g.repeatsDevices(),
                Skip.of(SkipCause.NO_PEER_ACCESS, RunPlanner.skipForGroup(t, g, s.path())),
                TimePredictor.collective(p.timing(metric), s.sizeBytes(), s.dtype(), s.ranks(), false));
    }

    private static Combination nccl(Preset p, NcclOp s, Metric metric) {
        Group g = s.group();
        String id = "nccl-" + metric.idTag() + "-" + s.operation() + "-" + s.dtype() + "-" + RunPlanner.groupId(g) + "-"
                + Sizes.compact(s.sizeBytes());
        Skip skip = null;
        try {
            NcclCollective.requireShape(g, s.operation(), s.dtype(), s.sizeBytes());
        } catch (IllegalArgumentException e) {
            skip = new Skip(SkipCause.DOES_NOT_DIVIDE, e.getMessage());
        }
        return s.combination(id, metric, "collective", "group", s.sizeBytes(), g.measuresNoInterconnect(), skip,
                TimePredictor.collective(p.timing(metric), s.sizeBytes(), s.dtype(), s.ranks(), true));
    }

    /** The pipeline crosses every boundary of the group (ranks - 1); expert routing is uniform (1 / ranks). */
    private static Combination exchange(Topology t, Preset p, Exchange s, Metric metric) {
        Group g = s.group();
        ModelShape model = s.model().shape();
        String id = "exch-" + metric.idTag() + "-" + s.pattern() + "-" + model.name() + "-" + s.path() + "-"
                + RunPlanner.groupId(g);
        Skip skip = null;
        try {
            ActivationExchange.requireShape(s.pattern(), g, model, g.size() - 1, 1.0 / g.size());
        } catch (IllegalArgumentException e) {
            skip = new Skip(SkipCause.DOES_NOT_DIVIDE, e.getMessage());
        }
        if (skip == null) {
            skip = Skip.of(SkipCause.NO_PEER_ACCESS, RunPlanner.skipForGroup(t, g, s.path()));
        }
        return s.combination(id, metric, "collective", "group", s.sizeBytes(), g.repeatsDevices(), skip,
                TimePredictor.exchange(p.timing(metric)));
    }

    private static void add(Map<String, Combination> plan, Combination c) {
        plan.putIfAbsent(c.id(), c);
    }
}
