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
 * <p>Several lanes (a bidirectional copy) are each timed over their own window, start to stop event,
 * as nvbandwidth's bidirectional testcases report a direction; their windows need not coincide
 * (one lane may start later or finish earlier), so the lanes' figures do not add up to what moved.
 * The batch's total is every lane's bytes over the common window, from the first lane's start to the
 * last lane's stop ({@link Batch#totalGbps()}). The window is measured from a reference event each
 * lane records when the gate releases it: one lane's reference for every lane timed on the same GPU
 * (exact), each GPU's own reference otherwise (the gate releases every GPU's streams at one host
 * write, so their references coincide to within the flag's propagation, about a microsecond).
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
                lane.markReleased();
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
        return new Batch(lanes.get(0).bytes(), copies, gated, nanos, lanes.size() == 1 ? nanos[0] : windowNanos());
    }

    /** From the first lane's start to the last lane's stop, on the references {@link Lane#markReleased} recorded. */
    private double windowNanos() {
        Lane first = lanes.get(0);
        double begin = Double.POSITIVE_INFINITY;
        double end = Double.NEGATIVE_INFINITY;
        for (Lane lane : lanes) {
            Lane reference = lane.timingDevice() == first.timingDevice() ? first : lane;
            double[] offsets = lane.offsetsNanos(reference.releasedEvent());
            begin = Math.min(begin, offsets[0]);
            end = Math.max(end, offsets[1]);
        }
        return end - begin;
    }

    /**
     * One batch's outcome.
     *
     * @param bytesPerTransfer bytes of one transfer
     * @param copies transfers per lane
     * @param gated whether the streams were held while the batch was enqueued
     * @param laneNanos device time of each lane, its start to its stop event
     * @param windowNanos device time from the first lane's start to the last lane's stop (one lane: its own)
     */
    public record Batch(long bytesPerTransfer, int copies, boolean gated, double[] laneNanos, double windowNanos) {
        /** Decimal GB/s of lane {@code i}: its bytes over its own device time. */
        public double gbps(int lane) {
            return bytesPerTransfer * (double) copies / laneNanos[lane];
        }

        /**
         * Decimal GB/s of every lane together: all bytes moved over the common window (the bidirectional
         * "sum"). Never more than the lanes' own figures added up, since the window holds every lane's.
         */
        public double totalGbps() {
            return bytesPerTransfer * (double) copies * laneNanos.length / windowNanos;
        }
    }
}
