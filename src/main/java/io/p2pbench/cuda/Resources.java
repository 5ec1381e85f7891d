package io.p2pbench.cuda;

import java.util.List;

/** Closing a list of resources, last made first, as every fixture does. */
public final class Resources {
    private Resources() {}

    /**
     * Closes {@code owned} from last to first, clears it, and rethrows the first failure after
     * trying them all, so one failing close never leaks the rest.
     */
    public static void closeReversed(List<? extends AutoCloseable> owned) {
        RuntimeException first = null;
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                }
            }
        }
        owned.clear();
        if (first != null) {
            throw first;
        }
    }
}
