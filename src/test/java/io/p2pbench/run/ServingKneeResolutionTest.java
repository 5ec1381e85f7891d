package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.Group;
import io.p2pbench.serving.BatchPolicy;
import io.p2pbench.serving.CapacitySearch;
import io.p2pbench.serving.ModelStepExecutor;
import io.p2pbench.serving.SearchPlan;
import io.p2pbench.serving.ServingSession;
import io.p2pbench.serving.ServingSweep;
import io.p2pbench.serving.StepExecutor;
import io.p2pbench.serving.VirtualClock;
import io.p2pbench.spec.Combination;
import io.p2pbench.topology.TopologyJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The knee's resolution as planned: the quick preset's serving sweep of DENSE_8B over one H200's 0,0 (every plan,
 * seven sweeps sharing the budget), searched on the real scheduler with a step model shaped like SINGLE's on the
 * H200 (StabilityTest's: it saturates at 53.3 req/s) and one 10% slower (about TP's served rate at saturation on
 * that node, 9% below SINGLE's). The knee must come out within 5% of the rate that broke the target, and the two
 * models must read as two knees.
 */
class ServingKneeResolutionTest {
    private static final long MS = 1_000_000L;

    /** The planned sweep of SINGLE in the quick preset's serving sweep of DENSE_8B over 0,0 on the H200. */
    private static ServingSweep plannedSweep() throws Exception {
        List<Combination> plan = RunPlanner.plan(TopologyJson.read(Path.of("results/h200x1-single-r580/topology.json")),
                new RunPlanner.Request(Preset.QUICK, null, null, java.util.Set.of(RunPlanner.SERVING),
                        Group.parse("0,0"), "DENSE_8B", null, null));
        assertEquals(7, plan.stream().filter(c -> !c.plannedSkip()).count(), "SINGLE, and TP and PP over three transports");
        Combination single = plan.stream().filter(c -> c.id().equals("serve-DENSE_8B-SINGLE-P2P-g0")).findFirst()
                .orElseThrow();
        return ServingSweep.parse(single.params().get("sweep"));
    }

    /** The search on a step of {@code slowdown} times SINGLE's shape on the H200. */
    private static CapacitySearch.Outcome search(ServingSweep sweep, double slowdown) {
        VirtualClock clock = new VirtualClock();
        ModelStepExecutor exec = new ModelStepExecutor(s -> Math.round(slowdown * (4.5 * MS + 0.114 * MS
                * s.decodeSequences() + 0.004 * MS * s.prefillTokens())), clock, new StepExecutor.StepLimits(256, 4096,
                8192));
        return new ServingSession(sweep, exec, clock, 993_660).search();
    }

    /** Output tokens per second served at the lowest rate that broke the target. */
    private static double servedAtSaturation(CapacitySearch.Outcome o) {
        return o.points().stream().filter(p -> !p.met())
                .min(java.util.Comparator.comparingDouble(CapacitySearch.Point::ratePerSecond)).orElseThrow()
                .stats().outputTokensPerSecond();
    }

    @Test
    void thePlannedSearchResolvesTheKneeToFivePerCentAndTellsATenPerCentSlowerStepApart() throws Exception {
        ServingSweep sweep = plannedSweep();
        assertEquals(4, sweep.search().bisections(), "a doubling narrowed to 1.05");
        assertTrue(sweep.search().finalStep() <= SearchPlan.RESOLUTION, sweep.encode());
        CapacitySearch.Outcome single = search(sweep, 1.0);
        CapacitySearch.Outcome slower = search(sweep, 1.1);
        StringBuilder note = new StringBuilder();
        for (CapacitySearch.Outcome o : List.of(single, slower)) {
            note.append(String.format(Locale.ROOT, "knee %.1f, broken at %.1f req/s (%.3f), %d points, %.0f s: %s%n",
                    o.kneePerSecond(), o.breakPerSecond(), o.breakPerSecond() / o.kneePerSecond(), o.points().size(),
                    o.elapsedSeconds(), o.stop()));
            assertTrue(o.breakPerSecond() / o.kneePerSecond() <= SearchPlan.RESOLUTION, o.stop());
            assertTrue(o.elapsedSeconds() <= sweep.search().budgetSeconds() + CapacitySearch.CAP_SLACK_SECONDS,
                    "inside its share of the budget: " + o.elapsedSeconds());
        }
        assertTrue(slower.kneePerSecond() < single.kneePerSecond(), "two knees: " + slower.kneePerSecond() + " vs "
                + single.kneePerSecond());
        double served = servedAtSaturation(slower) / servedAtSaturation(single);
        note.append(String.format(Locale.ROOT, "served at saturation: %.0f vs %.0f output tokens/s (%.3f)%n",
                servedAtSaturation(slower), servedAtSaturation(single), served));
        io.p2pbench.TestNotes.write("ServingKneeResolutionTest", note);
        assertEquals(1 / 1.1, served, 0.05, "the served rate at saturation follows the step's speed");
    }

    @Test
    void theWholeServingSweepOfOneModelIsPredictedInsideTenMinutes() throws Exception {
        List<Combination> plan = RunPlanner.plan(TopologyJson.read(Path.of("results/h200x1-single-r580/topology.json")),
                new RunPlanner.Request(Preset.QUICK, null, null, java.util.Set.of(RunPlanner.SERVING),
                        Group.parse("0,0"), "DENSE_8B", null, null));
        double seconds = TimePredictor.run(plan, Preset.QUICK, TimePredictor.RunShape.current(), c -> null)[0];
        assertTrue(seconds <= 600, "predicted " + seconds + " s");
        for (Combination c : plan) {
            if (!c.plannedSkip()) {
                CapacitySearch.Outcome o = ServingPlanner.predictedSearch((io.p2pbench.spec.Serving)
                        io.p2pbench.spec.WorkloadSpec.of(c));
                assertTrue(o.breakPerSecond() / o.kneePerSecond() <= SearchPlan.RESOLUTION, c.id() + ": " + o.stop());
            }
        }
    }
}
