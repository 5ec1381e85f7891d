package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.partition.Plan;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The partition figures compare gates, on fixture figures: step time and tokens/s as one measurement, the request
 * latency another.
 */
class PartitionComparisonTest {
    private static PartitionVerdict.Figure fig(String transport, List<Double> stepUs, List<Double> request) {
        // tokens/s of a decode step of batch 8
        List<Double> tokens = stepUs.stream().map(s -> 8 / (s / 1e6)).toList();
        return new PartitionVerdict.Figure("h200x1", "DENSE_8B", "DECODE", 8, true, Plan.TP, transport, "0,0", true,
                tokens, stepUs, request, 0.2, 100, null);
    }

    private static List<GatedFigures.Group> compare(List<PartitionVerdict.Figure> b, List<PartitionVerdict.Figure> c,
                                                    int[] only) {
        return PartitionComparison.compare(b, c, 5, null, true, only);
    }

    @Test
    void aStepOneAndAHalfTimesLongerIsWorseInStepTimeAndTokens() {
        int[] only = new int[2];
        List<GatedFigures.Group> g = compare(List.of(fig("P2P", List.of(5000.0), List.of(450e3))),
                List.of(fig("P2P", List.of(7500.0), List.of(455e3))), only);
        assertEquals(2, g.size(), "the step (time and tokens/s) and the request latency");
        GatedFigures.Group step = g.get(0);
        assertEquals(Verdict.WORSE, step.verdict(), step.headline().why());
        assertEquals(List.of("step time (µs)", "tokens/s"), step.rows().stream().map(GatedFigures.Row::figure).toList());
        assertTrue(step.rows().stream().allMatch(r -> r.verdict() == Verdict.WORSE));
        assertTrue(step.headline().why().contains("noise floor 4.0% (A/A reruns, 7 runs on two H100 hosts"),
                step.headline().why());
        // Judged since the floors were measured (stated 20% before: cannot judge at 5%).
        assertEquals(Verdict.SAME, g.get(1).verdict(), "request +1.1%, inside the threshold and its 4% floor: "
                + g.get(1).headline().why());
        assertEquals(0, only[0] + only[1]);
    }

    /** A step 6% longer is beyond the threshold and the measured 4% floor: worse (within the stated 10%, not before). */
    @Test
    void aStepSixPercentLongerIsWorseAndThreePercentIsSame() {
        List<GatedFigures.Group> worse = compare(List.of(fig("P2P", List.of(5000.0), List.of())),
                List.of(fig("P2P", List.of(5300.0), List.of())), new int[2]);
        assertEquals(Verdict.WORSE, worse.get(0).verdict(), worse.get(0).headline().why());
        List<GatedFigures.Group> same = compare(List.of(fig("P2P", List.of(5000.0), List.of())),
                List.of(fig("P2P", List.of(5150.0), List.of())), new int[2]);
        assertEquals(Verdict.SAME, same.get(0).verdict(), same.get(0).headline().why());
    }

    /** The figure as read from runs whose step figures were each the fastest of {@code rounds} rounds. */
    private static PartitionVerdict.Figure inRounds(PartitionVerdict.Figure f, Integer... rounds) {
        return new PartitionVerdict.Figure(f.machine(), f.model(), f.phase(), f.batch(), f.graph(), f.plan(),
                f.transport(), f.group(), f.singleGpu(), f.tokensPerSecond(), f.stepUs(), f.requestUs(),
                f.commShare(), f.busGBps(), f.skipReason(), f.skipCause(), List.of(rounds), f.requestRounds());
    }

    /**
     * Steps taken from one round on one side and as the fastest of three on the other are not judged (the fastest of
     * three is never slower than one round), the request still is (one round on both sides); with the same rounds on
     * both sides a step 6% longer is worse, and runs read as one round each count as the runs before rounds.
     */
    @Test
    void stepsOfDifferentRoundsAreNotJudgedAndLikeRoundsAre() {
        PartitionVerdict.Figure base = fig("P2P", List.of(5000.0), List.of(450e3));
        PartitionVerdict.Figure slow = fig("P2P", List.of(5300.0), List.of(500e3));
        List<GatedFigures.Group> mixed = compare(List.of(base), List.of(inRounds(slow, 3)), new int[2]);
        assertEquals(Verdict.UNJUDGED, mixed.get(0).verdict());
        assertTrue(mixed.get(0).rows().stream().allMatch(r -> r.why().equals(PartitionComparison.ROUNDS_DIFFER)));
        assertEquals(Verdict.WORSE, mixed.get(1).verdict(), "the request is one round on both sides");
        assertEquals(Verdict.UNJUDGED, compare(List.of(inRounds(base, 3, 1)), List.of(inRounds(slow, 3)),
                new int[2]).get(0).verdict(), "a side mixing runs of one and three rounds");
        assertEquals(Verdict.WORSE, compare(List.of(inRounds(base, 3)), List.of(inRounds(slow, 3)), new int[2])
                .get(0).verdict());
        assertEquals(Verdict.WORSE, compare(List.of(inRounds(base, 1)), List.of(slow), new int[2]).get(0).verdict());
    }

