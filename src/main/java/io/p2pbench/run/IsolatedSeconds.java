package io.p2pbench.run;

import io.p2pbench.spec.Exchange;
import io.p2pbench.spec.HostCopy;
import io.p2pbench.spec.HostCopyBidirectional;
import io.p2pbench.spec.NcclOp;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.PeerCopy;
import io.p2pbench.spec.PeerCopyBidirectional;
import io.p2pbench.spec.Ring;
import io.p2pbench.spec.Serving;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.transfer.HostMemory;

/**
 * {@link TimePredictor}'s price of one workload in a fork of its own (fixed cost included), one case per
 * workload; {@link TimePredictor#forEntry} then trades the fork's fixed cost for that of a group fork or a warm
 * JVM.
 */
final class IsolatedSeconds implements WorkloadSpec.Cases<Double> {
    private final Preset.Timing timing;
    private final long size;
    private final boolean latency;
    private final TimePredictor.RunShape shape;

    /**
     * @param size the row's size in bytes
     * @param latency whether the row is a latency row (a partition request rather than steps)
     */
    IsolatedSeconds(Preset.Timing timing, long size, boolean latency, TimePredictor.RunShape shape) {
        this.timing = timing;
        this.size = size;
        this.latency = latency;
        this.shape = shape;
    }

    @Override
    public Double peerCopy(PeerCopy s) {
        return TimePredictor.transfer(s.kind(), timing, size, false);
    }

    @Override
    public Double peerCopyBidirectional(PeerCopyBidirectional s) {
        return TimePredictor.transfer(s.kind(), timing, size, false);
    }

    @Override
    public Double hostCopy(HostCopy s) {
        return TimePredictor.transfer(s.kind(), timing, size, s.memory() == HostMemory.PAGEABLE);
    }

    @Override
    public Double hostCopyBidirectional(HostCopyBidirectional s) {
        return TimePredictor.transfer(s.kind(), timing, size, s.memory() == HostMemory.PAGEABLE);
    }

    @Override
    public Double ring(Ring s) {
        return TimePredictor.collective(timing, size, s.dtype(), s.ranks(), false, shape);
    }

    @Override
    public Double ncclOp(NcclOp s) {
        return TimePredictor.collective(timing, size, s.dtype(), s.ranks(), true, shape);
    }

    @Override
    public Double exchange(Exchange s) {
        return TimePredictor.exchange(timing);
    }

    @Override
    public Double partitionRun(PartitionRun s) {
        return TimePredictor.partition(timing, TimePredictor.partitionOperationSeconds(s.step(), s.distinctGpus(),
                s.transport(), latency, s.decodeSteps(), shape.partition()), latency, shape.partition());
    }

    @Override
    public Double serving(Serving s) {
        // A serving sweep is one invocation whatever the preset's iteration times; its own search decides its length.
        return ServingPlanner.predictedSeconds(s);
    }
}
