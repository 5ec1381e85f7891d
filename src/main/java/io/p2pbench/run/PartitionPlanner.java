package io.p2pbench.run;

import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.Skip;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The partition study's benchmarks for {@code --paths PARTITION}: every plan over the group
 * (SINGLE on its first GPU), every transport, decode and prefill, eager and CUDA graph steps, and
 * one request benchmark per plan and transport (graphs). A plan that does not divide the model or
 * does not fit the GPUs' memory is a planned skip with its reason.
 */
final class PartitionPlanner {
    static final int BATCH = 8;
    static final int PROMPT = 2048;
    static final int CONTEXT = 4096;
    static final int DECODE_STEPS = 32;

    private PartitionPlanner() {}

    /**
     * Adds the study's combinations to {@code add}.
     *
     * @param plans the plans the user named, or null for every plan; a named plan that does not
     *     divide the model over the group throws {@link IllegalArgumentException} (one line naming
     *     the value and what divides), where a default plan is a planned skip
     */
    static void plan(Topology t, Preset p, Group group, String modelName, Set<Plan> plans,
                     BiConsumer<String, Combination> add) {
        ModelShape model = ModelShape.named(modelName == null ? "DENSE_8B" : modelName);
        if (plans != null) {
            for (Plan plan : plans) {
                int ranks = plan == Plan.SINGLE ? 1 : group.size();
                new PartitionSpec(model, plan, ranks, Phase.DECODE, BATCH, PROMPT, CONTEXT).requireDivides();
            }
        }
        for (Plan plan : Plan.values()) {
            if (plans != null && !plans.contains(plan)) {
                continue;
            }
            for (Transport transport : Transport.values()) {
                if (plan == Plan.SINGLE && transport != Transport.P2P) {
                    continue; // nothing crosses between ranks
                }
                for (Phase phase : Phase.values()) {
                    for (boolean graph : new boolean[] {false, true}) {
                        Combination c = combination(t, p, group, model, plan, transport, phase, graph, Metric.BANDWIDTH);
                        add.accept(c.id(), c);
                    }
                }
                Combination c = combination(t, p, group, model, plan, transport, Phase.DECODE, true, Metric.LATENCY);
                add.accept(c.id(), c);
            }
        }
    }

    private static Combination combination(Topology t, Preset p, Group g, ModelShape model, Plan plan,
                                           Transport transport, Phase phase, boolean graph, Metric metric) {
        PartitionRun run = new PartitionRun(g, model, plan, transport, phase, BATCH, PROMPT, CONTEXT, DECODE_STEPS,
                graph);
        boolean request = metric == Metric.LATENCY;
        String id = "part-" + (request ? "request" : "step") + "-" + model.name() + "-" + plan + "-" + transport + "-"
                + (request ? "REQUEST" : phase.name()) + (graph ? "-graph" : "-eager") + "-"
                + RunPlanner.groupId(run.used());
        PartitionSpec spec = run.step();
        Skip skip = null;
        try {
            spec.requireDivides();
        } catch (IllegalArgumentException e) {
            skip = new Skip(SkipCause.DOES_NOT_DIVIDE, e.getMessage());
        }
        if (skip == null) {
            skip = Skip.of(SkipCause.DOES_NOT_FIT, doesNotFit(t, g, spec));
        }
        if (skip == null && transport != Transport.HOST_STAGED && plan != Plan.SINGLE) {
            skip = Skip.of(SkipCause.NO_PEER_ACCESS,
                    RunPlanner.skipForGroup(t, g, transport == Transport.P2P ? CollectivePath.P2P : null));
        }
        PartitionRates rates = PartitionRates.of(t);
        double operation = TimePredictor.partitionOperationSeconds(spec, run.distinctGpus(), transport, request,
                DECODE_STEPS, rates);
        double predicted = TimePredictor.partition(p.timing(metric), operation, request, rates);
        return run.combination(id, metric, "partition", "group", spec.activationBytes(), run.repeatsDevices(), skip,
                predicted);
    }

    private static String doesNotFit(Topology t, Group g, PartitionSpec spec) {
        return spec.doesNotFit(g, d -> t.gpus().stream().filter(x -> x.index() == d).mapToLong(GpuInfo::memoryBytes)
                .findFirst().orElse(0));
    }
}
