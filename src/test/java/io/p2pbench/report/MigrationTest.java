package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Format 1 folders still read, and {@code migrate} turns them into format 2 with the same figures. */
class MigrationTest {
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER =
            new com.fasterxml.jackson.databind.ObjectMapper();
    @TempDir
    Path work;

    @Test
    void formatOneStillReads() throws Exception {
        assertEquals(RunManifest.FORMAT_1, ResultFolder.open(Fixtures.X8).readManifest().format());
        ResultData d = ResultReader.read(Fixtures.X8);
        assertFalse(d.measurements().isEmpty());
        assertArrayEquals(Files.readAllBytes(Fixtures.X8.resolve("jmh-results.json")),
                ResultFolder.open(Fixtures.X8).jmhResultsJson().orElseThrow());
    }

    @Test
    void migrationKeepsEveryFigureAndTheReportText() throws Exception {
        for (Path fixture : List.of(Fixtures.X1, Fixtures.X8)) {
            Path dir = Fixtures.copy(fixture, work.resolve(fixture.getFileName().toString()));
            FolderFigures before = FolderFigures.of(dir);
            Map<String, String> reportBefore = texts(Reporter.render(List.of(dir), work.resolve("before")).getParent());
            byte[] jmhFile = Files.readAllBytes(firstFile(dir.resolve("jmh")));
            String jmhName = firstFile(dir.resolve("jmh")).getFileName().toString();

            ResultMigration.Outcome o = ResultMigration.migrate(dir);

            assertEquals(RunManifest.FORMAT_1, o.from());
            assertTrue(o.bytesAfter() * 4 < o.bytesBefore(), o.toString());
            assertEquals(RunManifest.FORMAT, ResultFolder.open(dir).readManifest().format());
            assertFalse(Files.exists(dir.resolve("jmh-results.json")), "the duplicate merged file is gone");
            assertArrayEquals(jmhFile, AtomicFiles.read(dir.resolve("jmh").resolve(jmhName + ".gz")),
                    "JMH's JSON comes back byte for byte");
            try (Stream<Path> left = Files.walk(dir)) {
                assertEquals(List.of(), left.filter(p -> p.toString().endsWith(".json") && !p.endsWith("manifest.json")
                        && !p.endsWith("topology.json")).toList(), "plain per-benchmark files left");
            }
            assertSameFigures(before, FolderFigures.of(dir));
            assertEquals(reportBefore, texts(Reporter.render(List.of(dir), work.resolve("after")).getParent()),
                    "report text and exports (JMH JSON included) are the same");
        }
    }

    @Test
    void migratingTwiceChangesNothingAndAnInterruptedMigrationFinishes() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("x1"));
        FolderFigures before = FolderFigures.of(dir);
        Path plain = firstFile(dir.resolve("jmh"));
        byte[] plainBytes = Files.readAllBytes(plain);
        ResultMigration.migrate(dir);
        ResultMigration.Outcome again = ResultMigration.migrate(dir);
        assertFalse(again.changed(), again.toString());
        // As if interrupted after the manifest was written and before the old files were deleted:
        Files.write(plain, plainBytes);
        assertTrue(ResultMigration.migrate(dir).changed());
        assertFalse(Files.exists(plain));
        assertSameFigures(before, FolderFigures.of(dir));
    }

    @Test
    void prettyPhasesAreWrittenCompactWithTheSameValues() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("x1"));
        String pretty = "{\n  \"about\" : \"x\",\n  \"total\" : {\n    \"total\" : 1.5,\n    \"measured\" : 0.25\n  }\n}\n";
        Files.writeString(dir.resolve(io.p2pbench.results.ResultMigration.PHASES), pretty);
        io.p2pbench.results.ResultMigration.migrate(dir);
        String compact = Files.readString(dir.resolve(io.p2pbench.results.ResultMigration.PHASES));
        assertEquals("{\"about\":\"x\",\"total\":{\"total\":1.5,\"measured\":0.25}}\n", compact);
    }

    @Test
    void aMergedFileThatDisagreesStopsTheMigration() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve("x1"));
        Files.writeString(dir.resolve("jmh-results.json"), "[]\n");
        IOException e = assertThrows(IOException.class, () -> ResultMigration.migrate(dir));
        assertTrue(e.getMessage().contains("holds JMH results that the ok entries' jmh/ files do not"), e.getMessage());
        assertEquals(RunManifest.FORMAT_1, ResultFolder.open(dir).readManifest().format(), "manifest untouched");
        assertTrue(Files.exists(dir.resolve("jmh-results.json")));
    }

    @Test
    void findRecursesAndRefusesFoldersWithoutResults() throws Exception {
        Path root = work.resolve("results");
        Fixtures.copy(Fixtures.X1, root.resolve("m/a"));
        Fixtures.copy(Fixtures.X8, root.resolve("n/b"));
        assertEquals(List.of(root.resolve("m/a"), root.resolve("n/b")), ResultMigration.find(root));
        Files.createDirectories(work.resolve("empty"));
        assertTrue(assertThrows(IOException.class, () -> ResultMigration.find(work.resolve("empty"))).getMessage()
                .contains("holds no p2pbench result folder"));
    }

    /**
     * The fixtures' jmh-results.json was written by the fixture generator, not by p2pbench, so the JMH
     * export is compared as JSON; for the committed runs it is the same bytes (CommittedResultsTest).
     */
    private static void assertSameFigures(FolderFigures before, FolderFigures after) {
        assertEquals(before.measurements(), after.measurements());
        assertEquals(before.figures(), after.figures());
    }

    private static Path firstFile(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).sorted().findFirst().orElseThrow();
        }
    }

    /** Every text file under a report folder (markdown, JSON, CSV), by relative path. */
    private static Map<String, String> texts(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".md") || name.endsWith(".json") || name.endsWith(".csv") || name.endsWith(".txt")) {
                    // JSON as parsed values: the fixtures' jmh-results.json is laid out by the generator.
                    m.put(dir.relativize(p).toString(), name.endsWith(".json")
                            ? MAPPER.readTree(p.toFile()).toString() : Files.readString(p));
                }
            }
        }
        return m;
    }
}
