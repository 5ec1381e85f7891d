package io.p2pbench.run;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One measuring run per machine. Two runs at once would measure each other, and JMH's own
 * machine-wide lock ({@code /tmp/jmh.lock}) would fail every benchmark of the second one. A run
 * takes this lock before it measures anything: an OS file lock ({@link FileChannel#tryLock()}, so
 * a killed run releases it) on a file that records the holder's pid, start time and command, so
 * a refused run can say which one is running. Held until {@link #close()}.
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
        String p = System.getProperty(FILE_PROPERTY);
        return p == null ? DEFAULT_FILE : Path.of(p);
    }

    /**
     * Takes the lock for {@code command}. Without {@code wait}, throws {@link Held} naming the
     * running one; with it, says once on {@code out} what it waits for and polls every
     * {@code pollMillis} until the lock is free.
     */
    public static RunLock acquire(Path file, String command, boolean wait, long pollMillis, PrintWriter out)
            throws IOException, InterruptedException {
        boolean said = false;
        while (true) {
            RunLock l = tryAcquire(file, command);
            String other = l == null ? describeHolder(file) : jmhLockHolder();
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
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException sameJvm) {
            lock = null;
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
            who = Files.readString(file).strip();
        } catch (IOException e) {
            // the holder may be writing it; the path alone still tells the user where to look
        }
        return "another p2pbench run is measuring on this machine (" + (who.isEmpty() ? "lock " + file : who + "; lock "
                + file) + ")";
    }

    /** Who holds JMH's lock when it is not us, or null: probed and released at once. */
    private static String jmhLockHolder() {
        Path jmhLock = Path.of(System.getProperty(JMH_LOCK_PROPERTY,
                Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock").toString()));
        if (!Files.exists(jmhLock)) {
            return null;
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
