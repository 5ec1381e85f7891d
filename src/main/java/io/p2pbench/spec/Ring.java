package io.p2pbench.spec;

import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.cuda.Nccl.DataType;
import java.util.Map;
import java.util.Optional;

/** The suite's ring all-reduce over a group of ranks (a GPU may repeat). */
public record Ring(Group group, DataType dtype, CollectivePath path, long sizeBytes) implements WorkloadSpec {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.ALL_REDUCE;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(group, dtype, path, sizeBytes);
    }

    /** Ranks taking part. */
    public int ranks() {
        return group.size();
    }

    @Override
    public Ring curve() {
        return new Ring(group, DataType.FLOAT32, path, 0);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.ring(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.empty();
    }

    static Ring read(Params p) {
        return new Ring(Group.parse(p.text("group")), p.enumValue("dtype", DataType.class),
                p.enumValue("path", CollectivePath.class), p.longValue("sizeBytes"));
    }
}
