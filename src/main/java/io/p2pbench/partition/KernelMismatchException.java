package io.p2pbench.partition;

/** A forward-pass kernel's output element outside the tolerance of its host reference: the step's compute is wrong. */
public final class KernelMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    KernelMismatchException(String message) {
        super(message);
    }
}
