package io.p2pbench.run;

import io.p2pbench.settings.Settings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import io.p2pbench.results.LockFile;

/**
 * One measuring run per machine, whoever runs it. Two runs at once would measure each other, and JMH's own
 * machine-wide lock ({@code /tmp/jmh.lock}) would fail every benchmark of the second one. A run
 * takes this lock before it measures anything: an OS file lock ({@link FileChannel#tryLock()}, so
 * a killed run releases it) on a file that records the holder's pid, start time and command, so
 * a refused run can say which one is running. Held until {@link #close()}. The file is one for every
 * user, created writable by all ({@link LockFile}): two users measuring at once would spoil each
 * other's figures as surely as one user twice. A lock file that cannot be used (a folder, a link,
 * another user's file left unwritable by an older version) is one line naming it and what to do.
 */
public final class RunLock implements AutoCloseable {
    /** System property naming the lock file (tests); default {@link #DEFAULT_FILE}. */
    public static final String FILE_PROPERTY = "p2pbench.lockFile";

    /** The machine-wide lock file. */
    public static final Path DEFAULT_FILE = Path.of(System.getProperty("java.io.tmpdir"), "p2pbench.lock");

    /** System property naming JMH's lock file (tests); default {@code <tmpdir>/jmh.lock}, as JMH has it. */
    public static final String JMH_LOCK_PROPERTY = "p2pbench.jmhLockFile";

    private final FileChannel channel;
    private final FileLock lock;

    private RunLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Another run holds the lock; the message names it and says what to do. */
    public static final class Held extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Held(String message) {
            super(message);
        }
    }

    /** The lock file in use: {@link #FILE_PROPERTY} if set, else {@link #DEFAULT_FILE}. */
    public static Path file() {
        Path p = Settings.current().runLockFile();
        return p == null ? DEFAULT_FILE : p;
    }

    /**
     * Takes the lock for {@code command}. Without {@code wait}, throws {@link Held} naming the
     * running one; with it, says once on {@code out} what it waits for and polls every
     * {@code pollMillis} until the lock is free. A lock file that cannot be used throws
     * {@link LockFile.Unusable} at once, with or without {@code wait}.
     */
    public static RunLock acquire(Path file, String command, boolean wait, long pollMillis, PrintWriter out)
            throws IOException, InterruptedException {
        boolean said = false;
        while (true) {
            RunLock l = tryAcquire(file, command);
            String other;
            try {
                other = l == null ? describeHolder(file) : jmhLockHolder();
            } catch (LockFile.Unusable e) {
                l.close();
                throw e;
            }
            if (l != null && other == null) {
                return l;
            }
            if (l != null) {
                l.close();
            }
            if (!wait) {
                throw new Held(other + "; wait for it to finish, or run with --wait");
            }
            if (!said) {
                out.println("Waiting: " + other + " ...");
                out.flush();
                said = true;
            }
            Thread.sleep(pollMillis);
        }
    }

    private static RunLock tryAcquire(Path file, String command) throws IOException {
        FileChannel ch = LockFile.open(file);
        FileLock lock;
        try {
            lock = LockFile.tryLock(ch);
        } catch (IOException e) {
            ch.close();
            throw new LockFile.Unusable("the lock file " + file.toAbsolutePath() + " cannot be locked: " + e.getMessage());
        }
        if (lock == null) {
            ch.close();
            return null;
        }
        String holder = "pid " + ProcessHandle.current().pid() + ", started "
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ", " + command + "\n";
        ch.truncate(0);
        ch.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
        ch.force(false);
        return new RunLock(ch, lock);
    }

    private static String describeHolder(Path file) {
        String who = "";
        try {
            // Any user can write the file: shown as one line of printable text, never more than 300 characters.
            who = Files.readString(file).lines().findFirst().orElse("").strip().replaceAll("\\p{Cntrl}", "?");
            who = who.length() > 300 ? who.substring(0, 300) + "..." : who;
        } catch (IOException e) {
            // the holder may be writing it; the path alone still tells the user where to look
        }
        return "another p2pbench run is measuring on this machine (" + (who.isEmpty() ? "lock " + file : who + "; lock "
                + file) + ")";
    }

    /**
     * Who holds JMH's lock when it is not us, or null: probed and released at once. A JMH lock this user
     * cannot open for writing (another user's, left by a JMH that made it {@code rw-r--r--}) would make
     * JMH refuse every benchmark: {@link LockFile.Unusable}, unless {@code -Djmh.ignoreLock=true} is given.
     */
    private static String jmhLockHolder() throws LockFile.Unusable {
        Path set = Settings.current().jmhLockFile();
        Path jmhLock = set != null ? set : Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        if (!Files.exists(jmhLock, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (!Files.isRegularFile(jmhLock) || !Files.isWritable(jmhLock)) {
            if ("true".equals(System.getProperty("jmh.ignoreLock"))) {
                return null;
            }
            throw new LockFile.Unusable("JMH's lock file " + jmhLock + (Files.isRegularFile(jmhLock)
                    ? " " + LockFile.ownerAndMode(jmhLock) + " and is not writable by you"
                    : " is not a file") + ", so JMH would refuse every benchmark; ask its owner or root to remove it "
                    + "(rm " + jmhLock + "), or add -Djmh.ignoreLock=true to P2PBENCH_JAVA_OPTS (p2pbench's own lock "
                    + "still keeps p2pbench runs apart)");
        }
        try (FileChannel ch = FileChannel.open(jmhLock, StandardOpenOption.WRITE)) {
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException sameJvm) {
                return "a JMH run in this JVM holds " + jmhLock;
            }
            if (l == null) {
                return "another JMH run holds " + jmhLock + " (not a p2pbench run; JMH allows one run per machine)";
            }
            l.release();
            return null;
        } catch (IOException e) {
            return null; // unreadable: JMH will say so itself if it cannot lock it either
        }
    }

    @Override
    public void close() throws IOException {
        if (channel.isOpen()) {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }
}
