package io.p2pbench.cli;

import io.p2pbench.files.FileProblem;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks an output folder before any work is done: it is a folder (or can be made one) and a file
 * can be written in it. A problem is one line naming the option, the path and why.
 */
final class OutputFolder {
    private OutputFolder() {}

    /** Makes {@code dir} if needed and proves it writable; else a {@link UserInputException}. */
    static void requireWritable(String option, Path dir) {
        requireWritable(option, dir, true);
    }

    /**
     * Proves that {@code dir} can be written without making it: a file can be made in it, or, where it does
     * not exist yet, in the nearest folder above it that does (where it would be made); else a {@link
     * UserInputException}. For outputs written whole or not at all (report, compare, whatif): one that fails
     * or is interrupted later leaves no empty folder behind.
     */
    static void requireCanWrite(String option, Path dir) {
        requireWritable(option, dir, false);
    }

    private static void requireWritable(String option, Path dir, boolean make) {
        if (dir.toString().isBlank()) {
            // Path.of("") is the working directory: an empty value is a mistake, never a request to write here.
            throw new UserInputException(option + " '" + dir + "' is empty; name a folder to write into, e.g. "
                    + option + " out (use " + option + " . for the working directory)");
        }
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.exists(abs) && !Files.isDirectory(abs)) {
            throw new UserInputException(option + " " + dir + " is a file, not a folder; name a folder to write into");
        }
        for (Path p = abs.getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new UserInputException(option + " " + dir + " cannot be a folder: " + p
                            + " is a file, not a folder");
                }
                break;
            }
        }
        Path existing = abs;
        while (!make && existing.getParent() != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            if (make) {
                Files.createDirectories(abs);
            }
            Path probe = Files.createTempFile(existing, ".p2pbench-write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException e) {
            // Java names the probe file it could not make (/proc/.p2pbench-write-check123.tmp): its folder is the news.
            Path where = e instanceof FileSystemException f && f.getFile() != null ? Path.of(f.getFile()) : existing;
            if (where.getFileName() != null && where.getFileName().toString().startsWith(".p2pbench-write-check")) {
                where = where.getParent();
            }
            throw new UserInputException(option + " " + dir + " is not writable: " + FileProblem.why(e) + " (" + where
                    + ")");
        }
    }
}
