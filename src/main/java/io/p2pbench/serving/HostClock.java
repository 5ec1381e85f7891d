package io.p2pbench.serving;

import java.util.concurrent.locks.LockSupport;

/**
 * The host's monotonic clock ({@link System#nanoTime()}). Waiting parks the thread until shortly
 * before the deadline and spins the rest, so an idle scheduler sees an arrival within microseconds
 * of its time instead of a timer slack's worth later.
 */
public final class HostClock implements Clock {
    /** How close to a deadline the wait stops parking and spins. */
    private static final long SPIN_NANOS = 200_000;

    @Override
    public long nanos() {
        return System.nanoTime();
    }

    @Override
    public void waitUntil(long nanos) {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            if (left > SPIN_NANOS) {
                LockSupport.parkNanos(left - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
