package io.p2pbench.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.verdict.Comparison;
import io.p2pbench.report.verdict.NoiseFloors;
import io.p2pbench.report.verdict.Verdict;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleResultsTest {
    @TempDir
    Path work;

    private static final NoiseFloors NONE = new NoiseFloors("empty", "elsewhere", Map.of());

    @Test
    void scalingOneRowChangesThatRowOnly() throws Exception {
        ResultData x1 = ResultReader.read(Fixtures.X1);
        String id = x1.measurements().stream().filter(m -> m.key().kind().equals("host")
                && m.key().metric().equals("bandwidth")).findFirst().orElseThrow().id();
        List<String> scaled = ScaleResults.scaledCopy(Fixtures.X1, work.resolve("s"), ScaleResults.entry(id), 0.9);
        assertEquals(List.of(id), scaled);
        Comparison.Result r = Comparison.compare(List.of(x1), List.of(ResultReader.read(work.resolve("s"))), 5, NONE);
        for (Comparison.Row row : r.rows().stream().filter(x -> x.baselineValue() > 0).toList()) {
            double expected = row.candidate().id().equals(id) ? 0.9 : 1.0;
            assertEquals(expected, row.ratio(), 1e-9, row.candidate().toString());
        }
        assertEquals(1, r.count(Verdict.WORSE));
        assertTrue(Files.readString(work.resolve("s/manifest.json")).contains("injectedChange"));
    }

    @Test
    void scalingLatencyMovesP50ByTheFactor() throws Exception {
        ScaleResults.scaledCopy(Fixtures.X1, work.resolve("l"), ScaleResults.metric("latency"), 1.25);
        Comparison.Result r = Comparison.compare(List.of(ResultReader.read(Fixtures.X1)),
                List.of(ResultReader.read(work.resolve("l"))), 5, NONE);
        for (Comparison.Row row : r.rows().stream().filter(x -> x.baselineValue() > 0).toList()) {
            assertEquals(row.candidate().key().biggerIsBetter() ? 1.0 : 1.25, row.ratio(), 1e-9);
        }
    }

    /**
     * Format 2 (gzipped files): on a migrated copy of each fixture, read back through the reader, exactly the
     * chosen entry's figures (one bandwidth row; then every latency row) are multiplied by the factor and
     * every other figure keeps its exact bits; the copy stays format 2 and gzipped.
     */
    @Test
    void formatTwoScalesExactlyTheChosenFiguresByTheFactor() throws Exception {
        for (Path fixture : List.of(Fixtures.X1, Fixtures.X8)) {
            Path migrated = Fixtures.copy(fixture, work.resolve("m-" + fixture.getFileName()));
            ResultMigration.migrate(migrated);
            assertEquals(RunManifest.FORMAT, ResultFolder.open(migrated).readManifest().format());
            ResultData before = ResultReader.read(migrated);
            String bw = before.measurements().stream().filter(m -> m.key().metric().equals("bandwidth")
                    && m.samples().length > 1).findFirst().orElseThrow().id();

            Path one = work.resolve("one-" + fixture.getFileName());
            assertEquals(List.of(bw), ScaleResults.scaledCopy(migrated, one, ScaleResults.entry(bw), 0.9));
            assertScaled(before, ResultReader.read(one), m -> m.id().equals(bw), 0.9);

            Path lat = work.resolve("lat-" + fixture.getFileName());
            List<String> ids = ScaleResults.scaledCopy(migrated, lat, ScaleResults.metric("latency"), 1.25);
            assertFalse(ids.isEmpty());
            assertScaled(before, ResultReader.read(lat), m -> m.key().metric().equals("latency"), 1.25);

            for (Path copy : List.of(one, lat)) {
                assertEquals(RunManifest.FORMAT, ResultFolder.open(copy).readManifest().format());
                try (Stream<Path> files = Files.walk(copy)) {
                    assertEquals(List.of(), files.filter(f -> f.toString().endsWith(".json")
                            && (f.getParent().endsWith("jmh") || f.getParent().endsWith("samples"))).toList(),
                            "no plain per-benchmark file written into a format 2 folder");
                }
                assertTrue(Files.readString(copy.resolve("manifest.json")).contains("injectedChange"));
            }
        }
    }

    /** Every measurement of {@code after} is {@code before}'s, times {@code factor} where {@code chosen}. */
    private static void assertScaled(ResultData before, ResultData after, Predicate<Measurement> chosen,
                                     double factor) {
        assertEquals(before.measurements().size(), after.measurements().size());
        int changed = 0;
        for (int i = 0; i < before.measurements().size(); i++) {
            Measurement b = before.measurements().get(i);
            Measurement a = after.measurements().get(i);
            assertEquals(b.key(), a.key());
            assertEquals(b.samples().length, a.samples().length, b.toString());
            if (chosen.test(b)) {
                changed++;
                for (int k = 0; k < b.samples().length; k++) {
                    assertEquals(b.samples()[k] * factor, a.samples()[k], Math.abs(b.samples()[k]) * 1e-12,
                            b + " sample " + k);
                }
            } else {
                assertArrayEquals(b.samples(), a.samples(), b + " is not chosen and must keep its figures");
            }
        }
        assertTrue(changed > 0, "something was chosen");
    }

    @Test
    void formatOneKeepsItsMergedJmhFileInStep() throws Exception {
        Path copy = work.resolve("x8");
        ScaleResults.scaledCopy(Fixtures.X8, copy, ScaleResults.metric("bandwidth"), 0.5);
        assertArrayEquals(Files.readAllBytes(copy.resolve("jmh-results.json")),
                ResultFolder.open(copy).jmhResultsJson().orElseThrow());
        assertFalse(Arrays.equals(Files.readAllBytes(Fixtures.X8.resolve("jmh-results.json")),
                Files.readAllBytes(copy.resolve("jmh-results.json"))), "the merged file was rebuilt");
    }

    @Test
    void otherFormatsAndExistingTargetsAreRefused() throws Exception {
        Path copy = Fixtures.copy(Fixtures.X1, work.resolve("f"));
        Fixtures.setManifestField(copy, "format", "p2pbench-results/9");
        BadInputException e = assertThrows(BadInputException.class,
                () -> ScaleResults.scaledCopy(copy, work.resolve("g"), ScaleResults.metric("bandwidth"), 0.9));
        assertTrue(e.getMessage().contains("is results format 'p2pbench-results/9'; this tool scales "
                + "p2pbench-results/2 and p2pbench-results/1"), e.getMessage());
        assertThrows(BadInputException.class,
                () -> ScaleResults.scaledCopy(Fixtures.X1, copy, ScaleResults.metric("bandwidth"), 0.9));
        assertThrows(BadInputException.class,
                () -> ScaleResults.scaledCopy(Fixtures.X1, work.resolve("h"), ScaleResults.entry("no-such"), 0.9));
    }
}
