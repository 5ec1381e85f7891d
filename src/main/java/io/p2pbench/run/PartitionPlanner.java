package io.p2pbench.run;

import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.results.Combination;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.Topology;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The partition study's benchmarks for {@code --paths PARTITION}: every plan over the group
 * (SINGLE on its first GPU), every transport, decode and prefill, eager and CUDA graph steps, and
 * one request benchmark per plan and transport (graphs). A plan that does not divide the model,
 * does not fit the GPUs' memory, or is not implemented is a planned skip with its reason.
 */
final class PartitionPlanner {
    static final String BENCH = JmhBenchmark.PACKAGE + ".PartitionBenchmark.";
    static final int BATCH = 8;
    static final int PROMPT = 2048;
    static final int CONTEXT = 4096;
    static final int DECODE_STEPS = 32;

    private PartitionPlanner() {}

    static void plan(Topology t, Preset p, Group group, String modelName, BiConsumer<String, Combination> add) {
        ModelShape model = ModelShape.named(modelName == null ? "DENSE_8B" : modelName);
        for (Plan plan : Plan.values()) {
            for (Transport transport : Transport.values()) {
                if (plan == Plan.SINGLE && transport != Transport.P2P) {
                    continue; // nothing crosses between ranks
                }
                for (Phase phase : Phase.values()) {
                    for (boolean graph : new boolean[] {false, true}) {
                        Combination c = combination(t, p, group, model, plan, transport, phase, graph, "step");
                        add.accept(c.id(), c);
                    }
                }
                Combination c = combination(t, p, group, model, plan, transport, Phase.DECODE, true, "request");
                add.accept(c.id(), c);
            }
        }
    }

    private static Combination combination(Topology t, Preset p, Group g, ModelShape model, Plan plan,
                                           Transport transport, Phase phase, boolean graph, String metric) {
        int ranks = plan == Plan.SINGLE ? 1 : g.size();
        String id = "part-" + metric + "-" + model.name() + "-" + plan + "-" + transport + "-"
                + (metric.equals("request") ? "REQUEST" : phase.name()) + (graph ? "-graph" : "-eager") + "-"
                + RunPlanner.groupId(plan == Plan.SINGLE ? new Group(java.util.List.of(g.device(0))) : g);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("group", g.toString());
        params.put("model", model.name());
        params.put("plan", plan.name());
        params.put("transport", transport.name());
        params.put("phase", phase.name());
        params.put("batch", Integer.toString(BATCH));
        params.put("prompt", Integer.toString(PROMPT));
        params.put("context", Integer.toString(CONTEXT));
        params.put("decodeSteps", Integer.toString(DECODE_STEPS));
        params.put("graph", Boolean.toString(graph));
        PartitionSpec spec = new PartitionSpec(model, plan, ranks, phase, BATCH, PROMPT, CONTEXT);
        String skip = null;
        try {
            spec.requireDivides();
        } catch (IllegalArgumentException e) {
            skip = e.getMessage();
        }
        if (skip == null && plan == Plan.EP) {
            skip = "plan EP is not implemented in the partition step yet";
        }
        if (skip == null) {
            skip = doesNotFit(t, g, spec);
        }
        if (skip == null && transport != Transport.HOST_STAGED && plan != Plan.SINGLE) {
            skip = RunPlanner.skipForGroup(t, g, transport == Transport.P2P ? CollectivePath.P2P : null);
        }
        long size = spec.activationBytes();
        Preset.Timing timing = metric.equals("request") ? p.latency() : p.bandwidth();
        double predicted = RunPlanner.FORK_OVERHEAD_SECONDS + timing.seconds() + (metric.equals("request") ? 3.0 : 2.0);
        return new Combination(id, BENCH + metric, "partition", metric.equals("request") ? "latency" : "bandwidth",
                params, "partition", "group", size, plan == Plan.SINGLE ? false : g.repeatsDevices(), skip, predicted);
    }

    private static String doesNotFit(Topology t, Group g, PartitionSpec spec) {
        int[] devices = spec.plan() == Plan.SINGLE ? new int[] {g.device(0)} : g.distinctDevices();
        for (int d : devices) {
            long total = t.gpus().stream().filter(x -> x.index() == d).mapToLong(GpuInfo::memoryBytes).findFirst()
                    .orElse(0);
            long ranksHere = spec.plan() == Plan.SINGLE ? 1 : g.devices().stream().filter(x -> x == d).count();
            String why = spec.doesNotFit(total / ranksHere);
            if (why != null) {
                return why + String.format(Locale.ROOT, " (GPU%d%s)", d, ranksHere > 1 ? ", shared by " + ranksHere
                        + " ranks" : "");
            }
        }
        return null;
    }
}
