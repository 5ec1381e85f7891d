package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Result folders from someone else are untrusted (issue 25, part 1): a manifest that names files
 * outside its folder, by {@code ..}, an absolute path or a symbolic link, or a fingerprint that is not
 * a plain name, is refused with one line naming the field and the value, exit code 2, and nothing
 * outside the folder, nor in it, is touched. Each test plants a victim file outside the folder
 * and checks it survives.
 */
class UntrustedFolderCliTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path work;

    /** A format 1 copy of the one-GPU fixture at {@code work/tree/run}, two levels below {@code work}. */
    private Path folder() throws Exception {
        return Fixtures.copy(Fixtures.X1, work.resolve("tree").resolve("run"));
    }

    /** A victim file the user owns outside the result folder. */
    private Path victim(String name) throws Exception {
        Path v = Files.createDirectories(work.resolve("victim")).resolve(name);
        return Files.writeString(v, "the user's own work\n");
    }

    /** Sets one field of entry {@code index} in the folder's manifest. */
    private static void setEntry(Path dir, int index, String field, String value) throws Exception {
        Path manifest = dir.resolve("manifest.json");
        ObjectNode m = (ObjectNode) MAPPER.readTree(manifest.toFile());
        ObjectNode e = (ObjectNode) m.withArray("entries").get(index);
        if (field.startsWith("combination.")) {
            ((ObjectNode) e.get("combination")).put(field.substring("combination.".length()), value);
        } else {
            e.put(field, value);
        }
        MAPPER.writeValue(manifest.toFile(), m);
    }

    /** SHA-256 of every file below {@code dir}, by relative path: "nothing touched" is these staying equal. */
    private static TreeMap<String, String> contents(Path dir) throws Exception {
        TreeMap<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(f).toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))));
            }
        }
        return out;
    }

    @Test
    void migrateDoesNotDeleteALogFileNamedOutsideTheFolder() throws Exception {
        Path dir = folder();
        Path thesis = victim("thesis.tex");
        setEntry(dir, 0, "logFile", "../../victim/thesis.tex"); // entry 0 is ok: its log would be deleted
        var before = contents(dir);
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "1 of 1 result folder(s) could not be migrated", dir.toString());
        assertTrue(r.out().contains("entries[0].logFile '../../victim/thesis.tex' leads out of the folder with '..'"),
                r.out());
        assertTrue(Files.exists(thesis), "the victim survives");
        assertEquals(before, contents(dir), "nothing in the folder changed");
    }

    @Test
    void migrateDoesNotDeleteALogFileNamedByAnAbsolutePath() throws Exception {
        Path dir = folder();
        Path thesis = victim("thesis.tex");
        setEntry(dir, 31, "logFile", thesis.toString()); // entry 31 failed: its log would be gzipped, the original deleted
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "could not be migrated", dir.toString());
        assertTrue(r.out().contains("entries[31].logFile '" + thesis + "' is an absolute path"), r.out());
        assertTrue(Files.exists(thesis));
        assertFalse(Files.exists(Path.of(thesis + ".gz")), "no .gz beside the victim");
    }

    @Test
    void migrateDoesNotReplaceAJmhFileNamedOutsideTheFolderByItsGzip() throws Exception {
        Path dir = folder();
        Path x = victim("x.json");
        setEntry(dir, 0, "jmhFile", "../../victim/x.json");
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "could not be migrated");
        assertTrue(r.out().contains("entries[0].jmhFile '../../victim/x.json' leads out of the folder"), r.out());
        assertTrue(Files.exists(x));
        assertFalse(Files.exists(x.resolveSibling("x.json.gz")));
    }

    @Test
    void migrateOfACurrentFormatFolderDoesNotRemoveLeftoversNamedOutsideIt() throws Exception {
        Path dir = folder();
        assertEquals(0, run("migrate", dir.toString()).code());
        // A plain twin of a named .gz is a leftover migrate removes: here the twin is the user's file.
        Path x = victim("x.json");
        Files.write(x.resolveSibling("x.json.gz"), io.p2pbench.results.AtomicFiles.gzip(Files.readAllBytes(x)));
        setEntry(dir, 0, "samplesFile", "../../victim/x.json.gz");
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "could not be migrated");
        assertTrue(r.out().contains("entries[0].samplesFile '../../victim/x.json.gz' leads out of the folder"), r.out());
        assertTrue(Files.exists(x));
    }

    @Test
    void aSymbolicLinkOutOfTheFolderIsRefusedLikeDotDot() throws Exception {
        Path dir = folder();
        Path thesis = victim("thesis.tex");
        Files.createSymbolicLink(dir.resolve("logs"), thesis.getParent());
        setEntry(dir, 0, "logFile", "logs/thesis.tex");
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "could not be migrated");
        assertTrue(r.out().contains("entries[0].logFile 'logs/thesis.tex' leads outside the folder through the symbolic "
                + "link " + dir.toRealPath().resolve("logs")), r.out());
        assertTrue(Files.exists(thesis));

        Files.delete(dir.resolve("logs"));
        Files.createSymbolicLink(dir.resolve("logs"), work.resolve("nowhere"));
        r = run("migrate", dir.toString());
        assertTrue(r.out().contains("goes through the symbolic link " + dir.toRealPath().resolve("logs")
                + ", which leads nowhere"), r.out());
        assertFalse(Files.exists(work.resolve("nowhere")), "nothing was created where the link points");
    }

    @Test
    void theFoldersOwnFilesAreNotReadOrRewrittenThroughALinkOutOfIt() throws Exception {
        // topology.json, manifest.json, phases.json have fixed names, not named by the manifest (issue 36).
        for (String name : List.of("topology.json", "manifest.json", "phases.json")) {
            Path dir = Fixtures.copy(Fixtures.X1, work.resolve("own-" + name).resolve("run"));
            Path outside = Files.createDirectories(work.resolve("outside-" + name)).resolve(name);
            if (Files.exists(dir.resolve(name))) {
                Files.move(dir.resolve(name), outside);
            } else {
                Files.writeString(outside, "[\n  {\"phase\" : \"the user's own file\"}\n]\n");
            }
            Files.createSymbolicLink(dir.resolve(name), outside);
            var before = contents(outside.getParent());
            String line = dir.resolve(name) + " is a symbolic link out of the result folder (to " + outside.toRealPath()
                    + "); a result folder's own files are inside it";
            assertOneLine(run("report", dir.toString(), "--out", work.resolve("r-" + name).toString()), line);
            CliTest.Result migrate = run("migrate", dir.toString());
            assertOneLine(migrate, "could not be migrated");
            assertTrue(migrate.out().contains(line), migrate.out());
            assertEquals(before, contents(outside.getParent()), "the file outside is neither read into a report nor "
                    + "rewritten by migrate");
        }
    }

    @Test
    void aLinkThatStaysInsideTheFolderIsFine() throws Exception {
        Path dir = folder();
        Files.move(dir.resolve("samples"), dir.resolve("samples-real"));
        Files.createSymbolicLink(dir.resolve("samples"), Path.of("samples-real"));
        CliTest.Result r = run("report", dir.toString(), "--out", work.resolve("r").toString());
        assertEquals(0, r.code(), r.err());
    }

    @Test
    void aCombinationIdThatIsNotAPlainNameIsRefused() throws Exception {
        // migrate deletes verified/ID.txt and skips/ID.txt when they match the manifest: the id names files.
        Path dir = folder();
        Path victim = victim("v.txt");
        setEntry(dir, 0, "combination.id", "../../victim/v");
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "could not be migrated");
        assertTrue(r.out().contains("entries[0].combination.id '../../victim/v' is not a plain name"), r.out());
        assertTrue(Files.exists(victim));
    }

    @Test
    void reportWithoutOutRefusesAFingerprintThatLeavesCharts() throws Exception {
        // Without --out the report goes to charts/<fingerprint>: "..", "../../x" would put it elsewhere.
        Path summaryHere = Path.of("summary.md").toAbsolutePath();
        boolean existed = Files.exists(summaryHere);
        for (String fingerprint : new String[] {"..", "../../somewhere", "/tmp/x", "a/b", ""}) {
            Path dir = Fixtures.copy(Fixtures.X1, work.resolve("fp" + Math.abs(fingerprint.hashCode())));
            Fixtures.setManifestField(dir, "fingerprint", fingerprint);
            assertOneLine(run("report", dir.toString()), "manifest.json: fingerprint '" + fingerprint + "'",
                    fingerprint.isEmpty() ? "is empty" : "is not a plain name");
            assertOneLine(run("compare", Fixtures.X1.toString(), dir.toString()), "fingerprint '" + fingerprint + "'");
            assertOneLine(run("whatif", dir.toString(), "--out", work.resolve("w").toString()),
                    "fingerprint '" + fingerprint + "'");
        }
        assertEquals(existed, Files.exists(summaryHere), "no summary.md written beside charts/");
        assertFalse(Files.exists(work.resolve("w")), "whatif wrote nothing either");
    }

    @Test
    void aTopologyFingerprintThatIsNotAPlainNameIsRefused() throws Exception {
        // A manifest without a fingerprint takes the topology's as the machine name (and charts/ folder).
        Path dir = folder();
        ObjectNode m = (ObjectNode) MAPPER.readTree(dir.resolve("manifest.json").toFile());
        m.remove("fingerprint");
        MAPPER.writeValue(dir.resolve("manifest.json").toFile(), m);
        ObjectNode t = (ObjectNode) MAPPER.readTree(dir.resolve("topology.json").toFile());
        t.put("fingerprint", "..");
        MAPPER.writeValue(dir.resolve("topology.json").toFile(), t);
        assertOneLine(run("report", dir.toString()), "topology.json is not a usable p2pbench topology: fingerprint '..'");
    }

    @Test
    void reportAndCompareRefuseAFileNamedOutsideTheFolderToo() throws Exception {
        // One check where the manifest is read: every command gets it, not only migrate.
        Path dir = folder();
        victim("x.json");
        setEntry(dir, 0, "jmhFile", "../../victim/x.json");
        assertOneLine(run("report", dir.toString(), "--out", work.resolve("r").toString()),
                "entries[0].jmhFile '../../victim/x.json' leads out of the folder");
        assertOneLine(run("compare", Fixtures.X1.toString(), dir.toString(), "--out", work.resolve("c").toString()),
                "entries[0].jmhFile");
        assertFalse(Files.exists(work.resolve("r").resolve("summary.md")));
    }
}
