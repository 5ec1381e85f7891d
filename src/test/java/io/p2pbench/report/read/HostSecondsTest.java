package io.p2pbench.report.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's host CPU work (its JVM starts and exits, from phases.json) is read where the file says it plainly and is
 * unknown (NaN) everywhere else: the figure only decides whether two runs' hosts worked alike, and a run without it
 * reads as before.
 */
class HostSecondsTest {
    @TempDir
    Path work;

    private double read(String json) throws Exception {
        Path f = work.resolve("phases.json");
        Files.writeString(f, json);
        return ResultReader.hostSeconds(f);
    }

    @Test
    void launchJvmAndExitOfTheTotalAddUp() throws Exception {
        assertEquals(2.3 + 4.9 + 3.4, read("{\"total\": {\"total\": 67.2, \"launch\": 2.3, \"jvm\": 4.9, \"setup\": 9.5,"
                + " \"exit\": 3.4}, \"benchmarks\": {}}"), 1e-12);
    }

    @Test
    void whatDoesNotSayItPlainlyIsUnknown() throws Exception {
        assertTrue(Double.isNaN(ResultReader.hostSeconds(work.resolve("absent.json"))), "no file");
        assertTrue(Double.isNaN(read("{\"total\": {\"launch\": 2.3, \"jvm\": 4.9")), "truncated");
        assertTrue(Double.isNaN(read("[1, 2]")), "not an object");
        assertTrue(Double.isNaN(read("{\"total\": {\"launch\": 2.3, \"jvm\": 4.9}}")), "a phase missing");
        assertTrue(Double.isNaN(read("{\"total\": {\"launch\": \"2.3\", \"jvm\": 4.9, \"exit\": 3.4}}")), "text");
        assertTrue(Double.isNaN(read("{\"total\": {\"launch\": -2.3, \"jvm\": 4.9, \"exit\": 3.4}}")), "negative");
        assertTrue(Double.isNaN(read("{\"total\": {\"launch\": 2.3, \"jvm\": 1e300, \"exit\": 3.4}}")), "absurd");
        assertTrue(Double.isNaN(read("{\"total\": {\"launch\": 0, \"jvm\": 0, \"exit\": 0}}")), "no work at all");
        Files.createDirectories(work.resolve("dir.json"));
        assertTrue(Double.isNaN(ResultReader.hostSeconds(work.resolve("dir.json"))), "a folder");
    }

    @Test
    void aCommittedRunWithoutPhasesReadsAsBefore() throws Exception {
        ResultData r = ResultReader.read(Path.of("results/h200x1-single-r580/2026-12-02T16-52-40Z"));
        assertTrue(Double.isNaN(r.hostSeconds()), "written before phases.json: unknown, " + r.hostSeconds());
        assertEquals(ResultData.Tool.P2PBENCH, r.tool());
    }
}
