package io.p2pbench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/results.md states what {@code run.TimePredictorTest} holds: as many committed runs as that test checks
 * (the result folders of 2026 with a manifest, less jobs of several processes and the one serving run whose
 * search judged latency alone), the 15% of the benchmark runs and the 25% of the serving runs it asserts; and the
 * H100 runs in rounds it plans again (src/test/resources/predictor) with their 15%.
 */
class ResultsPageClaimsTest {
    private static final Path COMMITTED = Path.of("results", "h200x1-single-r580");
    /** As {@code TimePredictorTest.SEARCHED_ON_LATENCY_ALONE}. */
    private static final String LEFT_OUT = "2026-12-04T16-02-39Z";

    @Test
    void thePredictorSentenceCountsTheRunsTheTestChecksAndItsBounds() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<Path> runs;
        try (Stream<Path> s = Files.list(COMMITTED)) {
            runs = s.filter(p -> p.getFileName().toString().startsWith("2026-") && !p.endsWith(LEFT_OUT))
                    .map(p -> p.resolve("manifest.json")).filter(Files::isRegularFile).toList();
        }
        long checked = 0;
        for (Path m : runs) {
            checked += mapper.readTree(m.toFile()).path("settings").has("job") ? 0 : 1;
        }
        String page = Files.readString(Path.of("docs", "results.md")).replaceAll("\\s+", " ");
        assertTrue(page.contains("`TimePredictorTest` holds each of the " + checked + " committed runs it checks"),
                "docs/results.md must give the " + checked + " runs TimePredictorTest checks");
        assertTrue(page.contains("benchmark runs within 15%") && page.contains("serving runs within 25%"),
                "docs/results.md must give the bounds TimePredictorTest asserts (15%, serving 25%)");
        assertTrue(page.contains(LEFT_OUT + ", whose search judged points on latency alone, is left out"),
                "docs/results.md must name the run TimePredictorTest leaves out");
        long inRounds = Files.readAllLines(Path.of("src", "test", "resources", "predictor",
                "h100-80gb-hbm3x1-single-r580", "runs.tsv")).stream().filter(l -> !l.startsWith("#") && !l.isBlank())
                .count();
        assertTrue(page.contains("the test plans " + inRounds + " of them again from their commands")
                        && page.contains("and holds each within 15%"),
                "docs/results.md must give the " + inRounds + " H100 runs in rounds TimePredictorTest checks, 15%");
    }
}
