package io.p2pbench.spec;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The partition study: steps (and requests) of a model split by {@code plan} over {@code group}.
 *
 * @param group the GPUs of the split plans; {@link Plan#SINGLE} uses its first GPU alone
 * @param batch sequences per step
 * @param prompt prompt tokens per sequence
 * @param context tokens each decode step attends to
 * @param decodeSteps decode steps of one request
 * @param graph whether the step is replayed as a CUDA graph
 */
public record PartitionRun(Group group, ModelShape model, Plan plan, Transport transport, Phase phase, int batch,
                           int prompt, int context, int decodeSteps, boolean graph) implements WorkloadSpec {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.PARTITION;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(group, model.name(), plan, transport, phase, batch, prompt, context, decodeSteps,
                graph);
    }

    /** Ranks of the plan: 1 for {@link Plan#SINGLE}, else one per GPU of the group. */
    public int ranks() {
        return ranks(plan, group);
    }

    /** The GPUs the ranks use: the group's first for {@link Plan#SINGLE}, else the group. */
    public Group used() {
        return used(plan, group);
    }

    /** Distinct GPUs the ranks run on. */
    public int distinctGpus() {
        return plan == Plan.SINGLE ? 1 : group.distinctDevices().length;
    }

    /** Whether the ranks share a GPU (never for {@link Plan#SINGLE}). */
    public boolean repeatsDevices() {
        return plan != Plan.SINGLE && group.repeatsDevices();
    }

    /** The step's shape and arithmetic (FLOPs, bytes, memory fit). */
    public PartitionSpec step() {
        return new PartitionSpec(model, plan, ranks(), phase, batch, prompt, context);
    }

    /** Ranks of {@code plan} over {@code group}. */
    public static int ranks(Plan plan, Group group) {
        return plan == Plan.SINGLE ? 1 : group.size();
    }

    /** The GPUs {@code plan} uses of {@code group}. */
    public static Group used(Plan plan, Group group) {
        return plan == Plan.SINGLE ? new Group(List.of(group.device(0))) : group;
    }

    @Override
    public PartitionRun curve() {
        return new PartitionRun(group, model, plan, transport, Phase.DECODE, batch, prompt, context, decodeSteps, false);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.partitionRun(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.empty();
    }

    @Override
    public Optional<PartitionRun> partitionStudyRun() {
        return Optional.of(this);
    }

    /**
     * The spec of a plan row of kind {@link Kind#PARTITION}.
     *
     * @throws IllegalArgumentException for a bad parameter (as {@link WorkloadSpec#of}) or a row of another kind
     */
    public static PartitionRun of(Combination c) {
        if (WorkloadSpec.of(c) instanceof PartitionRun s) {
            return s;
        }
        throw new IllegalArgumentException(c.id() + " is of kind " + c.kind() + ", not a partition run");
    }

    static PartitionRun read(Params p) {
        return new PartitionRun(Group.parse(p.text("group")), ModelShape.named(p.text("model")),
                p.enumValue("plan", Plan.class), p.enumValue("transport", Transport.class),
                p.enumValue("phase", Phase.class), p.intValue("batch"), p.intValue("prompt"), p.intValue("context"),
                p.intValue("decodeSteps"), p.booleanValue("graph"));
    }
}
