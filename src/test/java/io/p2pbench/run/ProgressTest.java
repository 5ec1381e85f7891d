package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.results.Outcome;
import io.p2pbench.results.RunManifest;
import io.p2pbench.spec.Combination;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ProgressTest {
    private static final Pattern LINE = Pattern.compile("^\\[\\s*(\\d+)/(\\d+)].*ETA (-?\\w+)\\)$");

    @Test
    void theTimeLeftCountsEveryRoundOfEveryCombinationAndEndsAtZero() {
        // two combinations of 10 s a round: one in 2 rounds, one drawn at a context's level in 4; a planned skip
        StringWriter text = new StringWriter();
        Progress p = new Progress(new PrintWriter(text), new double[]{10, 10, 0}, new int[]{2, 4, 0});
        Combination a = combination("a");
        Combination b = combination("b");
        List<int[]> order = List.of(new int[]{0}, new int[]{1}, new int[]{0}, new int[]{1}, new int[]{1}, new int[]{1});
        for (int[] i : order) {
            p.done(i[0], i[0] == 0 ? a : b, ok(a), 10, "");
        }
        List<String> eta = text.toString().lines().map(l -> {
            Matcher m = LINE.matcher(l);
            assertEquals(true, m.matches(), l);
            assertEquals("6", m.group(2), "six rounds in all: " + l);
            return m.group(3);
        }).toList();
        // as predicted (10 s a round done in 10 s): 50, 40, 30, 20, 10, 0 seconds left
        assertEquals(List.of("50s", "40s", "30s", "20s", "10s", "0s"), eta);
    }

    @Test
    void aRunSlowerThanPredictedScalesTheTimeLeftAndItNeverGoesBelowZero() {
        StringWriter text = new StringWriter();
        Progress p = new Progress(new PrintWriter(text), new double[]{10}, new int[]{2});
        Combination a = combination("a");
        p.done(0, a, ok(a), 20, "");
        p.done(0, a, ok(a), 20, "");
        p.done(0, a, ok(a), 20, ""); // more rounds than planned: never a negative time left
        List<String> eta = text.toString().lines().map(l -> {
            Matcher m = LINE.matcher(l);
            assertEquals(true, m.matches(), l);
            return m.group(3);
        }).toList();
        assertEquals(List.of("20s", "0s", "0s"), eta);
    }

    private static Combination combination(String id) {
        return new Combination(id, "io.p2pbench.bench.PeerCopyBenchmark.bandwidth", "peer", "bandwidth",
                Map.of("size", "4096"), "sweep", "NVLink", 4096, false, null, 1.0);
    }

    @Test
    void aCombinationThatFailsARoundDropsItsLaterRoundsFromTheCountAndTheTimeLeft() {
        StringWriter text = new StringWriter();
        Progress p = new Progress(new PrintWriter(text), new double[]{10, 10}, new int[]{4, 4});
        Combination a = combination("a");
        Combination b = combination("b");
        RunManifest.Entry failed = new RunManifest.Entry(a, Outcome.FAILED, "data check failed", null, null, null,
                null, null);
        p.done(0, a, failed, 10, " r1/4"); // a's rounds 2-4 will not run: 4 rounds of b left
        for (int r = 0; r < 4; r++) {
            p.done(1, b, ok(b), 10, "");
        }
        List<String[]> lines = text.toString().lines().map(l -> {
            Matcher m = LINE.matcher(l);
            assertEquals(true, m.matches(), l);
            return new String[]{m.group(2), m.group(3)};
        }).toList();
        assertEquals(List.of("5", "5", "5", "5", "5"), lines.stream().map(x -> x[0]).toList(), "rounds that will run");
        assertEquals(List.of("40s", "30s", "20s", "10s", "0s"), lines.stream().map(x -> x[1]).toList());
    }

    private static RunManifest.Entry ok(Combination c) {
        return new RunManifest.Entry(c, Outcome.OK, null, null, null, null, 10.0, "1 GB/s");
    }
}
