package io.p2pbench.bench;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.fork.ForkPhases;
import io.p2pbench.fork.ForkSettings;
import io.p2pbench.transfer.BenchmarkSkipped;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The life of every benchmark's trial, written once: native resources are made once per trial (Level.Trial) and
 * released at its end; each iteration runs an untimed preparation first and an untimed check last (Level.Iteration),
 * so the iteration's last results are verified. Each step is marked for the run's phase record ({@link ForkPhases});
 * a combination this machine cannot run ({@link BenchmarkSkipped}) is recorded as skipped ({@link ForkChannel}), then
 * fails the trial; at the end the trial records what it verified and measured.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {ForkSettings.HEAP, ForkSettings.HEADLESS, ForkSettings.NO_JAVACPP_LIMIT,
    ForkSettings.NO_JAVACPP_PHYSICAL_LIMIT})
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 1, time = 1, timeUnit = TimeUnit.SECONDS)
public abstract class BenchmarkTrial {
    private boolean measuring;
    private boolean open;

    /**
     * Makes the trial's native resources from the subclass's parameters; throws {@link BenchmarkSkipped} when this
     * machine or these parameters cannot run (anything else it throws fails the benchmark, so a bug never reads as
     * a skip). On a throw it must have released what it made.
     */
    protected abstract void openResources(BenchmarkParams params);

    /** Before an iteration's timed part, untimed: poisons the outputs (nothing unless overridden). */
    protected void prepareIteration() {}

    /** After an iteration's timed part, untimed: checks the outputs; a wrong result throws. */
    protected abstract void checkIteration();

    /** At the end of the trial, before release: records the bytes verified and the samples measured. */
    protected abstract void recordTrial();

    /** Releases every native resource; called once, after {@link #recordTrial}, even when it threw. */
    protected abstract void releaseResources();

    /** Whether the running iteration is a measurement iteration (not warm-up). */
    protected final boolean measuring() {
        return measuring;
    }

    /** Opens the trial; a combination this machine cannot run is recorded as skipped, then fails the trial. */
    @Setup(Level.Trial)
    public final void openTrial(BenchmarkParams params) {
        ForkPhases.mark(ForkPhases.Event.SETUP_BEGIN, false);
        try {
            openResources(params);
            open = true;
        } catch (BenchmarkSkipped skipped) {
            ForkChannel.writeSkip(skipped.skipCause(), skipped.getMessage());
            throw skipped;
        } finally {
            ForkPhases.mark(ForkPhases.Event.SETUP_END, false);
        }
    }

    /** Prepares the iteration, then starts its timed part. */
    @Setup(Level.Iteration)
    public final void beginIteration(IterationParams iteration) {
        measuring = iteration.getType() == IterationType.MEASUREMENT;
        ForkPhases.mark(ForkPhases.Event.ITERATION_BEGIN, measuring);
        prepareIteration();
        ForkPhases.mark(ForkPhases.Event.TIMED_BEGIN, measuring);
    }

    /** Ends the iteration's timed part, then checks it. */
    @TearDown(Level.Iteration)
    public final void endIteration() {
        ForkPhases.mark(ForkPhases.Event.TIMED_END, measuring);
        checkIteration();
        ForkPhases.mark(ForkPhases.Event.ITERATION_END, measuring);
    }

    /** Records what the trial verified and measured, then releases every native resource. */
    @TearDown(Level.Trial)
    public final void closeTrial() {
        if (!open) {
            return;
        }
        ForkPhases.mark(ForkPhases.Event.TEARDOWN_BEGIN, false);
        try {
            recordTrial();
        } finally {
            open = false;
            releaseResources();
            ForkPhases.mark(ForkPhases.Event.TEARDOWN_END, false);
        }
    }
}
