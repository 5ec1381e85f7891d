package io.p2pbench.bench;

import io.p2pbench.collective.CollectiveFigures;
import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.collective.CollectiveTiming;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.settings.Settings;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.transfer.BenchmarkSkipped;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The trial-long fixture behind the collective benchmarks ({@link BenchmarkTrial}): set up once per trial; outputs are
 * poisoned before every iteration and checked element by element after it on the GPU, and at the
 * end of the trial against the CPU reference (both outside the timed region), so no figure
 * survives a wrong result. The measurement iteration's batches are written beside JMH's output
 * ({@code samples/}, lanes {@link #LANES}: algbw and busbw per batch) for intervals and comparisons.
 */
public abstract class CollectiveState extends BenchmarkTrial {
    /** Operations timed per device-timed batch (fewer when they do not fit behind the gate). */
    static final int OPS_PER_BATCH = 8;

    /** Lane labels of the samples file: algbw, then busbw (decimal GB/s, nccl-tests' definitions). */
    static final List<String> LANES = List.of("algbw", "busbw");

    private final List<BatchSamples.Batch> measured = new ArrayList<>();
    private CollectiveOperation operation;
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

    @Override
    protected final void openResources(BenchmarkParams params) {
        try {
            requireShape();
        } catch (IllegalArgumentException shape) {
            throw new BenchmarkSkipped(SkipCause.DOES_NOT_DIVIDE, shape.getMessage());
        }
        operation = open();
    }

    /** Poisons every output before the iteration. */
    @Override
    protected final void prepareIteration() {
        operation.poison();
    }

    /** Checks every output element after the iteration, on the GPU. */
    @Override
    protected final void checkIteration() {
        operation.verify();
    }

    /**
     * Compares the last result with the CPU reference (in a run's first round; later rounds of the same combination
     * rely on the GPU check of every iteration, which that reference has checked), then writes the bytes verified
     * and the measured batches.
     */
    @Override
    protected final void recordTrial() {
        if (Settings.current().hostCheck()) {
            operation.verifyOnHost();
        }
        ForkChannel.writeVerified(operation.bytesVerified());
        if (!measured.isEmpty()) {
            ForkChannel.writeSamples(new BatchSamples(ForkChannel.combinationId(), LANES, algorithmBytes(), opsPerBatch,
                    List.copyOf(measured), operation.bytesVerified()));
        }
    }

    /** Releases every CUDA and NCCL resource. */
    @Override
    protected final void releaseResources() {
        operation.close();
        operation = null;
    }

    /** One device-timed batch into {@code counters}. */
    final void batch(CollectiveBandwidth counters) {
        CollectiveTiming t = operation.time(OPS_PER_BATCH);
        CollectiveFigures.Batch b = counters.add(t.nanosPerOp(), algorithmBytes(), busFactor());
        if (measuring()) {
            measured.add(new BatchSamples.Batch(t.gated(), List.of(b.algGbps(), b.busGbps())));
            opsPerBatch = t.ops();
        }
    }

    /** One operation, waited for by the host. */
    final void runOnce() {
        operation.runOnce();
    }
}
