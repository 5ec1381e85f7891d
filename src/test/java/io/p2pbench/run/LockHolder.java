package io.p2pbench.run;

import java.io.PrintWriter;
import java.nio.file.Path;

/** A second process for the lock tests: takes the run lock, says so, holds it until stdin closes. */
public final class LockHolder {
    private LockHolder() {}

    /** {@code args[0]}: the lock file. */
    @SuppressWarnings("try") // the lock is held for the block, not used in it
    public static void main(String[] args) throws Exception {
        try (RunLock lock = RunLock.acquire(Path.of(args[0]), "p2pbench run --preset full", false, 100,
                new PrintWriter(System.out))) {
            System.out.println("locked");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the test closes our stdin
            }
        }
    }
}
