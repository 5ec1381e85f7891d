package io.p2pbench.collective;

/** A collective produced a wrong element. The benchmark fails with this; no figure is kept for it. */
public final class CollectiveMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CollectiveMismatchException(String message) {
        super(message);
    }
}
