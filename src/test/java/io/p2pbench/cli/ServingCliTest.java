package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code run --paths SERVING}: the latency target's flags and the dry run. */
class ServingCliTest {
    private static final String ONE = "src/test/resources/topologies/h200x1-single-r580.json";
    private static final String EIGHT = "src/test/resources/topologies/h200x8-nv18-r580.json";

    @Test
    void aBadTargetIsOneLineAndExitTwo() {
        for (String bad : new String[] {"2", "0s", "-5ms", "fast", "700s", "1.5h"}) {
            assertOneLine(run("run", "--dry-run", "--topology", ONE, "--paths", "SERVING", "--ttft-p99", bad),
                    "--ttft-p99 '" + bad + "' is not a latency target", "e.g. 2s, 0.5s or 100ms");
        }
        assertOneLine(run("run", "--dry-run", "--topology", ONE, "--paths", "SERVING", "--tpot-p99", "0.1"),
                "--tpot-p99 '0.1' is not a latency target");
        assertOneLine(run("run", "--dry-run", "--topology", ONE, "--ttft-p99", "1s"),
                "set the serving sweeps' latency target; add --paths SERVING");
        assertOneLine(run("run", "--dry-run", "--topology", ONE, "--paths", "SERVING", "--group", "0,0", "--plans", "EP"),
                "plan EP needs experts, but DENSE_8B is dense");
    }

    @Test
    void theDryRunOnEightGpusShowsTheServingPointsAndTheTarget() {
        CliTest.Result r = run("run", "--dry-run", "--topology", EIGHT, "--paths", "SERVING", "--ttft-p99", "1500ms",
                "--tpot-p99", "0.05s");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("target p99 TTFT <= 1500ms, p99 TPOT <= 50ms"), r.out());
        assertTrue(r.out().contains("  TP     P2P         over 0,1,2,3,4,5,6,7"), r.out());
        assertTrue(r.out().contains("serving sweeps together:"), r.out());
        CliTest.Result defaults = run("run", "--dry-run", "--topology", ONE, "--paths", "SERVING", "--group", "0,0");
        assertEquals(0, defaults.code(), defaults.err());
        assertTrue(defaults.out().contains("target p99 TTFT <= 2s, p99 TPOT <= 100ms"), defaults.out());
        assertTrue(defaults.out().contains("7 benchmarks to run, 3 skipped"), defaults.out());
    }
}
