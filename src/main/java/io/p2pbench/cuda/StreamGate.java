package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import io.p2pbench.settings.Settings;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Holds streams on a host flag while measured work is enqueued, then lets them all go at once, as
 * nvbandwidth does.
 *
 * <p>Why: enqueueing a copy costs the host about 5.5 us on our GPU node, longer than a small copy
 * takes on the device. Without the gate the device drains the queue as fast as the host fills it,
 * and the events measure the host's enqueue rate, not the link. With the gate, every copy is
 * already queued when the start event fires, so the events time the device alone.
 *
 * <p>How: each held stream waits for a word of mapped pinned host memory to reach the cycle's
 * generation: with {@code cuStreamWaitValue32} where the driver supports stream memory operations,
 * otherwise with a one-thread spin kernel. {@link #release()} writes the generation.
 *
 * <p>It never deadlocks: if the host does not release within the timeout (for example because the
 * stream's queue filled up while held, which blocks the enqueueing thread), a watchdog releases
 * the flag and {@link #release()} reports the cycle as expired, so its timing is discarded. The
 * spin kernel also gives up on its own after the same time. Close releases any held stream.
 */
public final class StreamGate implements AutoCloseable {
    /** System property choosing the mechanism: {@code auto} (default), {@code wait} or {@code spin}. */
    public static final String MODE_PROPERTY = Settings.GATE;

    /** How a stream waits. */
    public enum Mode {
        /** cuStreamWaitValue32 on the host flag (a stream memory operation; no SM is occupied). */
        WAIT_VALUE,
        /** A one-thread kernel polls the host flag. */
        SPIN_KERNEL
    }

    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "p2pbench-gate-watchdog");
        t.setDaemon(true);
        return t;
    });
    private static final Map<Integer, Mode> DEVICE_MODES = new HashMap<>();

    private final Duration timeout;
    private final PinnedHostBuffer flag;
    private final ByteBuffer words;
    private final Map<Integer, Long> devicePointers = new HashMap<>();
    private final List<CudaStream> held = new ArrayList<>();
    private final Object lock = new Object();
    private int generation;
    private boolean expired;
    private ScheduledFuture<?> pending;
    private boolean closed;

    /** A gate whose watchdog releases held streams after {@code timeout}. */
    public StreamGate(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("gate timeout must be positive, was " + timeout);
        }
        this.timeout = timeout;
        this.flag = new PinnedHostBuffer(64, PinnedHostBuffer.Flag.PORTABLE, PinnedHostBuffer.Flag.MAPPED);
        this.words = flag.hostView();
        words.putInt(0, 0); // released generation
        words.putInt(4, 0); // set by the spin kernel when it gave up
    }

    /** A gate with a 10 s watchdog. */
    public StreamGate() {
        this(Duration.ofSeconds(10));
    }

    /** The mechanism used on {@code device} (decided on the first hold there). */
    public static synchronized Mode modeOf(int device) {
        return DEVICE_MODES.get(device);
    }

    /**
     * Makes {@code stream} wait, from this point of its queue on, until {@link #release()}. All
     * streams held before one release are let go together.
     */
    public void hold(CudaStream stream) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("gate is closed");
            }
            int next = generation + 1;
            int device = stream.device();
            Mode mode = chooseMode(device);
            if (mode == Mode.WAIT_VALUE) {
                Cuda.setDevice(device);
                int result = cuStreamWaitValue32(stream.handle(), devicePointer(device), next,
                        CU_STREAM_WAIT_VALUE_GEQ);
                if (result == CUDA_ERROR_NOT_SUPPORTED && !"wait".equals(requestedMode())) {
                    rememberMode(device, Mode.SPIN_KERNEL);
                    mode = Mode.SPIN_KERNEL;
                } else {
                    Cuda.checkDriver(result, "cuStreamWaitValue32", "device", device, "value", next);
                }
            }
            if (mode == Mode.SPIN_KERNEL) {
                SuiteKernels.kernel(device, "gateSpin").launch(stream, 1, 1, devicePointer(device), next,
                        timeout.toNanos(), devicePointer(device) + 4);
            }
            if (held.isEmpty()) {
                pending = WATCHDOG.schedule(this::expire, timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            held.add(stream);
        }
    }

    /**
     * Lets every held stream go. Throws {@link IllegalStateException} if the watchdog had to do it
     * (or a spin kernel gave up): the work enqueued in this cycle was not all queued when the
     * streams started, so its timing must not be used.
     */
    public void release() {
        synchronized (lock) {
            if (held.isEmpty()) {
                return;
            }
            if (pending != null) {
                pending.cancel(false);
                pending = null;
            }
            generation++;
            words.putInt(0, generation);
            held.clear();
            boolean watchdogFired = expired;
            expired = false;
            if (watchdogFired) {
                throw new IllegalStateException("the stream gate was not released within " + timeout.toMillis()
                        + " ms (the host could not finish enqueueing the measured work, perhaps because the "
                        + "stream's queue filled while held); this measurement is discarded");
            }
        }
    }

    /** Whether a spin kernel gave up waiting since the last call; resets the indicator. */
    public boolean spinTimedOut() {
        synchronized (lock) {
            boolean out = words.getInt(4) != 0;
            words.putInt(4, 0);
            return out;
        }
    }

    private void expire() {
        synchronized (lock) {
            if (!held.isEmpty() && !closed) {
                expired = true;
                words.putInt(0, generation + 1);
            }
        }
    }

    private long devicePointer(int device) {
        return devicePointers.computeIfAbsent(device, d -> {
            Cuda.setDevice(d);
            long[] ptr = {0};
            Cuda.checkDriver(cuMemHostGetDevicePointer(ptr, flag.at(0), 0), "cuMemHostGetDevicePointer",
                    "device", d);
            return ptr[0];
        });
    }

    private static String requestedMode() {
        return Settings.current().gateMode();
    }

    private static synchronized Mode chooseMode(int device) {
        Mode known = DEVICE_MODES.get(device);
        if (known != null) {
            return known;
        }
        Mode mode = switch (requestedMode()) {
            case "spin" -> Mode.SPIN_KERNEL;
            case "wait", "auto" -> Mode.WAIT_VALUE;
            default -> throw new IllegalArgumentException("-D" + MODE_PROPERTY + "=" + requestedMode()
                    + " is not a gate mode; use auto, wait or spin");
        };
        DEVICE_MODES.put(device, mode);
        return mode;
    }

    private static synchronized void rememberMode(int device, Mode mode) {
        DEVICE_MODES.put(device, mode);
    }

    /** Forgets the per-device choice (tests switch modes within one JVM). */
    public static synchronized void resetModes() {
        DEVICE_MODES.clear();
    }

    /** Releases any held stream, waits for them, and frees the flag; idempotent. */
    @Override
    public void close() {
        List<CudaStream> toDrain;
        synchronized (lock) {
            if (closed) {
                return;
            }
            toDrain = new ArrayList<>(held);
            if (pending != null) {
                pending.cancel(false);
            }
            words.putInt(0, generation + 1);
            held.clear();
            closed = true;
        }
        for (CudaStream s : toDrain) {
            s.synchronize();
        }
        flag.close();
    }
}
