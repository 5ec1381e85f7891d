package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.stats.RoundTest;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The drift between runs that rounds do not show: learned from reruns, and what it does to a verdict. */
class RunDriftTest {
    private static final Measurement.Key SMALL = new Measurement.Key("bandwidth", "peer", "CE_P2P_READ", "one-way",
            "0-0", 1 << 20);

    private static Measurement rounds(double... figures) {
        return Measurement.ofRounds(Arrays.stream(figures).mapToObj(f -> new Measurement(SMALL, "m", "X", true, "sweep",
                "id", new double[] {f}, "test")).toList());
    }

    private static ResultData run(int i, Measurement m) {
        return new ResultData(Path.of("run" + i), "run" + i, "m", "test", null, null, List.of(m), List.of(), Map.of(),
                null);
    }

    /** The H100 node's small peer copies: each run's rounds agree, the runs sit in two states 7% apart. */
    private static final List<ResultData> TWO_STATES = List.of(
            run(1, rounds(439, 440, 434, 434)), run(2, rounds(406, 397, 412, 405)),
            run(3, rounds(436, 431, 442, 423)), run(4, rounds(403, 402, 409, 404)));

    @Test
    void runsInTwoStatesHaveADriftTheirRoundsDoNotShow() {
        RunDrift d = RunDrift.learn("test", TWO_STATES);
        assertTrue(d.known());
        assertTrue(d.tau(SMALL) > 0.03 && d.tau(SMALL) < 0.06, "tau " + d.tau(SMALL));
        RunDrift steady = RunDrift.learn("steady", List.of(run(1, rounds(439, 440, 434, 434)),
                run(2, rounds(436, 441, 433, 438))));
        assertEquals(0, steady.tau(SMALL), 1e-12, "runs that differ as their rounds do drift by nothing more");
    }

    @Test
    void oneRunOrRunsWithoutRoundsTeachNothing() {
        assertFalse(RunDrift.learn("one", TWO_STATES.subList(0, 1)).known());
        Measurement once = new Measurement(SMALL, "m", "X", true, "sweep", "id", new double[] {400}, "test");
        assertFalse(RunDrift.learn("no rounds", List.of(run(1, once), run(2, once))).known());
        assertEquals(0, RunDrift.NONE.tau(SMALL));
    }

    @Test
    void withTheDriftAnA7PercentStepBetweenTwoTightRunsIsNoLongerSignificant() {
        double[] high = {439, 440, 434, 434};
        double[] low = {406, 397, 412, 405};
        RoundTest.Result alone = RoundTest.of(high, low, 0.95);
        assertTrue(alone.p() < 0.001, "rounds alone call it certain: p " + alone.p());
        double tau = RunDrift.learn("test", TWO_STATES).tau(SMALL);
        RoundTest.Result drift = RoundTest.of(high, low, 0.95, tau, 1, 1);
        assertTrue(drift.p() > 0.05, "with the drift: p " + drift.p());
        assertTrue(Math.exp(drift.halfWidth()) - 1 > 0.05, "and it cannot be judged at 5%");
    }

    @Test
    void aMachineWithoutACommittedTableHasNoneAndTheH100HasOne() {
        assertFalse(RunDrift.forMachine("no-such-machine").known());
        RunDrift h100 = RunDrift.forMachine("h100-80gb-hbm3x1-single-r580");
        assertTrue(h100.known());
        // Learned from 12 runs on two hosts, within each host: 1 MiB peer copies drift 0.6% beyond their rounds, the
        // pinned H2D+D2H sum at 64 MiB 4.7% (four runs of one session had put it at 0).
        assertTrue(h100.tau(SMALL) > 0.003 && h100.tau(SMALL) < 0.01, "1 MiB peer copies: " + h100.tau(SMALL));
        Measurement.Key pinnedSum = new Measurement.Key("bandwidth", "host", "PINNED LOCAL", "H2D+D2H (sum)", "GPU0",
                64 << 20);
        assertTrue(h100.tau(pinnedSum) > 0.03, "the pinned H2D+D2H sum at 64 MiB: " + h100.tau(pinnedSum));
    }
}
