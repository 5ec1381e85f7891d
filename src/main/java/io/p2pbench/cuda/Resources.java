package io.p2pbench.cuda;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Closing a list of resources, last made first, as every fixture does. */
public final class Resources {
    private Resources() {}

    /**
     * Closes {@code owned} from last to first, clears it, and rethrows the first failure after
     * trying them all, with every later failure added to it as suppressed, so one failing close
     * never leaks the rest and no failure goes unreported.
     */
    public static void closeReversed(List<? extends AutoCloseable> owned) {
        List<AutoCloseable> reversed = new ArrayList<>(owned);
        Collections.reverse(reversed);
        owned.clear();
        closeEach(reversed);
    }

    /**
     * After a construction failed at a later step: closes what it had already made ({@code made}, last made
     * first) and returns {@code failure}, with every failure to close kept on it as suppressed, for the
     * constructor to rethrow: the cause the user sees is the step that failed, never the clean-up.
     */
    public static RuntimeException closeAfterFailure(RuntimeException failure, List<? extends AutoCloseable> made) {
        try {
            closeReversed(made);
        } catch (RuntimeException closing) {
            if (closing != failure) {
                failure.addSuppressed(closing);
            }
        }
        return failure;
    }

    /** As {@link #closeAfterFailure(RuntimeException, List)} for one resource that closes what it made. */
    public static RuntimeException closeAfterFailure(RuntimeException failure, AutoCloseable made) {
        return closeAfterFailure(failure, new ArrayList<>(List.of(made)));
    }

    /**
     * Closes every one of {@code resources} in order, whatever the earlier ones threw; then throws
     * the first failure with the later ones suppressed on it (a checked one wrapped).
     */
    public static void closeEach(List<? extends AutoCloseable> resources) {
        RuntimeException first = null;
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                } else if (first != e) {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
