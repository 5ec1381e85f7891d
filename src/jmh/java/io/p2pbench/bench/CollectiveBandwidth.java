package io.p2pbench.bench;

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
    private final BatchMedians batches = new BatchMedians(3);

    /** Forgets the previous iteration's batches. */
    @Setup(Level.Iteration)
    public void reset() {
        batches.clear();
    }

    /** Adds one batch; returns its algbw. */
    double add(double nanosPerOp, long bytes, double busFactor) {
        double alg = bytes / nanosPerOp;
        batches.add(alg, alg * busFactor, nanosPerOp / 1000.0);
        return alg;
    }

    /** Median algorithm bandwidth: bytes over device time per operation. */
    public double algGBps() {
        return batches.median(0);
    }

    /** Median bus bandwidth: algbw times the operation's nccl-tests factor. */
    public double busGBps() {
        return batches.median(1);
    }

    /** Median device time per operation, microseconds. */
    public double timeUs() {
        return batches.median(2);
    }

    /** Batches measured in the iteration. */
    public long batches() {
        return batches.count();
    }
}
