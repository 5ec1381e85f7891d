package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code run --paths PARTITION --plans}: named plans that cannot split the model are bad input; default plans are skips. */
class PartitionCliTest {
    private static final String EIGHT = "src/test/resources/topologies/h200x8-nv18-r580.json";

    @Test
    void aNamedPlanThatDoesNotDivideTheModelIsOneLineAndExitTwo() {
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT, "--paths", "PARTITION", "--group", "0,1,2",
                "--plans", "SINGLE,TP"), "plan TP over 3 ranks does not divide DENSE_8B", "1, 2, 4, 8");
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT, "--paths", "PARTITION", "--group", "0,1,2",
                "--model", "MOE_8X_TOP2", "--plans", "EP"), "plan EP over 3 ranks does not divide MOE_8X_TOP2's 8 experts",
                "1, 2, 4, 8");
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT, "--paths", "PARTITION", "--plans", "EP"),
                "plan EP needs experts, but DENSE_8B is dense");
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT, "--paths", "PARTITION", "--plans", "DP"),
                "unknown plan 'DP'", "SINGLE, TP, PP or EP");
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT, "--plans", "TP"), "add --paths PARTITION");
    }

    @Test
    void namedPlansThatDivideArePlannedAndOnlyThose() {
        CliTest.Result r = run("run", "--dry-run", "--topology", EIGHT, "--paths", "PARTITION", "--group", "0,1",
                "--plans", "pp");
        assertEquals(0, r.code(), r.err());
        // PP only: 3 transports x (2 phases x eager/graph + 1 request)
        assertTrue(r.out().contains("15 benchmarks to run, 0 skipped"), r.out());
        CliTest.Result ep = run("run", "--dry-run", "--topology", EIGHT, "--paths", "PARTITION", "--group", "0,1,2,3",
                "--model", "MOE_8X_TOP2", "--plans", "EP");
        assertEquals(0, ep.code(), ep.err());
        assertTrue(ep.out().contains("15 benchmarks to run, 0 skipped"), ep.out());
    }

    @Test
    void withoutPlansANonDividingPlanIsAPlannedSkip() {
        CliTest.Result r = run("run", "--dry-run", "--topology", EIGHT, "--paths", "PARTITION", "--group", "0,1,2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("does not divide DENSE_8B"), r.out());
    }
}
