package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import io.p2pbench.spec.Combination;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another JMH run holding JMH's lock is read where JMH says so (its Runner's error) and carried on as the entry's
 * outcome, interrupted, which stops the run ({@link RunExecutor}); a benchmark whose own failure merely quotes those
 * words is a failure like any other, and the run goes on.
 */
class JmhLockOutcomeTest {
    private static final Combination C = ExecutorFaultHarness.twoCombinations().get(0);
    private static final String JMH_SAYS = "ERROR: Unable to acquire the JMH lock (/tmp/jmh.lock): already taken by "
            + "another JMH instance, exiting. Use -Djmh.ignoreLock=true to forcefully continue.";

    @TempDir
    Path dir;

    @Test
    void theRunnersLockErrorIsAnInterruptedEntry() throws Exception {
        ForkOutcome outcome = new ForkOutcome(ResultFolder.open(dir));
        ForkOutcome.ForkFiles f = outcome.prepare(0, C, Round.ONLY);
        Files.writeString(dir.resolve(f.logRel()), "# JMH version: 1.37\n");
        RunManifest.Entry e = outcome.conclude(f, false, JMH_SAYS, false, 60, 0.5);
        assertEquals(Outcome.INTERRUPTED, e.outcome());
        assertEquals("another JMH run took JMH's lock", e.reason());
        assertEquals(f.logRel() + ".gz", e.logFile(), "its log is kept, as a failed benchmark's is");
    }

    @Test
    void aBenchmarkFailureThatQuotesTheWordsIsAFailure() throws Exception {
        ForkOutcome outcome = new ForkOutcome(ResultFolder.open(dir));
        ForkOutcome.ForkFiles f = outcome.prepare(0, C, Round.ONLY);
        Files.writeString(dir.resolve(f.logRel()), "io.p2pbench.cuda.CudaException: " + JMH_SAYS + "\n");
        RunManifest.Entry e = outcome.conclude(f, false, null, false, 60, 0.5);
        assertEquals(Outcome.FAILED, e.outcome());
        assertEquals("io.p2pbench.cuda.CudaException: " + JMH_SAYS, e.reason());
    }
}
