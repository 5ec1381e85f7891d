package io.p2pbench.serving;

/**
 * A clock that moves only when told: a model executor advances it by each step's modelled time and
 * an idle scheduler jumps it to the next arrival. Deterministic; nothing waits on real time.
 */
public final class VirtualClock implements Clock {
    private long now;

    @Override
    public long nanos() {
        return now;
    }

    @Override
    public void waitUntil(long nanos) {
        now = Math.max(now, nanos);
    }

    /** Moves the clock forward by {@code nanos} (not negative). */
    public void advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a clock does not go back: " + nanos + " ns");
        }
        now += nanos;
    }
}
