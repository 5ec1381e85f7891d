package io.p2pbench.bench;

import io.p2pbench.collective.CollectiveFigures;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Device-timed collective figures as JMH secondary metrics (medians over the iteration's batches):
 * {@code algGBps} and {@code busGBps} exactly as nccl-tests defines them (decimal GB/s), {@code
 * timeUs} device time per operation, and {@code batches}. One measurement iteration per trial, as
 * for {@link DeviceBandwidth}.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CollectiveBandwidth {
    private final CollectiveFigures batches = new CollectiveFigures();

    /** Forgets the previous iteration's batches. */
    @Setup(Level.Iteration)
    public void reset() {
        batches.clear();
    }

    /** Adds one batch; returns its figures. */
    CollectiveFigures.Batch add(double nanosPerOp, long bytes, double busFactor) {
        return batches.add(nanosPerOp, bytes, busFactor);
    }

    /** Median algorithm bandwidth: bytes over device time per operation. */
    public double algGBps() {
        return batches.algGbps();
    }

    /** Median bus bandwidth: algbw times the operation's nccl-tests factor. */
    public double busGBps() {
        return batches.busGbps();
    }

    /** Median device time per operation, microseconds. */
    public double timeUs() {
        return batches.timeUs();
    }

    /** Batches measured in the iteration. */
    public long batches() {
        return batches.count();
    }
}
