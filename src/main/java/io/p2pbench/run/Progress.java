package io.p2pbench.run;

import io.p2pbench.spec.Combination;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.Sizes;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;

/**
 * One progress line per finished benchmark, with the time left predicted and scaled by how the run went so far, the
 * more as more of it has gone: the first benchmark of a run also starts its JVM, and scaled by it alone the quick
 * preset's time left read 1m42s on the H100 node for a run of 66 s (2026-12-07 12:09Z), 1m10s replayed with this rule.
 */
final class Progress {
    /**
     * Predicted seconds done at which the run's own pace counts half: the ETA is the predicted time left times
     * {@code w * actual/predicted + (1 - w)}, {@code w = done / (done + TRUST_SECONDS)}.
     */
    static final double TRUST_SECONDS = 10;
    private final PrintWriter out;
    private final double[][] predictedOf;
    private final int[] roundsLeft;
    private final int[] roundsDone;
    private int toRun;
    private double predictedLeft;
    private double predictedDone;
    private double actualDone;
    private int done;

    /**
     * Every round of a combination predicted alike.
     *
     * @param predictedOf predicted seconds of one round of each combination of the plan
     * @param roundsOf how many rounds of each combination will run (0 for a planned skip)
     */
    Progress(PrintWriter out, double[] predictedOf, int[] roundsOf) {
        this(out, alike(predictedOf, roundsOf), roundsOf);
    }

    /**
     * @param predictedOf {@code [k][i]}: predicted seconds of the {@code k}-th round of combination {@code i} (a
     *     combination's rounds run in order: {@link TimePredictor#perRound}); 0 past its rounds
     * @param roundsOf how many rounds of each combination will run (0 for a planned skip)
     */
    Progress(PrintWriter out, double[][] predictedOf, int[] roundsOf) {
        for (double[] round : predictedOf) {
            if (round.length != roundsOf.length) {
                throw new IllegalArgumentException(round.length + " predictions for " + roundsOf.length
                        + " combinations");
            }
        }
        this.out = out;
        this.predictedOf = new double[predictedOf.length][];
        for (int k = 0; k < predictedOf.length; k++) {
            this.predictedOf[k] = predictedOf[k].clone();
        }
        this.roundsLeft = roundsOf.clone();
        this.roundsDone = new int[roundsOf.length];
        this.toRun = Arrays.stream(roundsOf).sum();
        double left = 0;
        for (int i = 0; i < roundsOf.length; i++) {
            for (int k = 0; k < roundsOf[i]; k++) {
                left += predicted(k, i);
            }
        }
        this.predictedLeft = left;
    }

    private static double[][] alike(double[] perRound, int[] roundsOf) {
        int rounds = Arrays.stream(roundsOf).max().orElse(0);
        double[][] out = new double[rounds][perRound.length];
        for (int i = 0; i < perRound.length; i++) {
            for (int k = 0; k < roundsOf[i]; k++) {
                out[k][i] = perRound[i];
            }
        }
        return out;
    }

    /** The prediction of the {@code k}-th round of combination {@code i}; 0 past the rounds planned. */
    private double predicted(int k, int i) {
        return k < predictedOf.length ? predictedOf[k][i] : 0;
    }

    /**
     * Counts combination {@code index} (or one round of it, {@code round} naming which, else empty) done after
     * {@code tookSeconds} and prints its line.
     */
    void done(int index, Combination c, RunManifest.Entry e, double tookSeconds, String round) {
        done++;
        int k = roundsDone[index]++;
        predictedDone += predicted(k, index);
        predictedLeft -= predicted(k, index);
        actualDone += tookSeconds;
        roundsLeft[index] = Math.max(0, roundsLeft[index] - 1);
        if (e.outcome() != Outcome.OK && roundsLeft[index] > 0) {
            // A round that did not measure ends its combination: its later rounds will not run.
            for (int later = k + 1; later <= k + roundsLeft[index]; later++) {
                predictedLeft -= predicted(later, index);
            }
            toRun -= roundsLeft[index];
            roundsLeft[index] = 0;
        }
        double w = predictedDone / (predictedDone + TRUST_SECONDS);
        double eta = Math.max(0, predictedLeft) * (w * actualDone / Math.max(predictedDone, 1e-9) + (1 - w));
        out.printf(Locale.ROOT, "[%3d/%d] %-7s %-48s %s  (%.1fs, ETA %s)%n", done, toRun, e.status(), c.id() + round,
                e.headline() != null ? e.headline() + verifiedNote(e) : e.reason() == null ? "" : e.reason(),
                tookSeconds, RunPlanner.formatDuration(eta));
        out.flush();
    }

    private static String verifiedNote(RunManifest.Entry e) {
        return e.bytesVerified() == null ? "" : "; " + Sizes.format(e.bytesVerified()) + " verified";
    }
}
