package io.p2pbench.transfer;

import io.p2pbench.cuda.StreamGate;
import java.util.List;

/**
 * Device-timed bandwidth, as nvbandwidth measures it: the lanes' streams are held by a {@link
 * StreamGate} while {@code copies} transfers per lane are enqueued between a start and a stop
 * event, then released together; bandwidth is bytes moved over the device time between the events,
 * in decimal GB/s. The destination is poisoned before and checked after every batch, outside the
 * timed region; a wrong byte fails the batch.
 *
 * <p>As in nvbandwidth, each lane first runs one untimed warm-up transfer behind the gate, so the
 * timed copies start with the copy engine (or kernel) and the link already busy; then {@code
 * copies} timed transfers follow back to back.
 *
 * <p>The gate is skipped (and the batch says so) when a lane cannot be held (pageable host memory,
 * whose copies may block the host) or when a held stream would have to queue more than {@link
 * #MAX_HELD_OPERATIONS} operations, which can block the enqueueing thread. Both happen only for
 * transfers long enough that the enqueue cost no longer matters (large staged copies) or that are
 * host-bound anyway (pageable memory).
 */
public final class BandwidthProbe {
    /** Operations a held stream may queue; well under the driver's per-stream queue depth. */
    static final int MAX_HELD_OPERATIONS = 192;
    /** Bytes a batch aims to move per lane, so that event resolution (~0.5 us) and ramp-up are negligible. */
    static final long TARGET_BATCH_BYTES = 256L << 20;
    /** At least this many timed transfers per lane per batch. */
    static final int MIN_COPIES = 4;
    /** At most this many transfers per lane per batch. */
    static final int MAX_COPIES = 128;

    private final List<Lane> lanes;
    private final StreamGate gate;
    private final int copies;
    private final boolean gated;

    BandwidthProbe(List<Lane> lanes, StreamGate gate) {
        this.lanes = List.copyOf(lanes);
        this.gate = gate;
        int wanted = copiesFor(lanes.get(0).bytes());
        int ops = lanes.stream().mapToInt(Lane::operationsPerTransfer).max().orElse(1);
        boolean holdable = lanes.stream().allMatch(Lane::gateable);
        // A held stream queues the warm-up plus the timed transfers; fewer timed transfers keep a
        // batch gated, and only transfers too long to fit once (large staged copies) go ungated.
        int fitting = MAX_HELD_OPERATIONS / ops - 1;
        this.gated = holdable && fitting >= 1;
        this.copies = gated ? Math.min(wanted, fitting) : wanted;
    }

    /** Transfers per lane in one batch for a transfer of {@code bytes}. */
    static int copiesFor(long bytes) {
        long n = (TARGET_BATCH_BYTES + bytes - 1) / bytes;
        return (int) Math.max(MIN_COPIES, Math.min(MAX_COPIES, n));
    }

    /** Transfers per lane per batch. */
    public int copies() {
        return copies;
    }

    /** One measured batch: every lane moves {@code copies} transfers at once; throws if any byte is wrong. */
    public Batch run() {
        for (Lane lane : lanes) {
            lane.poison();
        }
        try {
            if (gated) {
                for (Lane lane : lanes) {
                    lane.workStreams().forEach(gate::hold);
                }
            }
            for (Lane lane : lanes) {
                lane.enqueueTransfer(); // warm-up, untimed
            }
            for (Lane lane : lanes) {
                lane.markStart();
            }
            for (int i = 0; i < copies; i++) {
                for (Lane lane : lanes) {
                    lane.enqueueTransfer();
                }
            }
            for (Lane lane : lanes) {
                lane.markStop();
                lane.enqueueCheck();
            }
        } finally {
            if (gated) {
                gate.release(); // throws if the watchdog had to release: the timing is then discarded
            }
        }
        double[] nanos = new double[lanes.size()];
        for (int i = 0; i < lanes.size(); i++) {
            Lane lane = lanes.get(i);
            lane.synchronize();
            lane.requireIntact();
            nanos[i] = lane.elapsedNanos();
        }
        if (gated && gate.spinTimedOut()) {
            throw new IllegalStateException("the gate's spin kernel gave up before release; batch discarded");
        }
        return new Batch(lanes.get(0).bytes(), copies, gated, nanos);
    }

    /**
     * One batch's outcome.
     *
     * @param bytesPerTransfer bytes of one transfer
     * @param copies transfers per lane
     * @param gated whether the streams were held while the batch was enqueued
     * @param laneNanos device time of each lane, start to stop event
     */
    public record Batch(long bytesPerTransfer, int copies, boolean gated, double[] laneNanos) {
        /** Decimal GB/s of lane {@code i}: bytes moved over its device time. */
        public double gbps(int lane) {
            return bytesPerTransfer * (double) copies / laneNanos[lane];
        }

        /** Sum over lanes of their GB/s (bidirectional "sum" figure). */
        public double totalGbps() {
            double sum = 0;
            for (int i = 0; i < laneNanos.length; i++) {
                sum += gbps(i);
            }
            return sum;
        }
    }
}
