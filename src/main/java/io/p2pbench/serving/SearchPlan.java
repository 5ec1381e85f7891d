package io.p2pbench.serving;

/**
 * How a capacity search walks the request rate ({@link CapacitySearch}): geometric steps of
 * {@code growth} up from {@code startRatePerSecond} until the target breaks (or, when it breaks at the start,
 * at most {@code maxDown} steps down), then at most {@code bisections} geometric bisections of the bracket,
 * none once the bracket's ratio is {@link #RESOLUTION} or less; at most {@code maxPoints} points and, beyond the
 * first point, only points whose arrivals fit in what is left of {@code budgetSeconds}.
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

    /**
     * The knee's resolution the planner asks for: a search stops bisecting once its broken rate is at most this
     * factor above its met rate. A served rate at saturation a few per cent below another's (TP against SINGLE on
     * one GPU: about 9%) then reads as another knee, where two bisections of a doubling (2^(1/4), +18.9%) could not
     * tell them apart.
     */
    public static final double RESOLUTION = 1.05;

    /** The bisections that narrow a bracket of {@code growth} to {@code resolution} or less (4 for 2 and 1.05). */
    public static int bisectionsFor(double growth, double resolution) {
        int b = 0;
        while (Math.pow(growth, Math.pow(0.5, b)) > resolution * (1 + 1e-12)) {
            b++;
        }
        return b;
    }

    /** The ratio of broken to met rate after every bisection of a bracket of one geometric step. */
    public double finalStep() {
        return Math.pow(growth, Math.pow(0.5, bisections));
    }

    /** The k-th geometric rate (k may be negative: below the start). */
    public double geometricRate(int k) {
        return startRatePerSecond * Math.pow(growth, k);
    }
}
