package io.p2pbench.report;

import io.p2pbench.report.read.BadInputException;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The output folder of {@code p2pbench report} (and of {@code compare} and {@code whatif}): the report owns
 * the files it writes there and lists them in {@value #INDEX}; the next report into the folder writes its own
 * files and removes the files of the previous one it did not write again, so no stale chart or export is left
 * beside a new summary. Nothing else is ever removed: a file the index does not list stays, and a folder
 * that holds anything but an earlier report (no index) is refused before anything is written, one line
 * naming what is there. A subfolder with an index of its own (a compare output inside a report folder)
 * counts as p2pbench's.
 *
 * <p>The folder is untrusted input, as a result folder is: the index must name only files a report writes
 * ({@code summary.md}, {@code jmh/NAME.json}), never a path out of the folder, and a symbolic link anywhere
 * inside the folder, at any depth, is refused before anything is written: a report writes and deletes only
 * inside its folder, never through a link ({@code jmh -> ../../victim} would have it delete and write
 * there). The folder itself may be reached through a link the user names ({@code --out}: their choice).
 *
 * <p>The report is written whole into a staging folder first ({@link StagedOutput}) and moved in by
 * {@link #moveIn}, which never follows a link either.
 */
public final class ReportFolder {
    /** The index of the files the last report wrote into the folder. */
    public static final String INDEX = ".p2pbench-report";
    /** Name start of the staging folders a report writes into before it moves its files in. */
    static final String STAGING = ".p2pbench-staging-";
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
            if (Files.isSymbolicLink(dir)) {
                throw new BadInputException(dir + " is a symbolic link that leads nowhere (to "
                        + Files.readSymbolicLink(dir) + "); name a folder for the report");
            }
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new BadInputException(dir + " is a file, not a folder; name a folder for the report");
            }
            return new ReportFolder(dir, Set.of());
        }
        if (Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS)) {
            Set<String> previous = readIndex(index);
            refuseLinks(dir);
            return new ReportFolder(dir, previous);
        }
        List<String> foreign = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> !(Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                            && (Files.isRegularFile(p.resolve(INDEX), LinkOption.NOFOLLOW_LINKS) || isStaging(p))))
                    .map(p -> p.getFileName().toString()).sorted().forEach(foreign::add);
        }
        if (!foreign.isEmpty()) {
            throw new BadInputException(dir + " is not empty and no p2pbench report was written there (it holds "
                    + String.join(", ", foreign.subList(0, Math.min(3, foreign.size())))
                    + (foreign.size() > 3 ? " and " + (foreign.size() - 3) + " more" : "")
                    + "); name a new or empty folder, or one an earlier report wrote (it has " + INDEX + ")");
        }
        refuseLinks(dir); // after the cheap look at the top: a folder full of other things is refused without a walk
        return new ReportFolder(dir, Set.of());
    }

    /**
     * Refuses a folder reached through a symbolic link on the way from the working directory: {@code dir} is
     * a default the user did not name ({@code reports/<fingerprint>}), and a checkout can carry a link there.
     */
    static void requireNoLinkOnTheWay(Path dir) throws BadInputException {
        Path at = null;
        for (Path part : dir) {
            at = at == null ? part : at.resolve(part);
            if (Files.isSymbolicLink(at)) {
                throw new BadInputException(at + " is a symbolic link; the default report folder " + dir + " is never "
                        + "reached through a link (a checkout can carry one): remove it, or name the folder with --out");
            }
        }
    }

    /** The folder. */
    Path dir() {
        return dir;
    }

    /** Whether {@code p} is a staging folder of a report ({@link StagedOutput}); one left by a killed report stays. */
    static boolean isStaging(Path p) {
        return p.getFileName().toString().startsWith(STAGING);
    }

    /** The first symbolic link below {@code dir} (not following any), as a one-line refusal. */
    private static void refuseLinks(Path dir) throws IOException {
        Path real = dir.toRealPath();
        Optional<Path> link;
        try (Stream<Path> all = Files.walk(real)) {
            link = all.filter(Files::isSymbolicLink).findFirst();
        } catch (UncheckedIOException e) {
            throw new BadInputException("cannot read the report folder " + dir + ": " + e.getCause().getMessage());
        }
        if (link.isPresent()) {
            Path shown = dir.resolve(real.relativize(link.get()));
            throw new BadInputException(shown + " is a symbolic link (to " + Files.readSymbolicLink(link.get())
                    + "); a report writes and deletes only inside its folder, never through a link: remove it (rm "
                    + shown + "), or name another folder");
        }
    }

    /**
     * Moves the files {@code names} (relative, as {@link #names} gives them) from {@code staging} into the
     * folder, each by one rename over the old file of that name, then removes the files of the previous report
     * that were not written again, and folders they leave empty, and writes the index. No step follows a link:
     * a destination that is a link or a folder is refused before anything moves. The index lists the old
     * files and the new ones while they move, so a process killed half way leaves nothing unlisted.
     */
    void moveIn(Path staging, Set<String> names) throws IOException {
        for (String name : names) {
            Path to = dir.resolve(name);
            if (!to.getParent().equals(dir)) {
                requireFolderOrNothing(to.getParent());
            }
            if (Files.exists(to, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(to, LinkOption.NOFOLLOW_LINKS)) {
                throw new BadInputException(to + " is a folder or a link, not a file a report wrote; nothing was "
                        + "replaced. Remove it, or name another folder");
            }
        }
        Set<String> both = new TreeSet<>(previous);
        both.addAll(names);
        writeIndex(both);
        for (String name : names) {
            Path to = dir.resolve(name);
            if (!to.getParent().equals(dir) && !Files.exists(to.getParent(), LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(to.getParent()); // fails, never follows, if a link appeared meanwhile
            }
            AtomicFiles.move(staging.resolve(name), to);
        }
        for (String old : previous) {
            if (names.contains(old)) {
                continue;
            }
            Path p = dir.resolve(old);
            Path parent = p.getParent();
            if (!parent.equals(dir) && !Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
                continue; // no jmh/ folder (or not a real one): nothing of ours is in it
            }
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(p);
            }
            if (!parent.equals(dir)) {
                try (Stream<Path> s = Files.list(parent)) {
                    if (s.findAny().isEmpty()) {
                        Files.delete(parent);
                    }
                }
            }
        }
        writeIndex(names);
    }

    /** {@code written} (files inside {@code staging}) as names relative to it; every one a name a report owns. */
    static Set<String> names(Path staging, Collection<Path> written) {
        Set<String> names = new TreeSet<>();
        Path root = staging.toAbsolutePath().normalize();
        for (Path p : written) {
            String name = root.relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
            if (!OWNED.matcher(name).matches()) {
                throw new IllegalStateException("the report wrote " + p + ", outside the names it owns in " + staging);
            }
            names.add(name);
        }
        return names;
    }

    private void requireFolderOrNothing(Path sub) throws BadInputException {
        if (Files.exists(sub, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(sub, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInputException(sub + " is " + (Files.isSymbolicLink(sub) ? "a symbolic link" : "a file")
                    + ", not a folder; nothing was replaced. Remove it, or name another folder");
        }
    }

    private void writeIndex(Set<String> names) throws IOException {
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
