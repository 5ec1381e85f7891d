package io.p2pbench.transfer;

import io.p2pbench.transfer.SkipCause;

/**
 * A benchmark that cannot run on this machine (no peer access, too little memory, one NUMA node):
 * recorded as skipped with {@link #skipCause()} and {@link #getMessage()} as the reason, never as a figure and never
 * silently.
 */
public final class BenchmarkSkipped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why, as a type. */
    private final SkipCause skipCause;

    /** {@code reason} says what is missing, in one line; {@code cause} is what decisions read. */
    public BenchmarkSkipped(SkipCause cause, String reason) {
        super(reason);
        this.skipCause = cause;
    }

    /** Why it cannot run, as a type. */
    public SkipCause skipCause() {
        return skipCause;
    }
}
