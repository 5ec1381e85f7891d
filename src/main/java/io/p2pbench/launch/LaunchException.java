package io.p2pbench.launch;

/**
 * A job of several processes that cannot run as started: a launcher variable missing or malformed, ranks that do
 * not fit the GPUs, ranks of different suite builds. The message is one line naming the bad value and what would
 * be accepted; {@code p2pbench run} prints it and exits with code 2.
 */
public final class LaunchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code message}: one line, naming the value and what would be accepted. */
    public LaunchException(String message) {
        super(message);
    }
}
