package io.p2pbench.spec;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.Transport;
import io.p2pbench.serving.ServingSweep;
import java.util.Map;
import java.util.Optional;

/**
 * A serving sweep: requests at rising rates against a model split by {@code plan} over {@code group}, up to
 * the capacity under the sweep's latency target.
 *
 * @param group the GPUs of the split plans; {@link Plan#SINGLE} uses its first GPU alone
 * @param sweep workload, batching, target and search, written as one parameter
 */
public record Serving(Group group, ModelShape model, Plan plan, Transport transport, ServingSweep sweep)
        implements WorkloadSpec {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.SERVING;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(group, model.name(), plan, transport, sweep.encode());
    }

    /** The GPUs the ranks use: the group's first for {@link Plan#SINGLE}, else the group. */
    public Group used() {
        return PartitionRun.used(plan, group);
    }

    /** Whether the ranks share a GPU (never for {@link Plan#SINGLE}). */
    public boolean repeatsDevices() {
        return plan != Plan.SINGLE && group.repeatsDevices();
    }

    @Override
    public Serving curve() {
        return this;
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.serving(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.empty();
    }

    @Override
    public Optional<Serving> servingSweep() {
        return Optional.of(this);
    }

    /**
     * The spec of a plan row of kind {@link Kind#SERVING}.
     *
     * @throws IllegalArgumentException for a bad parameter (as {@link WorkloadSpec#of}) or a row of another kind
     */
    public static Serving of(Combination c) {
        if (WorkloadSpec.of(c) instanceof Serving s) {
            return s;
        }
        throw new IllegalArgumentException(c.id() + " is of kind " + c.kind() + ", not a serving sweep");
    }

    static Serving read(Params p) {
        return new Serving(Group.parse(p.text("group")), ModelShape.named(p.text("model")),
                p.enumValue("plan", Plan.class), p.enumValue("transport", Transport.class),
                ServingSweep.parse(p.text("sweep")));
    }
}
