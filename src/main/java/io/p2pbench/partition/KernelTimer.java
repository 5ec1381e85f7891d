package io.p2pbench.partition;

import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Resources;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Times each piece of one rank's eager step on the device: a timing event before and after every
 * kernel or GEMM, summed per {@link StepKernel}. Only what lies between a piece's two events counts,
 * so host enqueue gaps between pieces (an eager decode step waits on the host) are not charged to
 * any kernel; an event's own device cost (about a microsecond) is. Off unless {@link #start}ed.
 */
final class KernelTimer implements AutoCloseable {
    private final int device;
    private final List<CudaEvent> pool = new ArrayList<>();
    private final List<StepKernel> kinds = new ArrayList<>();
    private int used;
    private boolean on;

    KernelTimer(int device) {
        this.device = device;
    }

    /** Starts recording the pieces of a step, forgetting the last one's. */
    void start() {
        on = true;
        used = 0;
        kinds.clear();
    }

    /** Stops recording; {@link #micros} reads what was recorded once the stream is done. */
    void stop() {
        on = false;
    }

    /** Marks the start of a piece on {@code stream}. */
    void begin(CudaStream stream) {
        if (on) {
            event().record(stream);
        }
    }

    /** Marks the end of a piece of kind {@code kind} begun by the last {@link #begin}. */
    void end(CudaStream stream, StepKernel kind) {
        if (on) {
            event().record(stream);
            kinds.add(kind);
        }
    }

    private CudaEvent event() {
        if (used == pool.size()) {
            pool.add(CudaEvent.timing(device));
        }
        return pool.get(used++);
    }

    /** Microseconds per kind over the recorded step (the stream must be synchronised). */
    Map<StepKernel, Double> micros() {
        Map<StepKernel, Double> out = new EnumMap<>(StepKernel.class);
        for (int i = 0; i < kinds.size(); i++) {
            double us = CudaEvent.elapsedMillis(pool.get(2 * i), pool.get(2 * i + 1)) * 1000.0;
            out.merge(kinds.get(i), us, Double::sum);
        }
        return out;
    }

    @Override
    public void close() {
        Resources.closeReversed(new ArrayList<AutoCloseable>(pool));
        pool.clear();
    }
}
