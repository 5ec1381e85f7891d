package io.p2pbench.transfer;

import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.SuiteKernels;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One unidirectional transfer of {@code bytes} from a source to a destination, by one mechanism.
 * A bidirectional measurement runs two lanes at once. The lane owns its streams, its destination
 * check, and the events that order poison, transfer and check:
 * <pre>
 *   verify stream:  poison ─┐                               ┌─ check
 *   work streams:           └─ [gate] start  transfer × k  stop ─┘
 * </pre>
 */
abstract class Lane implements AutoCloseable {
    private final String label;
    private final long bytes;
    private final CudaStream verifyStream;
    private final CudaEvent poisonDone;
    private final CudaEvent transferDone;
    private final CudaEvent released;
    private final CudaEvent start;
    private final CudaEvent stop;
    private Verifier verifier;
    private List<CudaStream> allStreams;
    private final List<AutoCloseable> owned = new ArrayList<>();

    /**
     * @param timingDevice the GPU of {@link #timingStream()}, where start and stop are recorded
     * @param verifyDevice the GPU that poisons and checks the destination
     */
    Lane(String label, long bytes, int timingDevice, int verifyDevice) {
        this.label = label;
        this.bytes = bytes;
        try {
            this.verifyStream = own(new CudaStream(verifyDevice));
            this.poisonDone = own(CudaEvent.ordering(verifyDevice));
            this.transferDone = own(CudaEvent.ordering(timingDevice));
            this.released = own(CudaEvent.timing(timingDevice));
            this.start = own(CudaEvent.timing(timingDevice));
            this.stop = own(CudaEvent.timing(timingDevice));
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, owned);
        }
    }

    /** Fills a source with the pattern for {@code seed} and waits for it. */
    final void fillSource(Memory src, int seed) {
        if (src.deviceAccessible()) {
            int dev = src.kind() == Memory.Kind.DEVICE ? src.device() : verifyStream.device();
            CudaStream s = dev == verifyStream.device() ? verifyStream : null;
            try (CudaStream temp = s == null ? new CudaStream(dev) : null) {
                CudaStream use = s == null ? temp : s;
                long words = bytes / 4;
                SuiteKernels.kernel(dev, "fillPattern").launch(use,
                        SuiteKernels.gridFor(dev, words, SuiteKernels.BLOCK), SuiteKernels.BLOCK, src, words, seed);
                use.synchronize();
            }
        } else {
            ByteBuffer view = src.hostView();
            view.limit((int) bytes);
            Pattern.fill(view, seed);
        }
    }

    /** Sets up the destination check; called by subclasses once their destination exists. */
    final void verifyDestination(Memory dst, int seed) {
        this.verifier = own(new Verifier(label, dst, bytes, seed, verifyStream.device()));
    }

    /**
     * Registers a resource to close with the lane (in reverse order). A subclass's constructor that fails
     * after this rethrows {@code Resources.closeAfterFailure(e, this)}, which closes what the lane made.
     */
    final <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** E.g. {@code GPU0->GPU1} or {@code host->GPU0}. */
    final String label() {
        return label;
    }

    /** Bytes per transfer. */
    final long bytes() {
        return bytes;
    }

    /** Every stream the transfer enqueues on (the gate holds each). */
    abstract List<CudaStream> workStreams();

    /** The work stream on which start and stop are recorded; the transfer ends on it. */
    abstract CudaStream timingStream();

    /** Operations one transfer enqueues on its busiest stream (bounds what a held stream must queue). */
    abstract int operationsPerTransfer();

    /**
     * Whether the transfer may be enqueued behind the gate. Copies involving pageable memory may
     * block the host until the device has reached them, so they must never wait behind a gate.
     */
    abstract boolean gateable();

    /** Enqueues one full transfer. */
    abstract void enqueueTransfer();

    /** Poisons the destination and makes the work streams wait for that. */
    final void poison() {
        verifier.poison(verifyStream);
        poisonDone.record(verifyStream);
        for (CudaStream s : workStreams()) {
            s.waitFor(poisonDone);
        }
    }

    /**
     * Records the start of the timed region on the timing stream; the lane's other streams wait for
     * it, so no timed work starts before the start event (a staged lane's source stream would).
     */
    final void markStart() {
        start.record(timingStream());
        List<CudaStream> work = workStreams();
        for (int i = 0; i < work.size(); i++) {
            if (work.get(i) != timingStream()) {
                work.get(i).waitFor(start);
            }
        }
    }

    /**
     * Records, on the timing stream before anything of the batch, the moment the gate lets it run:
     * the reference from which {@link BandwidthProbe} measures the lanes' common window.
     */
    final void markReleased() {
        released.record(timingStream());
    }

    /** The GPU whose clock times this lane. */
    final int timingDevice() {
        return timingStream().device();
    }

    /**
     * Nanoseconds from {@code reference} (an event of this lane's timing GPU, recorded before its
     * start) to this lane's start and to its stop, after synchronisation.
     */
    final double[] offsetsNanos(CudaEvent reference) {
        return new double[] {CudaEvent.elapsedMillis(reference, start) * 1e6,
            CudaEvent.elapsedMillis(reference, stop) * 1e6};
    }

    /** The event {@link #markReleased} recorded. */
    final CudaEvent releasedEvent() {
        return released;
    }

    /** Records the end of the timed region on the timing stream. */
    final void markStop() {
        stop.record(timingStream());
    }

    /** Device time between the last start and stop, in nanoseconds (after synchronisation). */
    final double elapsedNanos() {
        return CudaEvent.elapsedMillis(start, stop) * 1e6;
    }

    /** Enqueues the destination check after everything enqueued so far on the work streams. */
    final void enqueueCheck() {
        // Every lane's transfer ends on its timing stream (a staged lane's last leg is host to device there).
        transferDone.record(timingStream());
        verifyStream.waitFor(transferDone);
        verifier.enqueueCheck(verifyStream);
    }

    /** Waits for the work streams only: what a host-observed transfer waits for. */
    void synchronizeWork() {
        List<CudaStream> work = workStreams();
        for (int i = 0; i < work.size(); i++) {
            work.get(i).synchronize();
        }
    }

    /** Waits for every stream of the lane. */
    final void synchronize() {
        if (allStreams == null) {
            Set<CudaStream> all = new LinkedHashSet<>(workStreams());
            all.add(verifyStream);
            allStreams = List.copyOf(all);
        }
        for (int i = 0; i < allStreams.size(); i++) {
            allStreams.get(i).synchronize();
        }
    }

    /** Throws {@link DataMismatchException} if the last checked transfer delivered wrong bytes. */
    final void requireIntact() {
        verifier.requireIntact(verifyStream);
    }

    /** Bytes checked and found intact. */
    final long bytesVerified() {
        return verifier == null ? 0 : verifier.bytesChecked();
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
    }
}
