package io.p2pbench.partition;

/** A GEMM output element outside the tolerance of its host reference: the step's compute is wrong. */
public final class GemmMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GemmMismatchException(String message) {
        super(message);
    }
}
