package io.p2pbench.bench;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.fork.ForkPhases;
import io.p2pbench.fork.ForkSettings;
import io.p2pbench.transfer.BandwidthProbe;
import io.p2pbench.transfer.BenchmarkSkipped;
import io.p2pbench.transfer.TransferFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The trial-long fixture behind every transfer benchmark: CUDA resources are made once per trial
 * (Level.Trial) and released in reverse order; each iteration poisons the destinations first and
 * checks them last (Level.Iteration), so the bytes of the iteration's last transfer are verified
 * even for latency sampling. Bandwidth batches also verify themselves, batch by batch.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {ForkSettings.HEAP, ForkSettings.HEADLESS, ForkSettings.NO_JAVACPP_LIMIT,
    ForkSettings.NO_JAVACPP_PHYSICAL_LIMIT})
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 1, time = 1, timeUnit = TimeUnit.SECONDS)
public abstract class TransferState {
    private final List<BatchSamples.Batch> measured = new ArrayList<>();
    private TransferFixture fixture;
    private boolean measuring;
    private long bytesPerTransfer;

    /** Builds the fixture from the subclass's parameters. */
    protected abstract TransferFixture open();

    /** Opens the fixture; a combination this machine cannot run is recorded as skipped, then fails the trial. */
    @Setup(Level.Trial)
    public void openTrial() {
        ForkPhases.mark(ForkPhases.Event.SETUP_BEGIN, false);
        try {
            fixture = open();
        } catch (BenchmarkSkipped skipped) {
            ForkChannel.writeSkip(skipped.getMessage());
            throw skipped;
        } finally {
            ForkPhases.mark(ForkPhases.Event.SETUP_END, false);
        }
    }

    /** Poisons every destination before the iteration. */
    @Setup(Level.Iteration)
    public void beginIteration(IterationParams iteration) {
        measuring = iteration.getType() == IterationType.MEASUREMENT;
        ForkPhases.mark(ForkPhases.Event.ITERATION_BEGIN, measuring);
        fixture.poison();
        ForkPhases.mark(ForkPhases.Event.TIMED_BEGIN, measuring);
    }

    /** Checks every destination after the iteration; a wrong byte fails the benchmark. */
    @TearDown(Level.Iteration)
    public void endIteration() {
        ForkPhases.mark(ForkPhases.Event.TIMED_END, measuring);
        fixture.verify();
        ForkPhases.mark(ForkPhases.Event.ITERATION_END, measuring);
    }

    /** Writes the bytes verified and the measured batches beside JMH's output, then releases every CUDA resource. */
    @TearDown(Level.Trial)
    public void closeTrial() {
        if (fixture == null) {
            return;
        }
        ForkPhases.mark(ForkPhases.Event.TEARDOWN_BEGIN, false);
        try {
            ForkChannel.writeVerified(fixture.bytesVerified());
            if (!measured.isEmpty()) {
                ForkChannel.writeSamples(new BatchSamples(ForkChannel.target().map(t -> t.id()).orElse(""),
                        fixture.laneLabels(), bytesPerTransfer, fixture.copiesPerBatch(), List.copyOf(measured),
                        fixture.bytesVerified()));
            }
        } finally {
            fixture.close();
            fixture = null;
            ForkPhases.mark(ForkPhases.Event.TEARDOWN_END, false);
        }
    }

    /** One device-timed batch, remembered when this is a measurement iteration. */
    final BandwidthProbe.Batch batch() {
        BandwidthProbe.Batch b = fixture.measureBatch();
        if (measuring) {
            List<Double> lanes = new ArrayList<>(b.laneNanos().length);
            for (int i = 0; i < b.laneNanos().length; i++) {
                lanes.add(b.gbps(i));
            }
            measured.add(new BatchSamples.Batch(b.gated(), lanes, lanes.size() > 1 ? b.totalGbps() : null));
            bytesPerTransfer = b.bytesPerTransfer();
        }
        return b;
    }

    /** One transfer per lane, waited for by the host. */
    final void transferOnce() {
        fixture.transferOnce();
    }
}
