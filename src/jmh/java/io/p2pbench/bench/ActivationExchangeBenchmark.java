package io.p2pbench.bench;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelPreset;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.transfer.TransferFixture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * One step's activation traffic of a model split across {@code group}: pipeline boundaries,
 * tensor-parallel all-reduces, or expert-parallel dispatch and combine (see {@link
 * ActivationExchange}), with P2P on or off ({@code path}). Reported as device time per step
 * ({@code timeUs}) and effective bandwidth ({@code algGBps}: bytes crossing between ranks per step
 * over that time; {@code busGBps} equals it). Every moved byte is checked. Every parameter applies to
 * every pattern: the pipeline crosses all {@code group.size() - 1} stage boundaries and expert routing
 * is uniform, as the planner has always run them (uneven routing stays available in {@link
 * ActivationExchange} for a benchmark of its own).
 *
 * <p>Run: {@code p2pbench run --paths EXCHANGE --group 0,1,2,3 --model DENSE_70B}.
 */
public class ActivationExchangeBenchmark extends CollectiveState {
    /**
     * Bytes per chunk of a host-staged copy ({@code --staging-chunk}; the run passes it to every benchmark as
     * {@link ForkChannel#STAGING_CHUNK_PARAM}, so JMH's JSON records it). Only host-staged paths use it.
     */
    @Param({"" + TransferFixture.DEFAULT_STAGING_CHUNK})
    public long stagingChunk;

    /** GPUs of the ranks; repeats allowed. */
    @Param({"0,0,0,0"})
    public String group;

    /** Pipeline, tensor or expert parallel. */
    @Param
    public ActivationExchange.Pattern pattern;

    /** Model preset (every preset unless listed). */
    @Param
    public ModelPreset model;

    /** P2P on, or staged through host memory. */
    @Param
    public CollectivePath path;

    private ActivationExchange exchange;

    /** The pipeline crosses every stage boundary (ranks - 1); expert routing is uniform (1 / ranks to each rank). */
    @Override
    protected void requireShape() {
        Group g = Group.parse(group);
        ActivationExchange.requireShape(pattern, g, model.shape(), g.size() - 1, 1.0 / g.size());
    }

    /** The same shape as {@link #requireShape()}: every stage boundary, uniform routing. */
    @Override
    protected CollectiveOperation open() {
        Group g = Group.parse(group);
        exchange = new ActivationExchange(pattern, g, model.shape(), path, g.size() - 1, 1.0 / g.size(),
                stagingChunk);
        return exchange;
    }

    @Override
    protected long algorithmBytes() {
        return exchange.bytesPerStep();
    }

    @Override
    protected double busFactor() {
        return 1.0;
    }

    /** A batch of back-to-back steps, timed on the device; see {@link CollectiveBandwidth}. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void bandwidth(CollectiveBandwidth counters) {
        batch(counters);
    }

    /** One step, enqueued and waited for by the host. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency() {
        runOnce();
    }
}
