package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The gate's serving floors on the committed A/A reruns of the H200 node: every ordered pair of the four runs,
 * compared as compare compares them, raises no alarm, and the largest change of each figure between two of them
 * lies below its floor (the table in docs/compare.md is what this prints).
 */
class GatedFiguresRerunsTest {
    static final Path COMMITTED = Path.of("results", "h200x1-single-r580");
    static final List<String> SERVING_RERUNS = List.of("2026-12-04T16-54-29Z", "2026-12-04T18-16-33Z",
            "2026-12-04T18-23-49Z", "2026-12-04T18-37-02Z");

    @Test
    void everyOrderedPairOfTheServingRerunsIsSameAndEveryChangeLiesBelowItsFloor() throws Exception {
        List<ResultData> runs = new ArrayList<>();
        for (String r : SERVING_RERUNS) {
            runs.add(ResultReader.read(COMMITTED.resolve(r)));
        }
        Map<String, double[]> largest = new TreeMap<>(); // figure -> largest change seen (size, %), floor (%)
        int pairs = 0;
        int compared = 0;
        for (int i = 0; i < runs.size(); i++) {
            for (int j = 0; j < runs.size(); j++) {
                if (i == j) {
                    continue;
                }
                GatedFigures.Result g = GatedFigures.compare(List.of(runs.get(j)), List.of(runs.get(i)), 5);
                pairs++;
                for (GatedFigures.Group grp : g.groups()) {
                    compared++;
                    assertTrue(grp.verdict() == Verdict.SAME || grp.verdict() == Verdict.UNJUDGED,
                            SERVING_RERUNS.get(i) + " vs " + SERVING_RERUNS.get(j) + ": " + grp);
                    for (GatedFigures.Row r : grp.rows()) {
                        double size = (Math.max(r.ratio(), 1 / r.ratio()) - 1) * 100;
                        boolean bracket = r.why().contains("within the bracket");
                        largest.merge(r.figure(), new double[] {bracket ? 0 : size, 100 * r.floor(), bracket ? 1 : 0,
                                bracket ? size : 0}, (a, b) -> new double[] {Math.max(a[0], b[0]), a[1], a[2] + b[2],
                                Math.max(a[3], b[3])});
                    }
                }
            }
        }
        assertEquals(12, pairs);
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%d ordered pairs, %d measurements compared%n",
                pairs, compared));
        table.append("| figure | largest change (outside a bracket) | floor | changes beyond the floor within a bracket "
                + "(largest) |\n");
        largest.forEach((f, v) -> table.append(String.format(Locale.ROOT, "| %s | %.1f%% | %.0f%% | %.0f (%.1f%%) |%n", f,
                v[0], v[1], v[2], v[3])));
        io.p2pbench.TestNotes.write("GatedFiguresRerunsTest", table);
        largest.forEach((f, v) -> assertTrue(v[0] < v[1], f + ": " + table));
        assertEquals(5, largest.size(), table.toString());
    }
}
