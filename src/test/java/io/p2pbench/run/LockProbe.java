package io.p2pbench.run;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/**
 * Takes the run lock {@code args[0]} in a process of its own (run as another user by
 * {@link RunLockUsersTest}) and prints {@code locked} or the one line it was refused with. Needs only
 * the suite's and the tests' classes: another user may not read the Maven repository.
 */
public final class LockProbe {
    private LockProbe() {}

    /** {@code LockProbe LOCKFILE}; {@code -Dp2pbench.jmhLockFile=...} names JMH's lock. */
    @SuppressWarnings("try") // the lock is held for the block, not used in it
    public static void main(String[] args) throws Exception {
        try (RunLock lock = RunLock.acquire(Path.of(args[0]), "p2pbench run (probe)", false, 50,
                new PrintWriter(new StringWriter()))) {
            System.out.println("locked");
        } catch (io.p2pbench.results.LockFile.Unusable | RunLock.Held e) {
            System.out.println("refused: " + e.getMessage());
        }
    }
}
