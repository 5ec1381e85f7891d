package io.p2pbench.report;

import io.p2pbench.report.read.BadInputException;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Writes a command's whole output (a report, a comparison, a whatif) whole or not at all. The output goes into
 * a fresh staging folder made inside the target folder ({@code .p2pbench-staging-RANDOM}, made by this process,
 * so nothing in it is a link), then {@link ReportFolder#moveIn} moves it in, one rename per file. Until then
 * the target holds what it held: a failure (a full disk, bad input found late) removes the staging folder,
 * and so does SIGINT or SIGTERM, through a shutdown hook that says so in one line on stderr (the JVM then
 * exits 130 or 143). A signal that comes while the files move waits until they have moved. For a new
 * folder nothing is left; the folders made for it are removed again.
 *
 * <p>The staging folder is inside the target rather than beside it, so a folder whose parent the user cannot
 * write ({@code --out /shared/me}), the working directory ({@code --out .}) and a mount point work too.
 * A report killed with SIGKILL leaves its staging folder; the next successful report into that folder
 * removes it. Run: through {@link #write}.
 */
public final class StagedOutput implements AutoCloseable {
    /** How long the shutdown hook waits for the writing thread to notice that its folder is gone. */
    private static final long STOP_WAIT_MILLIS = 1000;

    private enum State { WRITING, COMMITTED, CANCELLED, CLOSED }

    /**
     * Writes one output into the staging folder it is given.
     *
     * @param <T> what the output returns
     */
    @FunctionalInterface
    public interface Output<T> {
        /** Writes into {@code staging}, adding every file written to {@code written}; returns what the caller needs. */
        T write(Path staging, List<Path> written) throws IOException;
    }

    private final ReportFolder folder;
    private final String what;
    private final Path staging;
    private final Path created;
    private final Thread hook;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private State state = State.WRITING;

    private StagedOutput(ReportFolder folder, String what, Path staging, Path created) {
        this.folder = folder;
        this.what = what;
        this.staging = staging;
        this.created = created;
        this.hook = new Thread(this::onSignal, "p2pbench-output-interrupt");
    }

    /**
     * Writes {@code output} into {@code dir} whole ({@link ReportFolder}: a new or empty folder, or one an
     * earlier report wrote); {@code what} names it in messages ({@code report}, {@code comparison}). A file that
     * cannot be written (a full disk) is one line naming it, with the target's name, not the staging folder's.
     */
    public static <T> T write(Path dir, String what, Output<T> output) throws IOException {
        ReportFolder folder = ReportFolder.claim(dir);
        try (StagedOutput staged = begin(folder, what)) {
            List<Path> written = new ArrayList<>();
            T result = output.write(staged.staging, written);
            staged.commit(written);
            return result;
        } catch (AtomicFiles.CannotWrite w) {
            throw cannotWrite(dir, what, w.reason(), w.file());
        } catch (FileSystemException e) {
            // In the folder: making the folders (a full disk, a read-only file system), or a move; else an input's.
            if (e.getFile() == null || !Path.of(e.getFile()).toAbsolutePath().normalize().startsWith(
                    dir.toAbsolutePath().normalize())) {
                throw e;
            }
            throw cannotWrite(dir, what, e.getReason() != null ? e.getReason() : e.getClass().getSimpleName(),
                    Path.of(e.getFile()));
        }
    }

    private static BadInputException cannotWrite(Path dir, String what, String reason, Path file) {
        return new BadInputException("cannot write the " + what + " to " + dir + ": " + reason + " ("
                + file.toString().replaceFirst("/" + ReportFolder.STAGING + "[^/]*", "") + "); the files this " + what
                + " had added there were removed" + (Files.exists(dir) ? "" : ", and the folder made for it"));
    }

    /** As {@link #write}, into a default folder the user did not name, which must be reached without a link. */
    public static <T> T writeDefault(Path dir, String what, Output<T> output) throws IOException {
        ReportFolder.requireNoLinkOnTheWay(dir);
        return write(dir, what, output);
    }

    private static StagedOutput begin(ReportFolder folder, String what) throws IOException {
        Path target = folder.dir().toAbsolutePath().normalize();
        Path created = null;
        for (Path p = target; p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
            created = p;
        }
        Files.createDirectories(target);
        Path staging;
        try {
            staging = Files.createTempDirectory(target, ReportFolder.STAGING);
        } catch (IOException e) {
            removeCreated(created, e);
            throw e;
        }
        StagedOutput s = new StagedOutput(folder, what, staging, created);
        try {
            Runtime.getRuntime().addShutdownHook(s.hook);
        } catch (IllegalStateException shuttingDown) {
            IOException e = new IOException("the " + what + " was interrupted before it began");
            deleteTree(staging, e);
            removeCreated(created, e);
            throw e;
        }
        return s;
    }

    /** Moves the files written into the target; a signal that came first leaves this thread waiting to exit. */
    private void commit(Collection<Path> written) throws IOException {
        synchronized (this) {
            if (state != State.WRITING) {
                throw new IOException("the " + what + " was interrupted");
            }
            folder.moveIn(staging, ReportFolder.names(staging, written));
            state = State.COMMITTED;
            deleteTree(staging);
            removeLeftStaging(folder.dir());
        }
    }

    /** Removes what was written unless it was committed; waits for the JVM's exit when a signal came. */
    @Override
    public void close() throws IOException {
        State was;
        synchronized (this) {
            was = state;
            if (state == State.WRITING) {
                state = State.CLOSED;
            }
        }
        if (was == State.CANCELLED) {
            // The shutdown hook owns the exit and its one line; an error of this thread would add a second.
            stopped.countDown();
            while (true) {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    // the JVM halts after its hooks
                }
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs now; this state (committed or closed) tells it there is nothing to undo
        }
        if (was == State.WRITING) {
            IOException failure = new IOException("removing the staging folder " + staging);
            deleteTree(staging, failure);
            removeCreated(created, failure);
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        }
    }

    /** SIGINT or SIGTERM before the files moved: the staging folder (and any folder made for it) goes. */
    private void onSignal() {
        List<Path> doomed = new ArrayList<>();
        synchronized (this) {
            if (state != State.WRITING) {
                return;
            }
            state = State.CANCELLED;
            seal(doomed);
        }
        IOException failure = new IOException("removing the staging folder " + staging);
        for (Path d : doomed) {
            deleteTree(d, failure);
        }
        try {
            stopped.await(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(staging);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
        boolean wasNew = created != null;
        removeCreated(created, failure);
        Path dir = folder.dir();
        System.err.println("p2pbench: interrupted: the " + what + " was not written; " + (wasNew
                ? "nothing was left (" + dir + " was new)" : dir + " is as it was")
                + (failure.getSuppressed().length > 0 ? "; could not remove " + staging + ": "
                + failure.getSuppressed()[0].getMessage() : ""));
        System.err.flush();
    }

    /**
     * Moves the staging folder aside and puts an empty file in its place, so the writing thread, which goes on
     * until the JVM halts, fails at its next file instead of making the folder again.
     */
    private void seal(List<Path> doomed) {
        for (int i = 0; i < 10; i++) {
            Path aside = staging.resolveSibling(staging.getFileName() + ".removing-" + i);
            try {
                if (Files.exists(staging, LinkOption.NOFOLLOW_LINKS)) {
                    Files.move(staging, aside);
                    doomed.add(aside);
                }
                Files.createFile(staging);
                return;
            } catch (FileAlreadyExistsException remade) {
                // the writing thread made it again between the two steps: once more
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Staging folders of reports killed before they finished (this one's is gone by now). */
    private static void removeLeftStaging(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p -> ReportFolder.isStaging(p)
                    && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                deleteTree(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // a leftover that cannot be removed stays; the next report ignores it too
        }
    }

    private static void deleteTree(Path root) {
        deleteTree(root, new IOException());
    }

    /** Deletes {@code root} and everything below it, never following a link (a link is deleted, not entered). */
    private static void deleteTree(Path root, IOException failure) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> s = Files.walk(root)) {
            all = s.sorted(Comparator.reverseOrder()).toList(); // what a folder holds before the folder
        } catch (IOException | UncheckedIOException e) {
            failure.addSuppressed(e instanceof UncheckedIOException u ? u.getCause() : (IOException) e);
            return;
        }
        for (Path p : all) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Removes {@code created} (a folder made for this output, or null) and what is below it, if only folders. */
    private static void removeCreated(Path created, IOException failure) {
        if (created == null || !Files.isDirectory(created, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(created)) {
            if (s.anyMatch(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))) {
                return; // something else was put there meanwhile: it stays
            }
        } catch (IOException | UncheckedIOException e) {
            return;
        }
        deleteTree(created, failure);
    }
}
