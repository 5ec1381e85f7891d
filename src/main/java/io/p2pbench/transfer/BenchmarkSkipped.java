package io.p2pbench.transfer;

/**
 * A benchmark that cannot run on this machine (no peer access, too little memory, one NUMA node):
 * recorded as skipped with {@link #getMessage()} as the reason, never as a figure and never silently.
 */
public final class BenchmarkSkipped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code reason} says what is missing, in one line. */
    public BenchmarkSkipped(String reason) {
        super(reason);
    }
}
