package io.p2pbench.report.verdict;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.stats.ExactTests;
import io.p2pbench.report.stats.RoundTest;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.report.text.Numbers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rows of a comparison that were measured in rounds ({@code run --rounds}): each round one figure, the rounds
 * of both sides tested with Student's t ({@link RoundTest}) with the machine's drift between runs ({@link RunDrift});
 * the row's floor is its interval's half-width, the change these rounds could tell from none. {@link Comparison}
 * judges the row as every other.
 */
final class RoundRows {
    private RoundRows() {}

    /** The figure of each round of one run's measurement: its median over batches (latency: p50), R-7. */
    static double[] roundFigures(Measurement m) {
        return m.rounds().stream().mapToDouble(r -> Statistics.percentile(r, 50)).toArray();
    }

    /**
     * The row {@code key} of the two sides judged by its rounds, or null when neither side measured it in rounds or
     * the rounds are too few for the test ({@link RoundTest#applies}). A run whose rounds of the row disagree
     * ({@link RoundTest#disturbed}) is set aside from its side; where that leaves a side without the row, the row is
     * not judged ({@link Comparison.Unjudged#DISTURBED}).
     */
    static Comparison.Row measure(List<Map<String, Measurement>> base, List<Map<String, Measurement>> cand, String key,
                                  Measurement b, Measurement c, RunDrift drift, Hosts hosts) {
        boolean aside = RunDrift.setsAside(b.key());
        Map<Boolean, List<Map<String, Measurement>>> baseSplit = byDisturbance(base, key, aside);
        Map<Boolean, List<Map<String, Measurement>>> candSplit = byDisturbance(cand, key, aside);
        List<Map<String, Measurement>> baseKept = baseSplit.get(false);
        List<Map<String, Measurement>> candKept = candSplit.get(false);
        boolean gone = runsOf(baseKept, key) == 0 || runsOf(candKept, key) == 0;
        List<Map<String, Measurement>> bUse = gone ? base : baseKept;
        List<Map<String, Measurement>> cUse = gone ? cand : candKept;
        double[] bRounds = roundFigures(bUse, key);
        double[] cRounds = roundFigures(cUse, key);
        int bRuns = runsOf(bUse, key);
        int cRuns = runsOf(cUse, key);
        if ((bRounds.length == bRuns && cRounds.length == cRuns) || !RoundTest.applies(bRounds, cRounds)) {
            return null;
        }
        // What the machine's rounds spread to on some host and these rounds do not show may lie between the runs, up
        // to the most any host of the table drifted between its runs where the table knows that (RunDrift.rowDriftMax).
        double spread = RoundTest.spread(bRounds, cRounds, aside);
        double rest = drift.total(b.key());
        double unseen = rest * rest - spread * spread;
        double most = drift.rowDriftMax(b.key());
        if (!Double.isNaN(most)) {
            unseen = Math.min(unseen, most * most);
        }
        double tau = Math.sqrt(Math.max(drift.tau(b.key()) * drift.tau(b.key()), unseen));
        double variance = tau * tau * (1.0 / bRuns + 1.0 / cRuns);
        double host = hosts.differ() ? drift.hostTau(b.key()) : 0;
        variance += host * host * (1.0 / hosts.baseline() + 1.0 / hosts.candidate());
        List<String> disagree = new ArrayList<>();
        candSplit.get(true).forEach(r -> disagree.add(disagreement("candidate", r.get(key))));
        baseSplit.get(true).forEach(r -> disagree.add(disagreement("baseline", r.get(key))));
        String note = gone || disagree.isEmpty() ? "" : "; set aside, rounds disagree: " + String.join("; ", disagree);
        Comparison.Row row = measure(b, c, bRounds, cRounds, tau, host, variance, bRuns, cRuns, note);
        return gone ? row.unjudged(Comparison.Unjudged.DISTURBED, "rounds disagree (" + String.join("; ", disagree)
                + "): " + DISTURBED) : row;
    }

    /** What a side's run whose rounds disagree is told: the machine, not the build. */
    static final String DISTURBED = "the machine was disturbed during the run, a change of the build moves every round "
            + "alike; not judged, rerun it";

    /** A side's runs by whether their rounds of the row disagree ({@link RoundTest#disturbed}): true, or false. */
    private static Map<Boolean, List<Map<String, Measurement>>> byDisturbance(List<Map<String, Measurement>> runs,
                                                                          String key, boolean aside) {
        return runs.stream().collect(Collectors.partitioningBy(r -> r.get(key) != null && RoundTest.disturbed(
                Arrays.stream(roundFigures(r.get(key))).map(Math::log).toArray(), aside)));
    }

    /** How a run's rounds disagree ({@code candidate 5 of 8 rounds more than 10% below their upper quartile 101}). */
    private static String disagreement(String side, Measurement m) {
        double[] logs = Arrays.stream(roundFigures(m)).map(Math::log).toArray();
        return String.format(Locale.ROOT, "%s %d of %d rounds more than %s%% below their upper quartile %s", side,
                RoundTest.belowUpperQuartile(logs), logs.length, Numbers.plain(100 * RoundTest.SLOW),
                Comparison.significant(Math.exp(RoundTest.upperQuartile(logs))));
    }

