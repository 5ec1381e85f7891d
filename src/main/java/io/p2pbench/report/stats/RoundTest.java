package io.p2pbench.report.stats;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The comparison of one row's rounds: baseline rounds against candidate rounds, each round one figure (its
 * median over batches, or its p50), on the log scale, where a change is a ratio. Each round is measured in JVMs
 * of its own spread over the run (fresh CUDA context, streams, allocations), so the spread of a row's rounds is
 * evidence of how much that row moves between independent starts on this machine.
 *
 * <p>Model: the log figures of both sides are normal with one spread s, which is estimated from both sides
 * together (pooled variance, n_b + n_c - 2 degrees of freedom), never below {@link #MIN_SPREAD}; for rows whose rounds
 * now and then fall to a slow level, rounds at such a level are set aside first ({@link #kept}); each run adds a
 * run-level shift of spread tau (the between-run drift its rounds do not show, {@code RunDrift}), so the difference
 * of the means has variance s^2 (1/n_b + 1/n_c) + tau^2 (1/k_b + 1/k_c) over k_b and k_c runs; it is tested with
 * Student's t (two-sided) and its interval is the t interval. Four rounds on each side give 6 degrees of freedom. The pooling keeps a side whose rounds happen to agree closely from making any change
 * look significant; the floor on s keeps four identical figures (a latency p50 of a binned histogram) from doing
 * the same.
 */
public final class RoundTest {
    /** The least spread of a row's log figures this test assumes (0.3%): below it rounds agree by chance. */
    public static final double MIN_SPREAD = 0.003;
    /** Fewest degrees of freedom the test needs: with fewer, s is not known well enough to judge anything. */
    public static final int MIN_DEGREES = 3;
    /** A round this much below the median of its side's rounds is at a slow level ({@link #kept}): 10%. */
    public static final double SLOW = 0.10;

    private RoundTest() {}

    /**
     * One row's test.
     *
     * @param logRatio mean log candidate minus mean log baseline
     * @param spread s, the pooled spread of the log figures as used (after {@link #MIN_SPREAD})
     * @param degrees degrees of freedom of s
     * @param p two-sided p of no change
     * @param low lower end of the ratio's interval
     * @param high upper end
     * @param halfWidth half the interval's width on the log scale: the change this row could tell from none
     * @param baselineLog the baseline's mean log figure over the rounds kept ({@link #kept})
     */
    public record Result(double logRatio, double spread, int degrees, double p, double low, double high,
                         double halfWidth, double baselineLog) {
        /** The ratio candidate / baseline of the geometric means. */
        public double ratio() {
            return Math.exp(logRatio);
        }
    }

    /** Whether {@code baseline} and {@code candidate} rounds (positive figures) are enough for the test. */
    public static boolean applies(double[] baseline, double[] candidate) {
        return baseline.length >= 1 && candidate.length >= 1 && baseline.length + candidate.length - 2 >= MIN_DEGREES
                && Arrays.stream(baseline).allMatch(v -> v > 0 && Double.isFinite(v))
                && Arrays.stream(candidate).allMatch(v -> v > 0 && Double.isFinite(v));
    }

    /**
     * The test of {@code candidate} rounds against {@code baseline} rounds, with an interval of coverage
     * {@code level}; {@link #applies} must hold.
     */
    public static Result of(double[] baseline, double[] candidate, double level) {
        return of(baseline, candidate, level, 0, 1, 1);
    }

    /**
     * The same with a between-run drift {@code tau} (a spread of log figures) over {@code baselineRuns} and {@code
     * candidateRuns} runs.
     */
    public static Result of(double[] baseline, double[] candidate, double level, double tau, int baselineRuns,
                            int candidateRuns) {
        return of(baseline, candidate, level, tau * tau * (1.0 / baselineRuns + 1.0 / candidateRuns));
    }

    /**
     * The same with the variance the two sides' run-level (and host-level) drift adds to the difference of their
     * means, {@code driftVariance} (log scale).
     */
    public static Result of(double[] baseline, double[] candidate, double level, double driftVariance) {
        return of(baseline, candidate, level, driftVariance, false);
    }

    /**
     * The same, each side's rounds at a slow level set aside where {@code setAside} says so ({@link #kept}: rows whose
     * rounds now and then fall to a slow level for a whole process, {@code RunDrift.setsAside}).
     */
    public static Result of(double[] baseline, double[] candidate, double level, double driftVariance,
                            boolean setAside) {
        if (!applies(baseline, candidate)) {
            throw new IllegalArgumentException("the round test needs positive figures and " + MIN_DEGREES
                    + " degrees of freedom: " + baseline.length + " vs " + candidate.length + " rounds");
        }
        double[] x = kept(Arrays.stream(baseline).map(Math::log).toArray(), setAside);
        double[] y = kept(Arrays.stream(candidate).map(Math::log).toArray(), setAside);
        double mx = mean(x);
        double my = mean(y);
        int degrees = x.length + y.length - 2;
        double s = logSpread(x, y);
        double se = standardError(s, x.length, y.length, driftVariance);
        double d = my - mx;
        TDistribution t = new TDistribution(null, degrees);
        double p = Math.min(1, 2 * t.cumulativeProbability(-Math.abs(d) / se));
        double half = t.inverseCumulativeProbability(0.5 + level / 2) * se;
        return new Result(d, s, degrees, p, Math.exp(d - half), Math.exp(d + half), half, mx);
    }

    /**
     * The half-width (log scale) of the interval {@link #of} would give with pooled spread {@code spread} over
     * {@code baselineRounds} and {@code candidateRounds} rounds (a count may be fractional in an estimate) and drift
     * variance {@code driftVariance}: the degrees of freedom are the rounds less two.
     */
    public static double halfWidth(double spread, double baselineRounds, double candidateRounds, double driftVariance,
                                   double level) {
        double se = standardError(spread, baselineRounds, candidateRounds, driftVariance);
        TDistribution t = new TDistribution(null, Math.max(1, baselineRounds + candidateRounds - 2));
        return t.inverseCumulativeProbability(0.5 + level / 2) * se;
    }

    /** The standard error of the difference of the sides' mean log figures: their rounds' spread and the drift. */
    private static double standardError(double spread, double baselineRounds, double candidateRounds,
                                        double driftVariance) {
        return Math.sqrt(spread * spread * (1.0 / baselineRounds + 1.0 / candidateRounds) + driftVariance);
    }

    /**
     * The pooled spread s of the log figures of {@code baseline} and {@code candidate} rounds as {@link #of} uses it
     * (never below {@link #MIN_SPREAD}); {@link #applies} must hold.
     */
    public static double spread(double[] baseline, double[] candidate) {
        return spread(baseline, candidate, false);
    }

    /** The same, rounds at a slow level set aside where {@code setAside} says so. */
    public static double spread(double[] baseline, double[] candidate, boolean setAside) {
        return logSpread(kept(Arrays.stream(baseline).map(Math::log).toArray(), setAside),
                kept(Arrays.stream(candidate).map(Math::log).toArray(), setAside));
    }

    /**
     * The log figures of a side's (or a run's) rounds that are kept: where {@code setAside} and there are eight rounds
     * or more, those more than {@link #SLOW} below the median of the rounds are set aside, as long as they are at most
     * a quarter of them; otherwise all. On one H100 host a copy through pinned host memory now and then drew a slow
     * level for a whole process (3 rounds of 32 at 24-37 GB/s among 55.1), and one such round moved a run's mean and
     * spread far more than the copy's level moved; a level that moved in most rounds moves the median and is kept.
     */
    public static double[] kept(double[] logs, boolean setAside) {
        if (!setAside || logs.length < 8) {
            return logs;
        }
        double cut = Statistics.percentile(logs, 50) + Math.log1p(-SLOW);
        long slow = Arrays.stream(logs).filter(v -> v < cut).count();
        return slow == 0 || slow > logs.length / 4 ? logs : Arrays.stream(logs).filter(v -> v >= cut).toArray();
    }

    /**
     * Whether a run's rounds disagree beyond setting aside: where {@code setAside} and there are eight rounds or more,
     * more than a quarter of them lie more than {@link #SLOW} below the rounds' upper quartile.
     * A change of the build moves every round alike; on one H100 host (set V's, docs/compare.md) a run's copies through
     * pinned host memory fell in 5 of 8 rounds (H2D+D2H at 64 MiB: 69.7-86.5 GB/s) while its other 3 and every round
     * of the runs before and after kept 101-103: the machine was disturbed, and with all its rounds kept an A/A
     * comparison read it as 18% worse. A level that moved in more than three quarters of the rounds moves the upper
     * quartile too and is judged.
     */
    public static boolean disturbed(double[] logs, boolean setAside) {
        if (!setAside || logs.length < 8) {
            return false;
        }
        return belowUpperQuartile(logs) > logs.length / 4;
    }

    /** The upper quartile of a side's log figures: the level {@link #disturbed} measures slow rounds from. */
    public static double upperQuartile(double[] logs) {
        return Statistics.percentile(logs, 75);
    }

    /** How many of a side's log figures lie more than {@link #SLOW} below their {@link #upperQuartile}. */
    public static long belowUpperQuartile(double[] logs) {
        double cut = upperQuartile(logs) + Math.log1p(-SLOW);
        return Arrays.stream(logs).filter(v -> v < cut).count();
    }

    private static double logSpread(double[] x, double[] y) {
        int degrees = x.length + y.length - 2;
        return Math.max(MIN_SPREAD, Math.sqrt((squares(x, mean(x)) + squares(y, mean(y))) / degrees));
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    private static double squares(double[] v, double mean) {
        return Arrays.stream(v).map(a -> (a - mean) * (a - mean)).sum();
    }
}
