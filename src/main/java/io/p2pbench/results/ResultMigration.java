package io.p2pbench.results;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.files.FileProblem;
import io.p2pbench.settings.Settings;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Converts a result folder of format {@code p2pbench-results/1} to {@code p2pbench-results/2} in place
 * ({@code p2pbench migrate}, {@code docs/results-format.md}):
 * <ul>
 *   <li>{@code jmh/NNN-ID.json} becomes {@code jmh/NNN-ID.json.gz}, its bytes unchanged;</li>
 *   <li>{@code samples/ID.json} becomes {@code samples/ID.json.gz}, compact JSON of the same values;</li>
 *   <li>{@code jmh-results.json} is deleted once it is found to hold exactly the objects of the
 *       {@code jmh/} files (the report rebuilds it); {@code verified/} and {@code skips/} files are
 *       deleted once found equal to what the manifest records;</li>
 *   <li>logs of ok benchmarks are deleted, the others gzipped; a log that is not there is no longer named;</li>
 *   <li>the manifest, changed only in {@code format} and those file names, is written last.</li>
 * </ul>
 * Every new file is read back and compared with the old one before anything is deleted, and the
 * manifest is rewritten atomically, so an interrupted migration leaves a readable folder; running it
 * again finishes the job. A migration that fails (a full disk, a file that does not read back) removes
 * the files it wrote and leaves the folder as it was. A folder already in format 2 is left alone: only
 * plain leftovers whose exact content its gzipped files hold are removed, and its logs are not touched.
 * The manifest is read through {@link ResultFolder#readManifest()} first, so a folder whose manifest
 * names files outside itself is refused before anything is written or deleted ({@link ManifestPaths}).
 * One migration of a folder at a time: {@code p2pbench migrate} holds a machine-wide lock.
 */
public final class ResultMigration {
    private static final ObjectMapper MAPPER = ResultFolder.mapper();

    private ResultMigration() {}

    /**
     * What migrating one folder did.
     *
     * @param dir the result folder
     * @param from its format before
     * @param bytesBefore size of its files before
     * @param bytesAfter size after
     */
    public record Outcome(Path dir, String from, long bytesBefore, long bytesAfter) {
        /** Whether anything changed. */
        public boolean changed() {
            return !RunManifest.FORMAT.equals(from) || bytesBefore != bytesAfter;
        }
    }

    /** System property naming migrate's lock file (tests); default {@code <tmpdir>/p2pbench-migrate.lock}. */
    public static final String LOCK_FILE_PROPERTY = Settings.MIGRATE_LOCK_FILE;

    /** The machine-wide lock {@code p2pbench migrate} holds, so that two migrations never share a folder. */
    public static Path lockFile() {
        Path p = Settings.current().migrateLockFile();
        return p != null ? p : Path.of(System.getProperty("java.io.tmpdir"), "p2pbench-migrate.lock");
    }

    /** The result folders (folders holding a manifest.json) at or below {@code path}, sorted. */
    public static List<Path> find(Path path) throws IOException {
        if (!Files.exists(path)) {
            throw new IOException(path + " does not exist; give a result folder or a folder holding them, "
                    + "e.g. results/");
        }
        List<Path> found;
        try (Stream<Path> walk = Files.walk(path)) {
            found = walk.filter(p -> p.getFileName() != null && p.getFileName().toString().equals("manifest.json")
                    && Files.isRegularFile(p)).map(Path::getParent).sorted().toList();
        }
        if (found.isEmpty()) {
            throw new IOException(path + " holds no p2pbench result folder (no manifest.json at or below it)");
        }
        return found;
    }

    /** Migrates one result folder in place; see the class comment. */
    public static Outcome migrate(Path dir) throws IOException {
        Path manifestFile = dir.resolve("manifest.json");
        RunManifest checked = ResultFolder.open(dir).readManifest();
        String from = checked.format();
        ObjectNode manifest;
        try {
            manifest = (ObjectNode) MAPPER.readTree(manifestFile.toFile());
        } catch (JacksonException | ClassCastException e) {
            throw new IOException(manifestFile + " is not a readable p2pbench manifest");
        }
        long before = size(dir);
        Written written = new Written();
        List<Path> obsolete;
        try {
            obsolete = RunManifest.FORMAT.equals(from) ? leftovers(dir, manifestFile, manifest)
                    : convert(dir, manifestFile, manifest, checked.entries(), written);
            compactJson(dir.resolve(PHASES));
            if (!RunManifest.FORMAT.equals(from)) {
                manifest.put("format", RunManifest.FORMAT);
                AtomicFiles.write(manifestFile, MAPPER.writeValueAsString(manifest) + "\n");
            }
        } catch (IOException | RuntimeException e) {
            written.remove(e);
            throw e;
        }
        for (Path p : obsolete) {
            Files.deleteIfExists(p);
        }
        for (String sub : List.of("verified", "skips", "logs")) {
            deleteIfEmpty(dir.resolve(sub));
        }
        return new Outcome(dir, from, before, size(dir));
    }

    /**
     * Format 1 to 2: writes the gzipped files and returns the old ones, to delete once the manifest is written.
     * {@code entries} are the manifest's entries as read (and checked), in the order of its tree's.
     */
    private static List<Path> convert(Path dir, Path manifestFile, ObjectNode manifest, List<RunManifest.Entry> entries,
                                      Written written) throws IOException {
        List<Path> obsolete = new ArrayList<>();
        List<byte[]> jmhOfOkEntries = new ArrayList<>();
        int i = 0;
        for (JsonNode node : manifest.path("entries")) {
            ObjectNode e = (ObjectNode) node;
            boolean ok = entries.get(i).outcome() == io.p2pbench.results.Outcome.OK; // this class's Outcome is another
            String at = "entries[" + i++ + "]";
            String jmh = text(e, "jmhFile");
            if (jmh != null) {
                String gz = gzipName(jmh);
                Path plain = ManifestPaths.inside(dir, manifestFile, at + ".jmhFile", plainName(jmh));
                Path packed = ManifestPaths.inside(dir, manifestFile, at + ".jmhFile", gz);
                migrateJmh(dir, plain, packed, written);
                e.put("jmhFile", gz);
                obsolete.add(plain);
                if (ok) {
                    // Checked as JSON where the user has it: the plain file, while it is there (same bytes).
                    jmhOfOkEntries.add(ResultFolder.readJmhFile(Files.isRegularFile(plain) ? plain : packed));
                }
            }
            String samples = text(e, "samplesFile");
            if (samples != null) {
                Path plain = ManifestPaths.inside(dir, manifestFile, at + ".samplesFile", plainName(samples));
                Path packed = ManifestPaths.inside(dir, manifestFile, at + ".samplesFile", gzipName(samples));
                migrateSamples(dir, plain, packed, written);
                e.put("samplesFile", gzipName(samples));
                obsolete.add(plain);
            }
            migrateLog(dir, manifestFile, at, e, ok, obsolete, written);
            checkRecords(dir, manifestFile, at, e, obsolete);
        }
        Path merged = dir.resolve("jmh-results.json");
        if (Files.isRegularFile(merged)) {
            JsonNode rebuilt = MAPPER.readTree(jmhOfOkEntries.isEmpty() ? "[]\n".getBytes()
                    : ResultFolder.mergeJmh(jmhOfOkEntries));
            if (!rebuilt.equals(readJson(merged))) {
                throw new IOException(merged + " holds JMH results that the ok entries' jmh/ files do not; "
                        + "nothing deleted");
            }
            obsolete.add(merged);
        }
        return obsolete;
    }

    /**
     * Format 2: the plain twins of its gzipped {@code jmh/} and {@code samples/} files that hold the same
     * content (left by a migration that stopped before deleting them), and fork records the manifest
     * holds. Nothing else: a log an entry names is the run's, whatever its status.
     */
    private static List<Path> leftovers(Path dir, Path manifestFile, ObjectNode manifest) throws IOException {
        List<Path> obsolete = new ArrayList<>();
        int i = 0;
        for (JsonNode node : manifest.path("entries")) {
            ObjectNode e = (ObjectNode) node;
            String at = "entries[" + i++ + "]";
            for (String field : List.of("jmhFile", "samplesFile")) {
                String name = text(e, field);
                if (name == null || !name.endsWith(".gz")) {
                    continue;
                }
                Path packed = ManifestPaths.inside(dir, manifestFile, at + "." + field, name);
                Path plain = ManifestPaths.inside(dir, manifestFile, at + "." + field, plainName(name));
                if (Files.isRegularFile(plain, LinkOption.NOFOLLOW_LINKS) && Files.isRegularFile(packed)
                        && sameContent(field, plain, packed)) {
                    obsolete.add(plain);
                }
            }
            checkRecords(dir, manifestFile, at, e, obsolete);
        }
        Path merged = dir.resolve("jmh-results.json");
        if (Files.isRegularFile(merged, LinkOption.NOFOLLOW_LINKS)) {
            Optional<byte[]> rebuilt = ResultFolder.open(dir).jmhResultsJson();
            if (rebuilt.isPresent() && MAPPER.readTree(rebuilt.get()).equals(readJson(merged))) {
                obsolete.add(merged);
            }
        }
        return obsolete;
    }

    /** Whether a plain leftover holds what its gzipped twin holds: JMH's bytes, or the same sample values. */
    private static boolean sameContent(String field, Path plain, Path packed) throws IOException {
        try {
            return field.equals("jmhFile") ? Arrays.equals(Files.readAllBytes(plain), AtomicFiles.read(packed))
                    : BenchmarkRecords.readSamples(plain).equals(BenchmarkRecords.readSamples(packed));
        } catch (JacksonException | AtomicFiles.BadGzip e) {
            return false; // damaged: not a duplicate, so it stays
        }
    }

    /** Parses a JSON file; a one-line message naming it when it is not JSON. */
    private static JsonNode readJson(Path file) throws IOException {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (JacksonException e) {
            throw new IOException(file + " is not readable JSON: " + FileProblem.of(e) + "; nothing deleted");
        }
    }

    /**
     * The files a migration wrote where none was before: removed again when it fails, so a failed
     * migration (a full disk) leaves the folder as it found it.
     */
    private static final class Written {
        private final List<Path> created = new ArrayList<>();

        /** Writes {@code bytes} gzipped to {@code target}, noting it when it is new. */
        void gzip(Path target, byte[] bytes) throws IOException {
            boolean existed = Files.exists(target, LinkOption.NOFOLLOW_LINKS);
            AtomicFiles.writeGzip(target, bytes);
            if (!existed) {
                created.add(target);
            }
        }

        /** Removes every file noted; a file that cannot be removed is added to {@code failure}. */
        void remove(Exception failure) {
            for (Path p : created) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    failure.addSuppressed(e);
                }
            }
        }
    }

    /** Where a run records where each benchmark's seconds went (written by the executor). */
    public static final String PHASES = "phases.json";

    /** Rewrites a pretty-printed JSON file (phases.json as older runs wrote it) without whitespace; same values. */
    private static void compactJson(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return;
        }
        JsonNode tree = MAPPER.readTree(file.toFile());
        String compact = MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(tree) + "\n";
        if (!compact.equals(Files.readString(file))) {
            if (!MAPPER.readTree(compact).equals(tree)) {
                throw new IOException(file + " did not survive compaction unchanged; left as it was");
            }
            AtomicFiles.write(file, compact);
        }
    }

    /**
     * Whether {@code src} was already converted (only its .gz {@code dst} is there); throws when neither
     * is, since the manifest names a file the folder lacks.
     */
    private static boolean alreadyDone(Path dir, Path src, Path dst) throws IOException {
        if (Files.isRegularFile(src)) {
            return false;
        }
        if (Files.isRegularFile(dst)) {
            return true;
        }
        throw new IOException(dir.resolve("manifest.json") + " names " + dir.relativize(src) + ", which is missing");
    }

    /** {@code jmh/NNN-ID.json} to {@code .json.gz}, byte for byte (already done when only the .gz is there). */
    private static void migrateJmh(Path dir, Path src, Path dst, Written written) throws IOException {
        if (alreadyDone(dir, src, dst)) {
            return;
        }
        byte[] bytes = Files.readAllBytes(src);
        written.gzip(dst, bytes);
        if (!Arrays.equals(bytes, AtomicFiles.read(dst))) {
            throw new IOException(dst + " does not read back as " + src);
        }
    }

    /** {@code samples/ID.json} to compact {@code .json.gz} holding the same values. */
    private static void migrateSamples(Path dir, Path src, Path dst, Written written) throws IOException {
        if (alreadyDone(dir, src, dst)) {
            return;
        }
        BatchSamples samples;
        try {
            samples = BenchmarkRecords.readSamples(src);
        } catch (JacksonException e) {
            throw new IOException(src + " is not readable samples JSON: " + FileProblem.of(e) + "; nothing deleted");
        }
        written.gzip(dst, BenchmarkRecords.samplesJson(samples));
        if (!samples.equals(BenchmarkRecords.readSamples(dst))) {
            throw new IOException(dst + " does not read back as " + src);
        }
    }

    /** An ok benchmark's log goes; another's is gzipped; a log that is not there is no longer named. */
    private static void migrateLog(Path dir, Path manifestFile, String at, ObjectNode e, boolean ok,
                                   List<Path> obsolete, Written written) throws IOException {
        String log = text(e, "logFile");
        if (log == null) {
            return;
        }
        String plain = plainName(log);
        Path src = ManifestPaths.inside(dir, manifestFile, at + ".logFile", plain);
        Path gz = ManifestPaths.inside(dir, manifestFile, at + ".logFile", plain + ".gz");
        if (ok) {
            obsolete.add(src);
            obsolete.add(gz);
            e.putNull("logFile");
        } else if (Files.isRegularFile(src)) {
            written.gzip(gz, Files.readAllBytes(src));
            obsolete.add(src);
            e.put("logFile", plain + ".gz");
        } else if (Files.isRegularFile(gz)) {
            e.put("logFile", plain + ".gz");
        } else {
            e.putNull("logFile");
        }
    }

    /** The entry's fork records ({@code verified/ID.txt}, {@code skips/ID.txt}) that the manifest holds. */
    private static void checkRecords(Path dir, Path manifestFile, String at, ObjectNode e, List<Path> obsolete)
            throws IOException {
        JsonNode id = e.path("combination").path("id");
        if (!id.isTextual()) {
            return;
        }
        String field = at + ".combination.id";
        checkRecord(ManifestPaths.inside(dir, manifestFile, field, "verified/" + id.asText() + ".txt"),
                e.path("bytesVerified").asText(null), obsolete);
        checkRecord(ManifestPaths.inside(dir, manifestFile, field, "skips/" + id.asText() + ".txt"),
                text(e, "reason"), obsolete);
    }

    /** A fork's record file whose content the manifest holds is obsolete; one that differs stops the migration. */
    private static void checkRecord(Path file, String inManifest, List<Path> obsolete) throws IOException {
        if (!Files.isRegularFile(file)) {
            return;
        }
        String content = Files.readString(file).strip();
        if (!content.equals(inManifest == null ? null : inManifest.strip())) {
            throw new IOException(file + " holds '" + content + "' but the manifest records '" + inManifest
                    + "'; nothing deleted");
        }
        obsolete.add(file);
    }

    private static String gzipName(String relative) {
        return relative.endsWith(".gz") ? relative : relative + ".gz";
    }

    private static String plainName(String relative) {
        return relative.endsWith(".gz") ? relative.substring(0, relative.length() - 3) : relative;
    }

    private static String text(ObjectNode e, String field) {
        JsonNode v = e.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static void deleteIfEmpty(Path sub) throws IOException {
        if (Files.isDirectory(sub)) {
            try (Stream<Path> s = Files.list(sub)) {
                if (s.findAny().isPresent()) {
                    return;
                }
            }
            Files.delete(sub);
        }
    }

    /** Bytes of every file in the folder and below (a file that goes while they are counted counts 0). */
    public static long size(Path dir) throws IOException {
        long[] total = {0};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                if (a.isRegularFile()) {
                    total[0] += a.size();
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
        return total[0];
    }
}
