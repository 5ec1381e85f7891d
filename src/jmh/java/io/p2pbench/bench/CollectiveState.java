package io.p2pbench.bench;

import io.p2pbench.collective.CollectiveFigures;
import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.collective.CollectiveTiming;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.fork.ForkPhases;
import io.p2pbench.fork.ForkSettings;
import io.p2pbench.transfer.BenchmarkSkipped;
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
 * The trial-long fixture behind the collective benchmarks: set up once per trial; outputs are
 * poisoned before every iteration and checked element by element after it on the GPU, and at the
 * end of the trial against the CPU reference (both outside the timed region), so no figure
 * survives a wrong result. The measurement iteration's batches are written beside JMH's output
 * ({@code samples/}, lanes {@link #LANES}: algbw and busbw per batch) for intervals and comparisons.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {ForkSettings.HEAP, ForkSettings.HEADLESS, ForkSettings.NO_JAVACPP_LIMIT,
    ForkSettings.NO_JAVACPP_PHYSICAL_LIMIT})
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 1, time = 1, timeUnit = TimeUnit.SECONDS)
public abstract class CollectiveState {
    /** Operations timed per device-timed batch (fewer when they do not fit behind the gate). */
    static final int OPS_PER_BATCH = 8;

    /** Lane labels of the samples file: algbw, then busbw (decimal GB/s, nccl-tests' definitions). */
    static final List<String> LANES = List.of("algbw", "busbw");

    private final List<BatchSamples.Batch> measured = new ArrayList<>();
    private CollectiveOperation operation;
    private boolean measuring;
    private int opsPerBatch;

    /**
     * Throws {@link IllegalArgumentException} naming the problem when the parameters describe a
     * shape this operation cannot run (too few ranks, a size that does not split); such a
     * combination is recorded as skipped.
     */
    protected abstract void requireShape();

    /**
     * Builds the operation from the subclass's parameters. Anything it throws, an
     * {@link IllegalArgumentException} included, fails the benchmark: only {@link #requireShape()}
     * and {@link BenchmarkSkipped} make skips, so a bug never reads as a skip.
     */
    protected abstract CollectiveOperation open();

    /** Bytes one operation counts for algbw (nccl-tests' size). */
    protected abstract long algorithmBytes();

    /** algbw to busbw factor (nccl-tests). */
    protected abstract double busFactor();

    /** Opens the operation; a combination this machine cannot run is recorded as skipped, then fails the trial. */
    @Setup(Level.Trial)
    public void openTrial() {
        ForkPhases.mark(ForkPhases.Event.SETUP_BEGIN, false);
        try {
            try {
                requireShape();
            } catch (IllegalArgumentException shape) {
                ForkChannel.writeSkip(shape.getMessage());
                throw new BenchmarkSkipped(shape.getMessage());
            }
            try {
                operation = open();
            } catch (BenchmarkSkipped skipped) {
                ForkChannel.writeSkip(skipped.getMessage());
                throw skipped;
            }
        } finally {
            ForkPhases.mark(ForkPhases.Event.SETUP_END, false);
        }
    }

    /** Poisons every output before the iteration. */
    @Setup(Level.Iteration)
    public void beginIteration(IterationParams iteration) {
        measuring = iteration.getType() == IterationType.MEASUREMENT;
        ForkPhases.mark(ForkPhases.Event.ITERATION_BEGIN, measuring);
        operation.poison();
        ForkPhases.mark(ForkPhases.Event.TIMED_BEGIN, measuring);
    }

    /** Checks every output element after the iteration, on the GPU. */
    @TearDown(Level.Iteration)
    public void endIteration() {
        ForkPhases.mark(ForkPhases.Event.TIMED_END, measuring);
        operation.verify();
        ForkPhases.mark(ForkPhases.Event.ITERATION_END, measuring);
    }

    /**
     * Compares the last result with the CPU reference, writes the measured batches, then releases
     * every CUDA and NCCL resource.
     */
    @TearDown(Level.Trial)
    public void closeTrial() {
        if (operation != null) {
            ForkPhases.mark(ForkPhases.Event.TEARDOWN_BEGIN, false);
            try {
                operation.verifyOnHost();
                ForkChannel.writeVerified(operation.bytesVerified());
                if (!measured.isEmpty()) {
                    ForkChannel.writeSamples(new BatchSamples(ForkChannel.target().map(t -> t.id()).orElse(""),
                            LANES, algorithmBytes(), opsPerBatch, List.copyOf(measured), operation.bytesVerified()));
                }
            } finally {
                operation.close();
                operation = null;
                ForkPhases.mark(ForkPhases.Event.TEARDOWN_END, false);
            }
        }
    }

    /** One device-timed batch into {@code counters}. */
    final void batch(CollectiveBandwidth counters) {
        CollectiveTiming t = operation.time(OPS_PER_BATCH);
        CollectiveFigures.Batch b = counters.add(t.nanosPerOp(), algorithmBytes(), busFactor());
        if (measuring) {
            measured.add(new BatchSamples.Batch(t.gated(), List.of(b.algGbps(), b.busGbps())));
            opsPerBatch = t.ops();
        }
    }

    /** One operation, waited for by the host. */
    final void runOnce() {
        operation.runOnce();
    }
}