    /**
     * Which physical GPUs the two sides ran on.
     *
     * @param differ whether no host of the candidate's runs is among the baseline's (GPU UUIDs differ)
     * @param baseline how many hosts the baseline's runs ran on
     * @param candidate how many the candidate's ran on
     */
    record Hosts(boolean differ, int baseline, int candidate) {
        /** The hosts of {@code baselines} against those of {@code candidates}; unknown hosts count as the same. */
        static Hosts of(List<ResultData> baselines, List<ResultData> candidates) {
            Set<String> b = baselines.stream().map(ResultData::host).collect(Collectors.toSet());
            Set<String> c = candidates.stream().map(ResultData::host).collect(Collectors.toSet());
            boolean known = !b.contains("") && !c.contains("");
            return new Hosts(known && Collections.disjoint(b, c), b.size(), c.size());
        }
    }

    /** Figures, ratio and interval of a row of {@code tau} drift between runs, over the runs of each side. */
    static Comparison.Row measure(Measurement b, Measurement c, double[] bRounds, double[] cRounds, double tau,
                                  int baselineRuns, int candidateRuns) {
        return measure(b, c, bRounds, cRounds, tau, 0, tau * tau * (1.0 / baselineRuns + 1.0 / candidateRuns),
                baselineRuns, candidateRuns, "");
    }

    private static Comparison.Row measure(Measurement b, Measurement c, double[] bRounds, double[] cRounds, double tau,
                                          double hostTau, double driftVariance, int baselineRuns, int candidateRuns,
                                          String note) {
        RoundTest.Result t = RoundTest.of(bRounds, cRounds, Comparison.LEVEL, driftVariance,
                RunDrift.setsAside(b.key()));
        // The same rounds a run, spread and drift with Comparison.MORE_RUNS more baseline runs: only the terms of the
        // baseline's rounds and runs shrink.
        int more = baselineRuns + Comparison.MORE_RUNS;
        double moreRounds = bRounds.length * (double) more / baselineRuns;
        double moreDrift = driftVariance - tau * tau * (1.0 / baselineRuns - 1.0 / more);
        double withMore = Math.exp(RoundTest.halfWidth(t.spread(), moreRounds, cRounds.length, moreDrift,
                Comparison.LEVEL)) - 1;
        double bv = Math.exp(t.baselineLog());
        double cv = bv * t.ratio();
        ExactTests.Interval interval = new ExactTests.Interval(t.low(), t.high(), Comparison.LEVEL);
        NoiseFloors.Floor floor = new NoiseFloors.Floor(Math.exp(t.halfWidth()) - 1, String.format(Locale.ROOT,
                "%s%d vs %d, spread %.2f%%, drift between runs %.2f%%%s, t with %d degrees of freedom", SOURCE,
                bRounds.length, cRounds.length, 100 * t.spread(), 100 * tau, hostTau > 0 ? String.format(Locale.ROOT,
                ", between hosts %.2f%%", 100 * hostTau) : "", t.degrees()) + note, true, withMore);
        return new Comparison.Row(b, c, bRounds, cRounds, bv, cv, t.ratio(), interval, t.p(), 0, Double.NaN, floor,
                Verdict.SAME, "");
    }

    /** How a floor of a row judged by its rounds starts. */
    static final String SOURCE = "rounds: ";

    /** Whether {@code floor} is a row's judged by its rounds. */
    static boolean judgedByRounds(NoiseFloors.Floor floor) {
        return floor.byRounds();
    }

    /**
     * The rounds of a side's runs as people read them: {@code 4}, {@code 4+4}, or {@code 4-16} for a run whose rows drawn
     * at a CUDA context's level took more rounds than the rest.
     */
    static String rounds(List<ResultData> runs) {
        return String.join("+", runs.stream().map(r -> {
            IntSummaryStatistics n = r.measurements().stream().mapToInt(Measurement::roundCount).filter(k -> k > 1)
                    .summaryStatistics();
            return n.getCount() == 0 ? "1" : n.getMin() == n.getMax() ? Integer.toString(n.getMax())
                    : n.getMin() + "-" + n.getMax();
        }).toList());
    }

    /** The figures of every round of every run that has the row. */
    private static double[] roundFigures(List<Map<String, Measurement>> runs, String key) {
        return runs.stream().map(r -> r.get(key)).filter(Objects::nonNull)
                .flatMapToDouble(m -> Arrays.stream(roundFigures(m))).toArray();
    }

    /** How many runs have the row. */
    private static int runsOf(List<Map<String, Measurement>> runs, String key) {
        return (int) runs.stream().map(r -> r.get(key)).filter(Objects::nonNull).count();
    }
}
