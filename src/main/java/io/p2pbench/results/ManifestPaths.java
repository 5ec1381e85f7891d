package io.p2pbench.results;

import io.p2pbench.files.OneLine;
import io.p2pbench.topology.Fingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * A result folder from someone else is untrusted input: the file names its manifest holds must not
 * reach outside the folder, or {@code migrate} would delete or replace, and {@code report} write, files
 * elsewhere. Every field that names a file ({@code jmhFile}, {@code samplesFile}, {@code logFile}, also in an
 * entry's {@code rounds}) must
 * be a relative path that stays inside the folder, also through symbolic links; every field that
 * becomes part of a file name ({@code fingerprint}, a combination's {@code id}) must be a plain name
 * ({@link Fingerprint#plainNameProblem}). {@link ResultFolder#readManifest()} checks them all as it
 * reads, so every command that reads a manifest refuses such a folder before it touches anything.
 */
public final class ManifestPaths {
    private ManifestPaths() {}

    /**
     * Checks every entry and every name in {@code m}, read from {@code manifestFile} in {@code dir};
     * an {@link IOException} of one line naming the field and its value otherwise.
     */
    static void check(Path dir, Path manifestFile, RunManifest m) throws IOException {
        if (m.fingerprint() != null) {
            requirePlainName(manifestFile, "fingerprint", m.fingerprint());
        }
        List<RunManifest.Entry> entries = m.entries() == null ? List.of() : m.entries();
        Path real = dir.toRealPath();
        for (int i = 0; i < entries.size(); i++) {
            RunManifest.Entry e = entries.get(i);
            String at = "entries[" + i + "]";
            if (e == null) {
                throw new IOException(manifestFile + ": " + at + " is null; every entry is an object with a "
                        + "combination and a status");
            }
            if (e.combination() != null && e.combination().id() != null) {
                requirePlainName(manifestFile, at + ".combination.id", e.combination().id());
            }
            inside(dir, real, manifestFile, at + ".jmhFile", e.jmhFile());
            inside(dir, real, manifestFile, at + ".samplesFile", e.samplesFile());
            inside(dir, real, manifestFile, at + ".logFile", e.logFile());
            List<RunManifest.RoundResult> rounds = e.rounds() == null ? List.of() : e.rounds();
            for (int r = 0; r < rounds.size(); r++) {
                RunManifest.RoundResult round = rounds.get(r);
                String in = at + ".rounds[" + r + "]";
                if (round == null) {
                    throw new IOException(manifestFile + ": " + in + " is null; every round is an object with a status");
                }
                inside(dir, real, manifestFile, in + ".jmhFile", round.jmhFile());
                inside(dir, real, manifestFile, in + ".samplesFile", round.samplesFile());
                inside(dir, real, manifestFile, in + ".logFile", round.logFile());
            }
        }
    }

    /** The files of a result folder with names of their own, not named by its manifest. */
    static final List<String> OWN_FILES = List.of("manifest.json", "topology.json", "phases.json", "jmh-results.json");

    /**
     * Refuses a result folder whose own files ({@link #OWN_FILES}) are symbolic links that lead out of it or
     * nowhere, as a manifest-named file is refused: read through such a link, {@code topology.json} would
     * bring in a file from elsewhere, and {@code migrate} would rewrite what it reads there. A link that stays
     * inside the folder is fine; the folder itself may be reached through a link the user names.
     */
    static void checkOwnFiles(Path dir) throws IOException {
        Path real = dir.toRealPath();
        for (String name : OWN_FILES) {
            Path at = real.resolve(name);
            if (!Files.isSymbolicLink(at)) {
                continue;
            }
            String refused = dir.resolve(name) + " is a symbolic link ";
            String accepted = "; a result folder's own files are inside it: put the file itself there";
            Path target;
            try {
                target = at.toRealPath();
            } catch (IOException dangling) {
                throw new IOException(refused + "that leads nowhere (to " + Files.readSymbolicLink(at) + ")" + accepted);
            }
            if (!target.startsWith(real)) {
                throw new IOException(refused + "out of the result folder (to " + target + ")" + accepted);
            }
        }
    }

    /** A plain name (see {@link Fingerprint#plainNameProblem}); else a one-line {@link IOException}. */
    static void requirePlainName(Path manifestFile, String field, String value) throws IOException {
        String problem = Fingerprint.plainNameProblem(value);
        if (problem != null) {
            throw new IOException(manifestFile + ": " + field + " " + quote(value) + " " + problem);
        }
    }

    /**
     * {@code relative} resolved in {@code dir} when it names a place inside it: not absolute, no
     * {@code ..}, and no symbolic link on the way that leads outside the folder or nowhere. Null stays
     * null. The check follows the links that exist now; what does not exist yet is created inside.
     */
    public static Path inside(Path dir, Path manifestFile, String field, String relative) throws IOException {
        return relative == null ? null : inside(dir, dir.toRealPath(), manifestFile, field, relative);
    }

    private static Path inside(Path dir, Path real, Path manifestFile, String field, String relative)
            throws IOException {
        if (relative == null) {
            return null;
        }
        String refused = manifestFile + ": " + field + " " + quote(relative) + " ";
        String accepted = "; a manifest names files inside its result folder, e.g. jmh/001-ID.json.gz";
        Path rel;
        try {
            rel = dir.getFileSystem().getPath(relative);
        } catch (InvalidPathException e) {
            throw new IOException(refused + "is not a file name" + accepted);
        }
        if (relative.isBlank() || rel.isAbsolute() || rel.getRoot() != null) {
            throw new IOException(refused + (relative.isBlank() ? "is empty" : "is an absolute path") + accepted);
        }
        for (Path part : rel) {
            if (part.toString().equals("..")) {
                throw new IOException(refused + "leads out of the folder with '..'" + accepted);
            }
        }
        rel = rel.normalize();
        if (rel.toString().isEmpty()) {
            throw new IOException(refused + "names the folder itself, not a file" + accepted);
        }
        Path at = real;
        for (Path part : rel) {
            at = at.resolve(part.toString());
            if (Files.isSymbolicLink(at)) {
                Path target;
                try {
                    target = at.toRealPath();
                } catch (IOException dangling) {
                    throw new IOException(refused + "goes through the symbolic link " + at
                            + ", which leads nowhere" + accepted);
                }
                if (!target.startsWith(real)) {
                    throw new IOException(refused + "leads outside the folder through the symbolic link " + at
                            + " (to " + target + ")" + accepted);
                }
                at = target;
            } else if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                break;
            }
        }
        return dir.resolve(rel);
    }

    /** A value quoted for a one-line message: control characters shown as {@code ?}, at most 200 characters. */
    static String quote(String value) {
        return "'" + OneLine.shown(value, 200) + "'";
    }
}
