package io.p2pbench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkPhasesTest {
    /** A fork's file as TransferState writes it: two warm-up iterations and one measurement iteration. */
    private static final List<String> STANDARD_FORK = List.of(
            "JVM_START 1000000 -",          // runner started at 0.8 s
            "SETUP_BEGIN 1400000 -",        // JVM and JMH: 0.4 s
            "SETUP_END 1700000 -",          // setup: 0.3 s
            "ITERATION_BEGIN 1700000 -",
            "TIMED_BEGIN 1710000 -",        // poison 0.01
            "TIMED_END 1910000 -",          // warm-up 0.2
            "ITERATION_END 1930000 -",      // check 0.02
            "ITERATION_BEGIN 1930000 -",
            "TIMED_BEGIN 1940000 -",
            "TIMED_END 2140000 -",
            "ITERATION_END 2160000 -",
            "ITERATION_BEGIN 2160000 M",
            "TIMED_BEGIN 2170000 M",
            "TIMED_END 3170000 M",          // measured 1.0
            "ITERATION_END 3190000 M",
            "TEARDOWN_BEGIN 3190000 -",
            "TEARDOWN_END 3290000 -",       // teardown 0.1
            "garbage line",
            "UNKNOWN_EVENT 1 -");

    @Test
    void aForksWallTimeSplitsIntoItsPhases() {
        ForkPhases.Breakdown b = ForkPhases.breakdown(STANDARD_FORK, 800_000, 3_490_000);
        assertEquals(2.69, b.total(), 1e-9);
        assertEquals(0.2, b.launch(), 1e-9);
        assertEquals(0.4, b.jvm(), 1e-9);
        assertEquals(0.3, b.setup(), 1e-9);
        assertEquals(0.4, b.warmup(), 1e-9);
        assertEquals(1.0, b.measured(), 1e-9);
        assertEquals(3 * 0.03, b.checks(), 1e-9);
        assertEquals(0.1, b.teardown(), 1e-9);
        assertEquals(0.2, b.exit(), 1e-9);
        assertEquals(1.69, b.overhead(), 1e-9);
        assertEquals(b.total(), b.launch() + b.jvm() + b.setup() + b.warmup() + b.measured() + b.checks() + b.teardown()
                + b.exit(), 1e-9, "the phases cover the runner's wall time when the fork ran to the end");
        assertTrue(b.describe().startsWith("measured 1.00 s of 2.69 s (overhead 63%: launch 0.20, jvm 0.40, setup 0.30"),
                b.describe());
    }

    @Test
    void aForkThatDiedInSetupHasOnlyOverhead() {
        ForkPhases.Breakdown b = ForkPhases.breakdown(List.of("JVM_START 1000000 -", "SETUP_BEGIN 1500000 -"),
                0, 2_000_000);
        assertEquals(2.0, b.total(), 1e-9);
        assertEquals(1.0, b.launch(), 1e-9);
        assertEquals(0.5, b.jvm(), 1e-9);
        assertEquals(0, b.measured());
        assertEquals(2.0, b.overhead(), 1e-9);
        assertEquals(b, ForkPhases.Breakdown.zero().plus(b));
    }

    @Test
    void marksGoToTheFileTheExecutorNamesWithTheJvmStartFirst(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("phases.txt");
        String before = System.getProperty(ForkPhases.FILE_PROPERTY);
        System.setProperty(ForkPhases.FILE_PROPERTY, file.toString());
        try {
            long t0 = ForkPhases.nowMicros();
            ForkPhases.mark(ForkPhases.Event.SETUP_BEGIN, false);
            ForkPhases.mark(ForkPhases.Event.TIMED_BEGIN, true);
            List<String> lines = Files.readAllLines(file);
            assertTrue(lines.size() >= 2, lines.toString());
            assertTrue(lines.get(lines.size() - 1).matches("TIMED_BEGIN \\d+ M"), lines.toString());
            long marked = Long.parseLong(lines.get(lines.size() - 2).split(" ")[1]);
            assertTrue(marked >= t0 && marked <= ForkPhases.nowMicros(), lines.toString());
        } finally {
            if (before == null) {
                System.clearProperty(ForkPhases.FILE_PROPERTY);
            } else {
                System.setProperty(ForkPhases.FILE_PROPERTY, before);
            }
        }
    }

    /** A later combination of a fork group: no JVM start of its own; the runner's start to setup is launch. */
    @Test
    void aCombinationInARunningJvmCountsRunnerStartToSetupAsLaunch() {
        ForkPhases.Breakdown b = ForkPhases.breakdown(List.of("SETUP_BEGIN 1300000 -", "SETUP_END 1400000 -",
                "TEARDOWN_BEGIN 2400000 -", "TEARDOWN_END 2500000 -"), 1_000_000, 2_600_000);
        assertEquals(0.3, b.launch(), 1e-9);
        assertEquals(0.0, b.jvm(), 1e-9);
        assertEquals(0.1, b.setup(), 1e-9);
        assertEquals(0.1, b.exit(), 1e-9);
        assertEquals(1.6, b.total(), 1e-9);
    }
}
