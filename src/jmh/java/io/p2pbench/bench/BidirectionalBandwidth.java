package io.p2pbench.bench;

import io.p2pbench.transfer.BandwidthProbe;
import io.p2pbench.transfer.BatchMedians;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Device-timed bandwidth of two directions running at once, as JMH secondary metrics (medians over
 * the iteration's batches, decimal GB/s): {@code forwardGBps} (first direction alone, e.g. host to
 * device, or the pair's source to destination), {@code reverseGBps} (the other direction alone),
 * {@code sumGBps} (both together, per batch) and {@code batches}. One measurement iteration per
 * trial, as for {@link DeviceBandwidth}.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class BidirectionalBandwidth {
    private final BatchMedians batches = new BatchMedians(3);

    /** Forgets the previous iteration's batches. */
    @Setup(Level.Iteration)
    public void reset() {
        batches.clear();
    }

    void add(BandwidthProbe.Batch b) {
        batches.add(b.gbps(0), b.gbps(1), b.totalGbps());
    }

    /** Median GB/s of the first direction while the other runs. */
    public double forwardGBps() {
        return batches.median(0);
    }

    /** Median GB/s of the second direction while the first runs. */
    public double reverseGBps() {
        return batches.median(1);
    }

    /** Median of the per-batch sum of both directions. */
    public double sumGBps() {
        return batches.median(2);
    }

    /** Batches measured in the iteration. */
    public long batches() {
        return batches.count();
    }
}
