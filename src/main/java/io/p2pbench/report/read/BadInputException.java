package io.p2pbench.report.read;

import java.io.IOException;

/**
 * Input the report or compare step cannot use: a missing folder, a folder that is not a result, a
 * truncated or foreign JSON file, results of an incompatible suite version, two results with
 * nothing in common. The message is one line naming the file and what would be accepted.
 */
public final class BadInputException extends IOException {
    private static final long serialVersionUID = 1L;

    /** {@code message} names the bad input and what would be accepted. */
    public BadInputException(String message) {
        super(message);
    }
}
