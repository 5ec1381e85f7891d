package io.p2pbench.bench;

import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.NcclCollective;
import io.p2pbench.cuda.Nccl.DataType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * NCCL collectives (one process, one communicator per GPU) over {@code group} of distinct GPUs:
 * the baseline for {@link AllReduceBenchmark} and the exchanges. Figures as nccl-tests reports
 * them: algbw = size / time, busbw = algbw x 2(n-1)/n for all-reduce and x (n-1)/n for all-gather,
 * reduce-scatter and all-to-all; sizes as nccl-tests counts them. Results are compared with the CPU
 * reference every iteration. NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
 *
 * <p>Run: {@code p2pbench run --paths NCCL --group 0,1,2,3}.
 */
public class NcclCollectiveBenchmark extends CollectiveState {
    /** Distinct GPUs, e.g. {@code 0,1,2,3}. */
    @Param({"0"})
    public String group;

    /** The collective. */
    @Param
    public BusBandwidth.Operation operation;

    /** Element type. */
    @Param
    public DataType dtype;

    /** nccl-tests' size: per-rank buffer (all-reduce, all-to-all), gathered output, or scattered input. */
    @Param({"1048576", "67108864"})
    public long sizeBytes;

    @Override
    protected void requireShape() {
        NcclCollective.requireShape(Group.parse(group), operation, dtype, sizeBytes);
    }

    @Override
    protected CollectiveOperation open() {
        return new NcclCollective(Group.parse(group), operation, dtype, sizeBytes);
    }

    @Override
    protected long algorithmBytes() {
        return sizeBytes;
    }

    @Override
    protected double busFactor() {
        return operation.factor(Group.parse(group).size());
    }

    /** A batch of back-to-back operations, timed on the device; see {@link CollectiveBandwidth}. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void bandwidth(CollectiveBandwidth counters) {
        batch(counters);
    }

    /** One operation, enqueued and waited for by the host. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency() {
        runOnce();
    }
}
