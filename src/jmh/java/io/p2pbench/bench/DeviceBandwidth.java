package io.p2pbench.bench;

import io.p2pbench.transfer.BandwidthProbe;
import io.p2pbench.transfer.BatchMedians;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Device-timed bandwidth of one direction, as JMH secondary metrics: {@code deviceGBps} (median over
 * the iteration's batches, decimal GB/s), {@code deviceGBpsMin}, {@code deviceGBpsMax} (slowest and
 * fastest batch) and {@code batches}.
 *
 * <p>JMH adds EVENTS counters over iterations, so the suite runs one measurement iteration per
 * trial with many batches in it: each figure is exactly that iteration's. The per-batch values go
 * to the result folder's {@code samples/} for confidence intervals.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class DeviceBandwidth {
    private final BatchMedians batches = new BatchMedians(1);

    /** Forgets the previous iteration's batches. */
    @Setup(Level.Iteration)
    public void reset() {
        batches.clear();
    }

    void add(BandwidthProbe.Batch b) {
        batches.add(b.gbps(0));
    }

    /** Median device-timed GB/s over the iteration's batches. */
    public double deviceGBps() {
        return batches.median(0);
    }

    /** Slowest batch, GB/s. */
    public double deviceGBpsMin() {
        return batches.min(0);
    }

    /** Fastest batch, GB/s. */
    public double deviceGBpsMax() {
        return batches.max(0);
    }

    /** Batches measured in the iteration. */
    public long batches() {
        return batches.count();
    }
}
