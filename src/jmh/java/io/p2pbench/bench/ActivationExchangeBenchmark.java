package io.p2pbench.bench;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.run.ForkSettings;
import io.p2pbench.transfer.TransferFixture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One step's activation traffic of a model split across {@code group}: pipeline boundaries,
 * tensor-parallel all-reduces, or expert-parallel dispatch and combine (see {@link
 * ActivationExchange}), with P2P on or off ({@code path}). Reported as device time per step
 * ({@code timeUs}) and effective bandwidth ({@code algGBps}: bytes crossing between ranks per step
 * over that time; {@code busGBps} equals it). Every moved byte is checked.
 *
 * <p>Run: {@code p2pbench run --paths EXCHANGE --group 0,1,2,3 --model DENSE_70B}.
 */
@Fork(value = 1, jvmArgsAppend = {ForkSettings.HEAP, ForkSettings.HEADLESS, ForkSettings.NO_JAVACPP_LIMIT,
    ForkSettings.NO_JAVACPP_PHYSICAL_LIMIT})
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 1, time = 1, timeUnit = TimeUnit.SECONDS)
public class ActivationExchangeBenchmark extends CollectiveState {
    /** GPUs of the ranks; repeats allowed. */
    @Param({"0,0,0,0"})
    public String group;

    /** Pipeline, tensor or expert parallel. */
    @Param
    public ActivationExchange.Pattern pattern;

    /** Model preset: DENSE_8B, DENSE_70B or MOE_8X_TOP2. */
    @Param({"DENSE_8B"})
    public String model;

    /** P2P on, or staged through host memory. */
    @Param
    public CollectivePath path;

    /** Pipeline boundaries crossed (pipeline only; 0 means ranks-1). */
    @Param({"0"})
    public int boundaries;

    /** Fraction of routed tokens sent to rank 0 (expert only). */
    @Param({"0.25"})
    public double skew;

    private ActivationExchange exchange;

    @Override
    protected void requireShape() {
        Group g = Group.parse(group);
        ActivationExchange.requireShape(pattern, g, ModelShape.named(model), boundaries == 0 ? g.size() - 1 : boundaries,
                skew);
    }

    @Override
    protected CollectiveOperation open() {
        Group g = Group.parse(group);
        exchange = new ActivationExchange(pattern, g, ModelShape.named(model), path,
                boundaries == 0 ? g.size() - 1 : boundaries, skew,
                Long.getLong("p2pbench.stagingChunk", TransferFixture.DEFAULT_STAGING_CHUNK));
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
