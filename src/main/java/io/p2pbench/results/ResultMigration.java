package io.p2pbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * again finishes the job. A folder already in format 2 is left alone (leftover old files whose content
 * the new ones hold are removed).
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
        ObjectNode manifest;
        try {
            manifest = (ObjectNode) MAPPER.readTree(manifestFile.toFile());
        } catch (com.fasterxml.jackson.core.JacksonException | ClassCastException e) {
            throw new IOException(manifestFile + " is not a readable p2pbench manifest");
        }
        String from = manifest.path("format").asText(null);
        if (!RunManifest.READABLE.contains(from)) {
            throw new IOException(manifestFile + " has result format '" + from + "'; migrate reads '"
                    + RunManifest.FORMAT_1 + "' and '" + RunManifest.FORMAT + "'");
        }
        long before = size(dir);
        List<Path> obsolete = new ArrayList<>();
        List<byte[]> jmhOfOkEntries = new ArrayList<>();
        for (JsonNode node : manifest.path("entries")) {
            ObjectNode e = (ObjectNode) node;
            String id = e.path("combination").path("id").asText();
            boolean ok = "ok".equals(e.path("status").asText());
            String jmh = text(e, "jmhFile");
            if (jmh != null) {
                String gz = gzipName(jmh);
                if (!gz.equals(jmh)) {
                    migrateJmh(dir, jmh, gz);
                }
                e.put("jmhFile", gz);
                obsolete.add(dir.resolve(jmh.endsWith(".gz") ? jmh.substring(0, jmh.length() - 3) : jmh));
                if (ok) {
                    jmhOfOkEntries.add(AtomicFiles.read(dir.resolve(gz)));
                }
            }
            String samples = text(e, "samplesFile");
            if (samples != null) {
                String gz = gzipName(samples);
                if (!gz.equals(samples)) {
                    migrateSamples(dir, samples, gz);
                }
                e.put("samplesFile", gz);
                obsolete.add(dir.resolve(samples.endsWith(".gz") ? samples.substring(0, samples.length() - 3)
                        : samples));
            }
            migrateLog(dir, e, ok, obsolete);
            checkRecord(dir.resolve("verified").resolve(id + ".txt"), e.path("bytesVerified").asText(null), obsolete);
            checkRecord(dir.resolve("skips").resolve(id + ".txt"), text(e, "reason"), obsolete);
        }
        Path merged = dir.resolve("jmh-results.json");
        if (Files.isRegularFile(merged)) {
            JsonNode rebuilt = MAPPER.readTree(jmhOfOkEntries.isEmpty() ? "[]\n".getBytes()
                    : ResultFolder.mergeJmh(jmhOfOkEntries));
            if (!rebuilt.equals(MAPPER.readTree(merged.toFile()))) {
                throw new IOException(merged + " holds JMH results that the ok entries' jmh/ files do not; "
                        + "nothing deleted");
            }
            obsolete.add(merged);
        }
        compactJson(dir.resolve(PHASES));
        if (!RunManifest.FORMAT.equals(from)) {
            manifest.put("format", RunManifest.FORMAT);
            AtomicFiles.write(manifestFile, MAPPER.writeValueAsString(manifest) + "\n");
        }
        for (Path p : obsolete) {
            Files.deleteIfExists(p);
        }
        for (String sub : List.of("verified", "skips", "logs")) {
            deleteIfEmpty(dir.resolve(sub));
        }
        return new Outcome(dir, from, before, size(dir));
    }

    /** Where a run records where each benchmark's seconds went (written by the executor). */
    public static final String PHASES = "phases.json";

    /** Rewrites a pretty-printed JSON file (phases.json of runs before 18:10Z) without whitespace; same values. */
    private static void compactJson(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return;
        }
        JsonNode tree = MAPPER.readTree(file.toFile());
        String compact = MAPPER.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(tree) + "\n";
        if (!compact.equals(Files.readString(file))) {
            if (!MAPPER.readTree(compact).equals(tree)) {
                throw new IOException(file + " did not survive compaction unchanged; left as it was");
            }
            AtomicFiles.write(file, compact);
        }
    }

    /**
     * Whether {@code plain} was already converted (only its .gz is there); throws when neither is, since the
     * manifest names a file the folder lacks.
     */
    private static boolean alreadyDone(Path dir, String plain, Path src, Path dst) throws IOException {
        if (Files.isRegularFile(src)) {
            return false;
        }
        if (Files.isRegularFile(dst)) {
            return true;
        }
        throw new IOException(dir.resolve("manifest.json") + " names " + plain + ", which is missing");
    }

    /** {@code jmh/NNN-ID.json} to {@code .json.gz}, byte for byte (already done when only the .gz is there). */
    private static void migrateJmh(Path dir, String plain, String gz) throws IOException {
        Path src = dir.resolve(plain);
        Path dst = dir.resolve(gz);
        if (alreadyDone(dir, plain, src, dst)) {
            return;
        }
        byte[] bytes = Files.readAllBytes(src);
        AtomicFiles.writeGzip(dst, bytes);
        if (!Arrays.equals(bytes, AtomicFiles.read(dst))) {
            throw new IOException(dst + " does not read back as " + src);
        }
    }

    /** {@code samples/ID.json} to compact {@code .json.gz} holding the same values. */
    private static void migrateSamples(Path dir, String plain, String gz) throws IOException {
        Path src = dir.resolve(plain);
        Path dst = dir.resolve(gz);
        if (alreadyDone(dir, plain, src, dst)) {
            return;
        }
        BatchSamples samples = BenchmarkRecords.readSamples(src);
        AtomicFiles.writeGzip(dst, BenchmarkRecords.samplesJson(samples));
        if (!samples.equals(BenchmarkRecords.readSamples(dst))) {
            throw new IOException(dst + " does not read back as " + src);
        }
    }

    /** An ok benchmark's log goes; another's is gzipped; a log that is not there is no longer named. */
    private static void migrateLog(Path dir, ObjectNode e, boolean ok, List<Path> obsolete) throws IOException {
        String log = text(e, "logFile");
        if (log == null) {
            return;
        }
        String plain = log.endsWith(".gz") ? log.substring(0, log.length() - 3) : log;
        Path src = dir.resolve(plain);
        Path gz = dir.resolve(plain + ".gz");
        if (ok) {
            obsolete.add(src);
            obsolete.add(gz);
            e.putNull("logFile");
        } else if (Files.isRegularFile(src)) {
            byte[] bytes = Files.readAllBytes(src);
            AtomicFiles.writeGzip(gz, bytes);
            obsolete.add(src);
            e.put("logFile", plain + ".gz");
        } else if (Files.isRegularFile(gz)) {
            e.put("logFile", plain + ".gz");
        } else {
            e.putNull("logFile");
        }
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

    /** Bytes of every file in the folder and below. */
    public static long size(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            long total = 0;
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                total += Files.size(p);
            }
            return total;
        }
    }
}
