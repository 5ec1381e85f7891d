package io.p2pbench.bench;

import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.transfer.TransferFixture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * The suite's own ring all-reduce (sum, out of place) over {@code group}, built from peer copies
 * ({@code path} P2P) or host-staged copies and an NVRTC add kernel, pipelined in pieces. {@link
 * #bandwidth} is device-timed (algbw and busbw as nccl-tests defines them); {@link #latency} is
 * host-observed time per all-reduce. Every iteration's result is compared with a CPU reference
 * (float32: exact; bfloat16: within n x 2^-8 x sum|x|). A group that repeats a GPU ({@code
 * 0,0,0,0}) measures the algorithm on one GPU, not an interconnect.
 *
 * <p>Run: {@code p2pbench run --paths ALLREDUCE_RING --group 0,1,2,3 --sizes 1M,256M}.
 */
public class AllReduceBenchmark extends CollectiveState {
    /**
     * Bytes per chunk of a host-staged copy ({@code --staging-chunk}; the run passes it to every benchmark as
     * {@link ForkChannel#STAGING_CHUNK_PARAM}, so JMH's JSON records it). Only host-staged paths use it.
     */
    @Param({"" + TransferFixture.DEFAULT_STAGING_CHUNK})
    public long stagingChunk;

    /** GPUs of the ranks, e.g. {@code 0,1,2,3}; repeats allowed. */
    @Param({"0,0,0,0"})
    public String group;

    /** Element type. */
    @Param
    public DataType dtype;

    /** How chunks move between ranks. */
    @Param
    public CollectivePath path;

    /** Bytes of each rank's buffer. */
    @Param({"1048576", "67108864"})
    public long sizeBytes;

    @Override
    protected void requireShape() {
        RingAllReduce.requireShape(Group.parse(group), dtype, sizeBytes);
    }

    @Override
    protected CollectiveOperation open() {
        return new RingAllReduce(Group.parse(group), dtype, sizeBytes, path,
                stagingChunk);
    }

    @Override
    protected long algorithmBytes() {
        return sizeBytes;
    }

    @Override
    protected double busFactor() {
        return BusBandwidth.Operation.ALL_REDUCE.factor(Group.parse(group).size());
    }

    /** A batch of back-to-back all-reduces, timed on the device; see {@link CollectiveBandwidth}. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void bandwidth(CollectiveBandwidth counters) {
        batch(counters);
    }

    /** One all-reduce, enqueued and waited for by the host. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency() {
        runOnce();
    }
}
