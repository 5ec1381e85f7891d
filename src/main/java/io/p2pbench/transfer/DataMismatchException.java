package io.p2pbench.transfer;

/** A transfer delivered wrong bytes. The benchmark fails with this; no figure is kept for it. */
public final class DataMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DataMismatchException(String message) {
        super(message);
    }
}
