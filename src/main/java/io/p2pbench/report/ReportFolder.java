package io.p2pbench.report;

import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The output folder of {@code p2pbench report} (and of {@code compare}): the report owns the files it
 * writes there and lists them in {@value #INDEX}; the next report into the folder writes its own files
 * and removes the files of the previous one it did not write again, so no stale chart or export is left
 * beside a new summary. Nothing else is ever removed: a file the index does not list stays, and a folder
 * that holds anything but an earlier report (no index) is refused before anything is written, one line
 * naming what is there. A subfolder with an index of its own (a compare output inside a report folder)
 * counts as p2pbench's.
 *
 * <p>The index is read as untrusted input: every line must be a file name a report writes ({@code
 * summary.md}, {@code jmh/NAME.json}), never a path out of the folder.
 */
public final class ReportFolder {
    /** The index of the files the last report wrote into the folder. */
    public static final String INDEX = ".p2pbench-report";
    /** What a report writes: a plain name, or a plain name inside {@code jmh/}. */
    private static final Pattern OWNED = Pattern.compile("(jmh/)?[A-Za-z0-9][A-Za-z0-9._+-]*");

    private final Path dir;
    private final Set<String> previous;

    private ReportFolder(Path dir, Set<String> previous) {
        this.dir = dir;
        this.previous = previous;
    }

    /**
     * Claims {@code dir} for a report: a new or empty folder, or one an earlier report wrote; else a
     * {@link BadInputException} naming the folder and what is in it. Creates nothing.
     */
    static ReportFolder claim(Path dir) throws IOException {
        Path index = dir.resolve(INDEX);
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new BadInputException(dir + " is a file, not a folder; name a folder for the report");
            }
            return new ReportFolder(dir, Set.of());
        }
        if (Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS)) {
            return new ReportFolder(dir, readIndex(index));
        }
        List<String> foreign = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> !(Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                            && Files.isRegularFile(p.resolve(INDEX), LinkOption.NOFOLLOW_LINKS)))
                    .map(p -> p.getFileName().toString()).sorted().forEach(foreign::add);
        }
        if (!foreign.isEmpty()) {
            throw new BadInputException(dir + " is not empty and no p2pbench report was written there (it holds "
                    + String.join(", ", foreign.subList(0, Math.min(3, foreign.size())))
                    + (foreign.size() > 3 ? " and " + (foreign.size() - 3) + " more" : "")
                    + "); name a new or empty folder, or one an earlier report wrote (it has " + INDEX + ")");
        }
        return new ReportFolder(dir, Set.of());
    }

    /** The folder. */
    Path dir() {
        return dir;
    }

    /**
     * Records {@code written} (files this report wrote, inside the folder) as the report's and removes the
     * files of the previous report that were not written again, then folders they leave empty.
     */
    void finish(Collection<Path> written) throws IOException {
        Set<String> names = new TreeSet<>();
        Path root = dir.toAbsolutePath().normalize();
        for (Path p : written) {
            String name = root.relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
            if (!OWNED.matcher(name).matches()) {
                throw new IllegalStateException("the report wrote " + p + ", outside the names it owns in " + dir);
            }
            names.add(name);
        }
        for (String old : previous) {
            if (!names.contains(old)) {
                Path p = dir.resolve(old);
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) {
                    Files.delete(p);
                }
                Path parent = p.getParent();
                if (!parent.equals(dir) && Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
                    try (Stream<Path> s = Files.list(parent)) {
                        if (s.findAny().isEmpty()) {
                            Files.delete(parent);
                        }
                    }
                }
            }
        }
        AtomicFiles.write(dir.resolve(INDEX), "# Files the last p2pbench report wrote here; the next report into "
                + "this folder replaces them and removes those it does not write again. Other files are left alone.\n"
                + String.join("\n", names) + "\n");
    }

    private static Set<String> readIndex(Path index) throws IOException {
        Set<String> names = new TreeSet<>();
        List<String> lines = Files.readAllLines(index);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!OWNED.matcher(line).matches()) {
                throw new BadInputException(index + " line " + (i + 1) + " names '" + line + "', not a file a report "
                        + "writes (a plain name, or jmh/ and a plain name); nothing was written. Remove that line, or "
                        + "name another folder");
            }
            names.add(line);
        }
        return names;
    }
}
