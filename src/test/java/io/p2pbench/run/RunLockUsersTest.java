package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2pbench.results.LockFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run lock on a machine several users share (issue 25): the lock file is made writable by every
 * user, so one user's run keeps another's from measuring beside it without locking them out for good
 * (before, a lock left {@code rw-r--r--} by one user made every other user's run fail with "internal
 * error: AccessDeniedException"); a lock path that cannot be a lock file is one line saying why.
 */
class RunLockUsersTest {
    @TempDir
    Path work;

    private String lockBefore;
    private String jmhBefore;

    @BeforeEach
    void ownLocks() {
        lockBefore = System.getProperty(RunLock.FILE_PROPERTY);
        jmhBefore = System.getProperty(RunLock.JMH_LOCK_PROPERTY);
        System.setProperty(RunLock.JMH_LOCK_PROPERTY, work.resolve("jmh.lock").toString());
    }

    @AfterEach
    void restore() {
        restore(RunLock.FILE_PROPERTY, lockBefore);
        restore(RunLock.JMH_LOCK_PROPERTY, jmhBefore);
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    private static RunLock acquire(Path file) throws Exception {
        return RunLock.acquire(file, "p2pbench run", false, 50, new PrintWriter(new StringWriter()));
    }

    @SuppressWarnings("try") // the lock is held for the block, not used in it
    @Test
    void theLockFileIsCreatedWritableByEveryUserWhateverTheUmask() throws Exception {
        Path file = work.resolve("p2pbench.lock");
        try (RunLock lock = acquire(file)) {
            assertEquals("rw-rw-rw-", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
    }

    /** The one line a lock file at {@code file} is refused with. */
    private static String refusal(Path file) {
        return assertThrows(LockFile.Unusable.class, () -> acquire(file)).getMessage();
    }

    @Test
    void aLockPathThatIsAFolderALinkOrUnderAFileIsOneLine() throws Exception {
        // p2pbench run says these as they are, exit code 2 (BadInputSweepCliTest); before, "internal error".
        Path folder = Files.createDirectories(work.resolve("lock-is-a-folder"));
        assertEquals("the lock file " + folder + " is a folder, not a file; remove it (rmdir " + folder + ")",
                refusal(folder));
        Path link = Files.createSymbolicLink(work.resolve("dangling.lock"), work.resolve("nowhere/p2pbench.lock"));
        assertEquals("the lock file " + link + " is a symbolic link (to " + work.resolve("nowhere/p2pbench.lock")
                + "), which p2pbench does not follow; remove it (rm " + link + ")", refusal(link));
        assertTrue(Files.notExists(work.resolve("nowhere")), "nothing made where the link points");
        Path file = Files.writeString(work.resolve("a-file"), "x");
        assertEquals("the lock file " + file.resolve("p2pbench.lock") + " cannot be created: " + file
                + " is a file, not a folder", refusal(file.resolve("p2pbench.lock")));
    }

    @Test
    void aLinkToAnotherUsersFileIsNeverWrittenThrough() throws Exception {
        // Another user could point /tmp/p2pbench.lock at your files: the lock would truncate them.
        Path yours = Files.writeString(work.resolve("thesis.tex"), "the user's own work\n");
        Path link = Files.createSymbolicLink(work.resolve("p2pbench.lock"), yours);
        LockFile.Unusable e = assertThrows(LockFile.Unusable.class, () -> acquire(link));
        assertTrue(e.getMessage().contains("is a symbolic link"), e.getMessage());
        assertEquals("the user's own work\n", Files.readString(yours));
    }

    /**
     * Runs {@link LockProbe} as user nobody (65534) through setpriv; needs root. The classes it needs are
     * copied below this test's folder, readable by every user: the checkout's own {@code target/} may be where
     * nobody can read it (a clone under {@code /root} or in a {@code mktemp -d} folder, mode 0700).
     */
    private String asAnotherUser(Path lockFile, Path jmhLock) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classes = readableClasses().toString();
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", java,
                "-cp", classes, "-D" + RunLock.JMH_LOCK_PROPERTY + "=" + jmhLock, LockProbe.class.getName(),
                lockFile.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        return out;
    }

    /** The suite's classes and {@link LockProbe} in one folder below {@link #work}, readable by every user. */
    private Path readableClasses() throws Exception {
        Path copy = work.resolve("probe-classes");
        if (Files.isDirectory(copy)) {
            return copy;
        }
        Path main = Path.of("target/classes");
        try (Stream<Path> all = Files.walk(main)) {
            for (Path p : all.filter(p -> Files.isDirectory(p) || p.toString().endsWith(".class")).toList()) {
                copyReadable(p, copy.resolve(main.relativize(p).toString()));
            }
        }
        Path probe = Path.of("target/test-classes", LockProbe.class.getName().replace('.', '/') + ".class");
        copyReadable(probe, copy.resolve(LockProbe.class.getName().replace('.', '/') + ".class"));
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
        return copy;
    }

    private static void copyReadable(Path from, Path to) throws Exception {
        if (Files.isDirectory(from)) {
            Files.createDirectories(to);
            Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else {
            Files.createDirectories(to.getParent());
            Files.copy(from, to);
            Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    /** A folder every user can write in, below this test's own (which only its owner could enter). */
    private Path shared() throws Exception {
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
        Path shared = Files.createDirectories(work.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        return shared;
    }

    private static boolean canRunAsAnotherUser() throws Exception {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("setpriv", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException noSetpriv) {
            return false;
        }
    }

    @SuppressWarnings("try") // the lock is held for the block, not used in it
    @Test
    void aLockMadeByOneUserIsTakenByAnotherAfterwards() throws Exception {
        assumeTrue(canRunAsAnotherUser(), "needs root and setpriv to run a second user's process");
        Path shared = shared();
        Path file = shared.resolve("p2pbench.lock");
        try (RunLock first = acquire(file)) {
            assertTrue(asAnotherUser(file, shared.resolve("jmh.lock")).startsWith(
                    "refused: another p2pbench run is measuring on this machine (pid " + ProcessHandle.current().pid()));
        }
        assertEquals("locked", asAnotherUser(file, shared.resolve("jmh.lock")));
    }

    @Test
    void anotherUsersLockThatIsNotWritableIsOneLineSayingWhoseItIs() throws Exception {
        Path file;
        String refused;
        Path jmh;
        if (canRunAsAnotherUser()) {
            Path shared = shared();
            file = Files.writeString(shared.resolve("p2pbench.lock"), "pid 1, started long ago\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            jmh = shared.resolve("jmh.lock");
            refused = asAnotherUser(file, jmh);
            assertTrue(refused.contains("belongs to user root (mode rw-r--r--) and is not writable by you"), refused);
            // JMH's lock left rw-r--r-- by another user would fail every benchmark: said before anything runs.
            Files.delete(file);
            Files.writeString(jmh, "");
            Files.setPosixFilePermissions(jmh, PosixFilePermissions.fromString("rw-r--r--"));
            refused = asAnotherUser(file, jmh);
            assertTrue(refused.startsWith("refused: JMH's lock file " + jmh + " belongs to user root (mode rw-r--r--) and "
                    + "is not writable by you, so JMH would refuse every benchmark"), refused);
            assertTrue(refused.contains("-Djmh.ignoreLock=true"), refused);
        } else {
            // Not root: this user's own file made read-only takes the same way.
            file = Files.writeString(work.resolve("p2pbench.lock"), "");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
            LockFile.Unusable e = assertThrows(LockFile.Unusable.class, () -> acquire(file));
            assertTrue(e.getMessage().contains("(mode r--r--r--) and is not writable by you"), e.getMessage());
        }
    }
}
