package io.p2pbench.whatif;

/**
 * The communication a training strategy needs, and what each GPU sends for it. The factors are
 * nccl-tests' bus-bandwidth factors (doc/PERFORMANCE.md): for a message of {@code S} bytes (the
 * size nccl-tests reports: the all-reduce buffer, the gathered output, the scattered input) each of
 * {@code n} ranks sends {@code factor(n) * S} bytes in a ring, so the time of one call is that
 * over the bus bandwidth measured at size {@code S}.
 */
public enum Comm {
    /** All-reduce: each rank sends 2(n-1)/n of the buffer (reduce-scatter then all-gather). */
    ALL_REDUCE("all-reduce"),
    /** Reduce-scatter: each rank sends (n-1)/n of the input. */
    REDUCE_SCATTER("reduce-scatter"),
    /** All-gather: each rank sends (n-1)/n of the gathered output. */
    ALL_GATHER("all-gather"),
    /** A point-to-point send of the whole message to the neighbouring stage. */
    SEND("send");

    private final String label;

    Comm(String label) {
        this.label = label;
    }

    /** Bytes each rank sends per byte of message, for {@code n} ranks. */
    public double factor(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("rank count must be positive, was " + n);
        }
        return switch (this) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case REDUCE_SCATTER, ALL_GATHER -> (double) (n - 1) / n;
            case SEND -> 1;
        };
    }

    /** The name used in tables: {@code all-reduce}, ... */
    public String label() {
        return label;
    }

    /** The operation as p2pbench results and nccl-tests imports name it ({@code ALL_REDUCE}, ...). */
    public String resultName() {
        return name();
    }
}
