package io.p2pbench.serving;

/**
 * Time as the serving scheduler sees it, in nanoseconds from an arbitrary origin: the host's clock
 * on the GPU ({@link HostClock}), a clock that a model executor advances in tests and in the
 * planner's predictions ({@link VirtualClock}), so those never wait on real time.
 */
public interface Clock {
    /** Now, nanoseconds. */
    long nanos();

    /**
     * Returns once {@link #nanos()} has reached {@code nanos}: the host clock waits (the scheduler is
     * idle until the next arrival), a virtual clock jumps there. Returns at once when it is already past.
     */
    void waitUntil(long nanos);
}
