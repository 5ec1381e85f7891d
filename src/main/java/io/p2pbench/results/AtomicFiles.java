package io.p2pbench.results;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Writes files so that a reader (or an interrupted run) never sees half of one: the bytes go to a
 * temporary file in the same folder, which is then renamed over the target. The temporary file is made
 * with the default permissions ({@code 0666} less the process umask, as any other tool's files), not the
 * owner-only {@code 0600} of {@link Files#createTempFile}, so the target gets them too.
 */
public final class AtomicFiles {
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {}

    /** Writes {@code text} (UTF-8) to {@code target} atomically, creating parent folders. */
    public static void write(Path target, String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to {@code target} atomically, creating parent folders. */
    public static void write(Path target, byte[] bytes) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Files.createDirectories(dir);
        Path tmp = createTemp(dir, abs.getFileName().toString());
        try {
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE)) {
                out.write(bytes);
            }
            move(tmp, abs);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new empty file {@code .NAME.RANDOM.tmp} in {@code dir}, made with the default permissions. */
    private static Path createTemp(Path dir, String name) throws IOException {
        while (true) {
            Path tmp = dir.resolve("." + name + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
            try {
                Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
                return tmp;
            } catch (FileAlreadyExistsException e) {
                // Another writer's temporary file: draw another name.
            }
        }
    }

    /**
     * Writes {@code bytes} gzip-compressed (best compression, header without a time stamp, so the
     * same bytes always give the same file) to {@code target} atomically; {@code gunzip} gives them back.
     */
    public static void writeGzip(Path target, byte[] bytes) throws IOException {
        write(target, gzip(bytes));
    }

    /** The gzip form of {@code bytes}, as {@link #writeGzip} writes it. */
    public static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(out) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    /** The content of {@code file}, decompressed when its name ends in {@code .gz}. */
    public static byte[] read(Path file) throws IOException {
        if (!file.getFileName().toString().endsWith(".gz")) {
            return Files.readAllBytes(file);
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }

    /** Moves {@code from} onto {@code to} atomically where the file system allows it. */
    public static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
