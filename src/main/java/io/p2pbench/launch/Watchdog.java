package io.p2pbench.launch;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Bounds the time a rank spends inside one CUDA or NCCL call of a step (a collective whose peer died never
 * returns): {@link #guard} runs the call and, if it has not returned after the limit, hands the step's id to the
 * action on another thread, which ends the rank. Waits for other ranks are bounded by their own patience, not here.
 */
final class Watchdog implements AutoCloseable {
    private final long limitSeconds;
    private final Consumer<String> onHang;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "p2pbench-rank-watchdog");
        t.setDaemon(true);
        return t;
    });

    Watchdog(long limitSeconds, Consumer<String> onHang) {
        this.limitSeconds = limitSeconds;
        this.onHang = onHang;
    }

    /** Runs {@code call} for step {@code step} under the limit. */
    <T> T guard(String step, Supplier<T> call) {
        ScheduledFuture<?> f = timer.schedule(() -> onHang.accept(step), limitSeconds, TimeUnit.SECONDS);
        try {
            return call.get();
        } finally {
            f.cancel(false);
        }
    }

    /** {@link #guard} for a call without a result. */
    void guard(String step, Runnable call) {
        guard(step, () -> {
            call.run();
            return null;
        });
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
