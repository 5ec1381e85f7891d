package io.p2pbench.report.chart;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names of output files built from input text (machine fingerprints, host names, pair and model names):
 * bounded in length, so no input makes a name the file system refuses ({@code File name too long} at 255
 * bytes), and unique within one output, so two inputs that map to one name never overwrite each other's
 * file. A report writes into a fresh folder ({@code StagedOutput}), so a name already taken there is a file
 * this output wrote.
 */
public final class FileNames {
    /**
     * The longest part of a name made from input text ({@link Charts#stem}) kept as it is; a longer one keeps
     * its start and ends in a hash of the whole. The fixed words around it (a machine prefix, {@code compare-},
     * {@code .svg}) keep a whole name far below the file system's 255 bytes.
     */
    public static final int MAX_STEM = 64;
    /** The longest whole file name {@link #fresh} makes, whatever the caller gives it. */
    static final int MAX_NAME = 200;
    private static final int HASH_CHARS = 8;

    private FileNames() {}

    /**
     * {@code name} when it has at most {@value #MAX_STEM} characters; else its first characters, {@code -}
     * and 8 hex characters of the SHA-256 of the whole name, {@value #MAX_STEM} characters in all (two long
     * names that share their start stay apart).
     */
    public static String bounded(String name) {
        return bounded(name, MAX_STEM);
    }

    private static String bounded(String name, int max) {
        if (name.length() <= max) {
            return name;
        }
        String hash = HexFormat.of().formatHex(sha256(name)).substring(0, HASH_CHARS);
        return name.substring(0, max - HASH_CHARS - 1) + "-" + hash;
    }

    /**
     * A new file {@code STEM.EXT} in {@code dir} ({@code extension} with its dot): {@code stem} bounded to
     * {@value #MAX_NAME} characters, and
     * {@code -2}, {@code -3}, ... appended while that name is taken in {@code dir}. A stem that does not start
     * with a letter or digit (an empty one) gets {@code x} in front, as file names of a report must start.
     */
    public static Path fresh(Path dir, String stem, String extension) {
        String base = bounded(stem.isEmpty() || !Character.isLetterOrDigit(stem.charAt(0)) ? "x" + stem : stem,
                MAX_NAME);
        Path file = dir.resolve(base + extension);
        for (int i = 2; Files.exists(file, LinkOption.NOFOLLOW_LINKS); i++) {
            file = dir.resolve(base + "-" + i + extension);
        }
        return file;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
