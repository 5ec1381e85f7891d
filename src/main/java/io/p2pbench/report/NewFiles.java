package io.p2pbench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What an output folder held before a report was written into it, so that a report that fails half
 * way (a full disk) removes what it had added instead of leaving charts without the summary that
 * names them. Files it replaced stay replaced (each one whole: every file is written atomically).
 */
final class NewFiles {
    private final Path dir;
    private final boolean existed;
    private final Set<Path> before = new HashSet<>();

    private NewFiles(Path dir) throws IOException {
        this.dir = dir;
        this.existed = Files.exists(dir);
        if (existed && Files.isDirectory(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                all.forEach(before::add);
            }
        }
    }

    /** The files and folders below {@code dir} now. */
    static NewFiles under(Path dir) throws IOException {
        return new NewFiles(dir);
    }

    /** Removes every file and folder below {@code dir} that was not there before; failures go to {@code cause}. */
    void removeAfter(Exception cause) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> added;
        try (Stream<Path> all = Files.walk(dir)) {
            added = all.filter(p -> !before.contains(p) && !(p.equals(dir) && existed))
                    .sorted(Comparator.reverseOrder()).toList(); // files before the folders that hold them
        } catch (IOException | UncheckedIOException e) {
            cause.addSuppressed(e);
            return;
        }
        for (Path p : added) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
        }
    }
}
