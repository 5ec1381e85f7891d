package io.p2pbench.results;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A machine-wide lock file that every user can lock: the measuring run's ({@code /tmp/p2pbench.lock})
 * and {@code migrate}'s. The machine is shared, so one user's run must keep another user's run from
 * measuring beside it: the file is created writable by every user ({@code rw-rw-rw-}, whatever the
 * umask) and locked with an OS file lock, which dies with its process. An existing file is opened
 * without creating it (Linux refuses {@code O_CREAT} on another user's file in {@code /tmp} where
 * {@code fs.protected_regular} is set) and never through a symbolic link (another user could point
 * one at your files). What cannot be used is one line naming the file and what to do
 * ({@link Unusable}).
 */
public final class LockFile {
    private LockFile() {}

    /** A lock file that cannot be used: a folder, a link, under a file, or not writable by this user. */
    public static final class Unusable extends IOException {
        private static final long serialVersionUID = 1L;

        public Unusable(String message) {
            super(message);
        }
    }

    /** Opens {@code file} for reading, writing and locking, creating it (and its folders) writable by all. */
    public static FileChannel open(Path file) throws Unusable {
        Path abs = file.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        for (Path p = parent; p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new Unusable("the lock file " + abs + " cannot be created: " + p + " is a file, not a folder");
                }
                break;
            }
        }
        for (int attempt = 0; ; attempt++) {
            if (Files.isSymbolicLink(abs)) {
                String to;
                try {
                    to = Files.readSymbolicLink(abs).toString();
                } catch (IOException e) {
                    to = "?";
                }
                throw new Unusable("the lock file " + abs + " is a symbolic link (to " + to + "), which p2pbench does not "
                        + "follow; remove it (rm " + abs + ")");
            }
            if (Files.isDirectory(abs, LinkOption.NOFOLLOW_LINKS)) {
                throw new Unusable("the lock file " + abs + " is a folder, not a file; remove it (rmdir " + abs + ")");
            }
            try {
                return FileChannel.open(abs, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException absent) {
                FileChannel created = create(abs, parent);
                if (created != null) {
                    return created;
                }
                if (attempt >= 3) {
                    throw new Unusable("the lock file " + abs + " keeps appearing and vanishing; try again");
                }
            } catch (AccessDeniedException e) {
                throw new Unusable("the lock file " + abs + " " + ownerAndMode(abs) + " and is not writable by you, so "
                        + "p2pbench cannot lock it; ask its owner or root to remove it (rm " + abs + "); p2pbench creates "
                        + "it writable by every user (rw-rw-rw-), so that runs of different users exclude each other");
            } catch (FileSystemException e) {
                throw new Unusable("the lock file " + abs + " cannot be opened for writing: " + reason(e));
            } catch (IOException e) {
                throw new Unusable("the lock file " + abs + " cannot be opened: " + e.getMessage());
            }
        }
    }

    /** Locks {@code channel} if no other process (or other channel of this JVM) holds it; else null. */
    public static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException sameJvm) {
            return null;
        }
    }

    /** Creates the file writable by all; null when another process created it first. */
    private static FileChannel create(Path abs, Path parent) throws Unusable {
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
            FileChannel ch = FileChannel.open(abs, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            try {
                Files.setPosixFilePermissions(abs, PosixFilePermissions.fromString("rw-rw-rw-"));
            } catch (UnsupportedOperationException noPosix) {
                // a file system without POSIX modes has no other users' permissions to open up
            } catch (IOException e) {
                ch.close();
                throw e;
            }
            return ch;
        } catch (FileAlreadyExistsException raced) {
            return null;
        } catch (FileSystemException e) {
            throw new Unusable("the lock file " + abs + " cannot be created: " + reason(e));
        } catch (IOException e) {
            throw new Unusable("the lock file " + abs + " cannot be created: " + e.getMessage());
        }
    }

    /** "belongs to user alice (mode rw-r--r--)", as far as it can be read. */
    public static String ownerAndMode(Path file) {
        try {
            return "belongs to user " + Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName() + " (mode "
                    + PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)) + ")";
        } catch (IOException | UnsupportedOperationException e) {
            return "belongs to another user";
        }
    }

    private static String reason(FileSystemException e) {
        return e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
    }
}
