package io.p2pbench.cli;

/** Input the user can fix (a bad file, a value that does not fit this machine): one line, exit code 2. */
public final class UserInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code message} names the bad value and what would be accepted. */
    public UserInputException(String message) {
        super(message);
    }
}
