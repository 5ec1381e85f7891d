package io.p2pbench.spec;

import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.Group;
import io.p2pbench.cuda.Nccl.DataType;
import java.util.Map;
import java.util.Optional;

/** One NCCL collective over a group of GPUs. */
public record NcclOp(Group group, BusBandwidth.Operation operation, DataType dtype, long sizeBytes)
        implements WorkloadSpec {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.NCCL_COLLECTIVE;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(group, operation, dtype, sizeBytes);
    }

    /** Ranks taking part. */
    public int ranks() {
        return group.size();
    }

    @Override
    public NcclOp curve() {
        return new NcclOp(group, operation, DataType.FLOAT32, 0);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.ncclOp(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.empty();
    }

    static NcclOp read(Params p) {
        return new NcclOp(Group.parse(p.text("group")), p.enumValue("operation", BusBandwidth.Operation.class),
                p.enumValue("dtype", DataType.class), p.longValue("sizeBytes"));
    }
}
