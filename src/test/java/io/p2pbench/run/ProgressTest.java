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
        List<String> eta = etas(text);
        // after 10 s predicted done in 20 s: half the run's pace (x2), half the prediction: 10 s left read 15 s
        assertEquals(List.of("15s", "0s", "0s"), eta);
    }

    /**
     * The first benchmark also starts the JVM: 1.1 s where 0.7 s was predicted (a run shaped like the H100 node's
     * quick run of 2026-12-07 12:09Z). Scaled by that alone, 69 s left read 1m49s; now within 5% of the prediction,
     * and the run's pace counts more as it goes: after 20 s predicted, done at 1.5 times the prediction, the 50 s left
     * read 1m07s (1m15s at the whole pace, 50 s at none).
     */
    @Test
    void theFirstBenchmarksPaceDoesNotScaleTheWholeRun() {
        StringWriter text = new StringWriter();
        Progress p = new Progress(new PrintWriter(text), new double[]{0.7, 69.3 / 100, 0}, new int[]{1, 100, 0});
        Combination a = combination("a");
        Combination b = combination("b");
        p.done(0, a, ok(a), 1.1, "");
        for (int k = 0; k < 28; k++) {
            p.done(1, b, ok(b), 1.5 * 69.3 / 100, "");
        }
        List<String> eta = etas(text);
        assertEquals("1m12s", eta.get(0), "69.3 s left x (0.065 x 1.57 + 0.935)");
        assertEquals("1m07s", eta.get(eta.size() - 1), "49.9 s left x (0.668 x 1.50 + 0.332)");
    }

    /**
     * Rounds of one combination predicted apart (the first opens a JVM and runs the collectives' CPU check): each done
     * as predicted leaves exactly the later rounds' time; their mean (5/3 s a round) would have read 3 s as slow.
     */
    @Test
    void eachRoundIsCountedAtItsOwnPrediction() {
        StringWriter text = new StringWriter();
        Progress p = new Progress(new PrintWriter(text), new double[][]{{3}, {1}, {1}}, new int[]{3});
        Combination a = combination("a");
        p.done(0, a, ok(a), 3, " r1/3");
        p.done(0, a, ok(a), 1, " r2/3");
        p.done(0, a, ok(a), 1, " r3/3");
        List<String> eta = etas(text);
        assertEquals(List.of("2s", "1s", "0s"), eta);
    }

    /** The ETA of every progress line written to {@code text}; each line must be one. */
    private static List<String> etas(StringWriter text) {
        return text.toString().lines().map(l -> {
            Matcher m = LINE.matcher(l);
            assertEquals(true, m.matches(), l);
            return m.group(3);
        }).toList();
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
