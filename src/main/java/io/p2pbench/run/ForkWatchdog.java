package io.p2pbench.run;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The outer timeout of the benchmark JVMs: a hung CUDA call cannot hang the run, because once a fork's limit
 * has passed every JVM this one started is killed.
 */
final class ForkWatchdog implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "p2pbench-fork-watchdog");
        t.setDaemon(true);
        return t;
    });

    /**
     * Kills the forks once {@code limitSeconds} have passed, and again every second until cancelled: JMH may start
     * the benchmark's JVM only after the first kill (it runs a probe JVM first), and that one must not hang the run.
     * Sets {@code timedOut} when it fires.
     */
    ScheduledFuture<?> arm(double limitSeconds, AtomicBoolean timedOut) {
        return timer.scheduleWithFixedDelay(() -> {
            timedOut.set(true);
            killForks();
        }, (long) (limitSeconds * 1000), 1000, TimeUnit.MILLISECONDS);
    }

    /** Kills every process this JVM started (the benchmark JVMs and whatever they started). */
    static void killForks() {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
