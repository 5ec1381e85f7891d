package io.p2pbench.results;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

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

    /**
     * Writes {@code bytes} to {@code target} atomically, creating parent folders. The temporary name is
     * unique ({@link Files#createTempFile}), so writers of one file at once never share one, and it is
     * removed whatever happens. A failure (a full disk) is a {@link CannotWrite} naming the file.
     */
    public static void write(Path target, byte[] bytes) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = createTemp(dir, abs.getFileName().toString());
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE)) {
                out.write(bytes);
            }
            move(tmp, abs);
        } catch (FileSystemException e) {
            throw new CannotWrite(abs, e.getReason() != null ? e.getReason() : e.getClass().getSimpleName(), e);
        } catch (IOException e) {
            throw new CannotWrite(abs, e.getMessage(), e);
        } finally {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** A file that could not be written; the message names it and why, e.g. {@code No space left on device}. */
    public static final class CannotWrite extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient Path file;
        private final String reason;

        CannotWrite(Path file, String reason, IOException cause) {
            super("cannot write " + file + ": " + reason, cause);
            this.file = file;
            this.reason = reason;
        }

        /** The file. */
        public Path file() {
            return file;
        }

        /** Why, as the system says it ({@code No space left on device}). */
        public String reason() {
            return reason;
        }
    }

    /** A {@code .gz} file that is not whole gzip data; the message names the file. */
    public static final class BadGzip extends ZipException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        BadGzip(Path file, String reason) {
            super(file + " " + reason);
            this.reason = reason;
        }

        /** What is wrong, without the file: {@code is cut short (...)} or {@code is not gzip data ...}. */
        public String reason() {
            return reason;
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

    /**
     * The most bytes {@link #read} returns of one file, after decompression: the largest file a run
     * writes (a benchmark's per-batch samples) is under 1 MiB, so 64 MiB is room for far longer runs and
     * still bounds what a crafted file costs (3 MB of gzip can expand to 3 GB).
     */
    public static final long MAX_READ_BYTES = 64L << 20;

    /**
     * The content of {@code file}, decompressed when its name ends in {@code .gz}; a {@link BadGzip}
     * naming the file when that is cut short or not gzip at all, a {@link Refused} naming it when it
     * holds (or expands to) more than {@link #MAX_READ_BYTES} or is not a regular file (a FIFO would
     * block the reader for ever).
     */
    public static byte[] read(Path file) throws IOException {
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new Refused(file + " is not a regular file (a folder, FIFO, device or socket); a result folder "
                    + "holds plain files");
        }
        boolean gz = file.getFileName().toString().endsWith(".gz");
        try (InputStream in = gz ? new GZIPInputStream(Files.newInputStream(file)) : Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) MAX_READ_BYTES + 1);
            if (bytes.length > MAX_READ_BYTES) {
                throw new Refused(file + (gz ? " expands to more than " : " holds more than ")
                        + (MAX_READ_BYTES >> 20) + " MiB" + (gz ? " when gunzipped" : "") + "; the files of a p2pbench "
                        + "result are at most a few MiB, so this one is damaged or not a p2pbench file"
                        + (gz ? " (a gzip bomb?)" : ""));
            }
            return bytes;
        } catch (EOFException e) {
            throw new BadGzip(file, "is cut short (a truncated gzip file: " + e.getMessage() + ")");
        } catch (ZipException e) {
            throw new BadGzip(file, "Not in GZIP format".equals(e.getMessage())
                    ? "is not gzip data, though its name ends in .gz" : "is not whole gzip data (" + e.getMessage() + ")");
        }
    }

    /**
     * A file {@link #read} does not read: larger than {@link #MAX_READ_BYTES} (gunzipped), or not a regular
     * file. The message is one line that names the file and says why.
     */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
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