    @Test
    void aChangeInsideTheFloorCannotBeJudgedAndUnmatchedConfigurationsAreCounted() {
        int[] only = new int[2];
        // the baseline's runs 8% apart: its floor is raised to that, wider than the threshold
        List<GatedFigures.Group> g = compare(List.of(fig("P2P", List.of(5000.0, 5400.0), List.of()),
                        fig("P2P_OFF", List.of(5000.0), List.of())),
                List.of(fig("P2P", List.of(5500.0), List.of()), fig("HOST_STAGED", List.of(9000.0), List.of())), only);
        assertEquals(1, g.size());
        assertEquals(Verdict.UNJUDGED, g.get(0).verdict(), g.get(0).headline().why());
        assertEquals(1, only[0], "P2P_OFF only in the baseline");
        assertEquals(1, only[1], "HOST_STAGED only in the candidate");
    }

    /**
     * The changes between hosts of 2026-12-07, TP host-staged prefill: 738541 µs on one H100 host, 778114 on a third
     * (+5.4%) and 873244 on a fourth (+18.2%), their activations through the host's memory. On other GPUs of the kind
     * such a configuration is not judged at all, whatever the change (an 18.2% step and a 1.5 times longer one alike),
     * and counted apart from the wider floors; on one host the 5.4% change stays worse.
     */
    @Test
    void aConfigurationStagedThroughHostMemoryIsNotJudgedAcrossHostsButOnOneHostIsWorse() {
        List<PartitionVerdict.Figure> b = List.of(fig("HOST_STAGED", List.of(738541.0), List.of(1088422.0)));
        for (double step : new double[] {778114.0, 873244.0, 1.5 * 738541.0}) {
            List<PartitionVerdict.Figure> c = List.of(fig("HOST_STAGED", List.of(step), List.of(1210057.0)));
            List<GatedFigures.Group> across = PartitionComparison.compare(b, c, 5, null, false, new int[2]);
            for (GatedFigures.Group g : across) {
                assertEquals(Verdict.UNJUDGED, g.verdict(), g.headline().why());
                assertTrue(g.headline().otherHosts() && !g.headline().withinWiderFloor(), g.headline().why());
                assertTrue(g.headline().why().startsWith("staged through host memory, on other GPUs of this kind (GPU "
                        + "UUIDs differ): not judged"), g.headline().why());
            }
            GatedFigures.Result r = new GatedFigures.Result(across, 0, 0, "", true, false);
            assertEquals(2, r.otherHosts());
            assertEquals(0, r.widerFloors());
        }
        List<PartitionVerdict.Figure> third = List.of(fig("HOST_STAGED", List.of(778114.0), List.of(1113588.0)));
        List<GatedFigures.Group> oneHost = PartitionComparison.compare(b, third, 5, null, true, new int[2]);
        assertEquals(Verdict.WORSE, oneHost.get(0).verdict(), oneHost.get(0).headline().why());
    }

    /**
     * Not staged through host memory, the largest change between the four H100 hosts, 3.7% (TP with P2P off, prefill),
     * lies within the 9% floor between hosts: not judged at ±5%, same at ±10%, and counted as a wider floor.
     */
    @Test
    void aConfigurationNotStagedKeepsTheFloorsBetweenHosts() {
        List<PartitionVerdict.Figure> b = List.of(fig("P2P_OFF", List.of(431088.0), List.of()));
        List<PartitionVerdict.Figure> c = List.of(fig("P2P_OFF", List.of(447040.0), List.of()));
        List<GatedFigures.Group> across = PartitionComparison.compare(b, c, 5, null, false, new int[2]);
        assertEquals(Verdict.UNJUDGED, across.get(0).verdict(), across.get(0).headline().why());
        assertTrue(across.get(0).headline().withinWiderFloor() && !across.get(0).headline().otherHosts());
        assertEquals(Verdict.SAME, PartitionComparison.compare(b, c, 10, null, false, new int[2]).get(0).verdict());
    }

    /** Between hosts a step 1.5 times longer is still worse: the wider floor hides 9%, not 50%. */
    @Test
    void aStepOneAndAHalfTimesLongerIsWorseBetweenHostsToo() {
        List<GatedFigures.Group> g = PartitionComparison.compare(List.of(fig("P2P", List.of(5000.0), List.of())),
                List.of(fig("P2P", List.of(7500.0), List.of())), 5, null, false, new int[2]);
        assertEquals(Verdict.WORSE, g.get(0).verdict(), g.get(0).headline().why());
    }
}
