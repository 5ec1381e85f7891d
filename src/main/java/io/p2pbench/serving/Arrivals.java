package io.p2pbench.serving;

/** Requests in arrival order, without end: what the scheduler serves ({@link LoadGenerator}; fixed lists in tests). */
public interface Arrivals {
    /** The next request; its arrival is not before the previous one's. */
    Request next();
}
