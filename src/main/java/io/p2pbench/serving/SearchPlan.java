package io.p2pbench.serving;

/**
 * How a capacity search walks the request rate ({@link CapacitySearch}): geometric steps of
 * {@code growth} up from {@code startRatePerSecond} until the target breaks (or, when it breaks at the start,
 * at most {@code maxDown} steps down), then {@code bisections} geometric bisections of the bracket;
 * at most {@code maxPoints} points and, beyond the first point, only points whose arrivals fit in
 * what is left of {@code budgetSeconds}.
 *
 * @param startRatePerSecond first rate, requests per second; every plan of one sweep starts here, so the
 *     geometric rates are common to all of them
 * @param growth factor between geometric rates (more than 1)
 */
public record SearchPlan(double startRatePerSecond, double growth, int maxPoints, int bisections, int maxDown,
                         double budgetSeconds) {
    /** Checks the bounds. */
    public SearchPlan {
        if (!(startRatePerSecond > 0) || startRatePerSecond > 1e6 || !(growth > 1) || growth > 16 || maxPoints < 1 || maxPoints > 64
                || bisections < 0 || maxDown < 0 || !(budgetSeconds > 0) || budgetSeconds > 86_400) {
            throw new IllegalArgumentException("bad search plan: start " + startRatePerSecond + "/s, growth " + growth + ", "
                    + maxPoints + " points, " + bisections + " bisections, " + maxDown + " down, budget " + budgetSeconds
                    + " s");
        }
    }

    /** The k-th geometric rate (k may be negative: below the start). */
    public double geometricRate(int k) {
        return startRatePerSecond * Math.pow(growth, k);
    }
}
