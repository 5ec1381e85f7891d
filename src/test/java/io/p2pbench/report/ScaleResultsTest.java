package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleResultsTest {
    @TempDir
    Path work;

    private static final NoiseFloors NONE = new NoiseFloors("empty", "elsewhere", Map.of(), Map.of());

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
        assertEquals(1, r.count(Comparison.Verdict.WORSE));
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

    @Test
    void otherFormatsAndExistingTargetsAreRefused() throws Exception {
        Path copy = Fixtures.copy(Fixtures.X1, work.resolve("f"));
        Fixtures.setManifestField(copy, "format", "p2pbench-results/2");
        BadInputException e = assertThrows(BadInputException.class,
                () -> ScaleResults.scaledCopy(copy, work.resolve("g"), ScaleResults.metric("bandwidth"), 0.9));
        assertTrue(e.getMessage().contains("is results format 'p2pbench-results/2'; this tool scales "
                + "p2pbench-results/1 only"), e.getMessage());
        assertThrows(BadInputException.class,
                () -> ScaleResults.scaledCopy(Fixtures.X1, copy, ScaleResults.metric("bandwidth"), 0.9));
        assertThrows(BadInputException.class,
                () -> ScaleResults.scaledCopy(Fixtures.X1, work.resolve("h"), ScaleResults.entry("no-such"), 0.9));
    }
}
