package io.p2pbench.serving;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether the server of one serving point kept up with its open-loop load: the output tokens it
 * produced over the measured window against the output tokens of every request that arrived in that
 * window (warm-up, measured and cool-down alike), both counted over the same interval. Their difference
 * is exactly how much the backlog (tokens owed to requests waiting or running) grew over the window. A
 * stable server's backlog is stationary, so it grows by at most what it holds at once; an overloaded
 * server's grows in proportion to the window. A point whose server produced less than {@code 1 - }
 * {@link #MARGIN} of what arrived is overloaded: its queue grows, and a short window would otherwise
 * hide that behind latencies that have not yet had time to break the target.
 *
 * <p>The arrivals are not in the records (only the measured requests are): they are the sweep's seeded
 * trace at the point's rate ({@link LoadGenerator}), regenerated, and the measured requests must be in
 * it exactly (index, arrival, prompt and output tokens), else the point cannot be judged stable.
 * The window runs from the first measured arrival to the last measured request's last token; arrivals go
 * on through it (cool-down), so it has no drain tail, and it starts after the warm-up.
 *
 * @param windowSeconds the measured window's length
 * @param arrivals requests that arrived in it
 * @param offeredTokens their output tokens
 * @param servedTokens output tokens the steps ending in it produced (of every request)
 * @param traced whether the measured requests are the sweep's trace (otherwise nothing is judged)
 */
public record Stability(double windowSeconds, int arrivals, long offeredTokens, long servedTokens, boolean traced) {
    /**
     * Largest shortfall of the served output tokens below the offered ones of a point that keeps up; the
     * figures of real runs it was set from are in docs/serving.md.
     */
    public static final double MARGIN = 0.10;
    /** Most arrivals regenerated for one point: a window or index beyond it is not a serving point. */
    private static final int MAX_ARRIVALS = 10_000_000;

    /**
     * The stability of a point at {@code ratePerSecond} of {@code w} whose measured requests are {@code measured}
     * and whose window [{@code windowStartNanos}, {@code windowEndNanos}] saw {@code windowTokens} output tokens.
     */
    public static Stability of(Workload w, double ratePerSecond, List<RequestRecord> measured, long windowStartNanos,
                               long windowEndNanos, long windowTokens) {
        Map<Integer, RequestRecord> byIndex = new HashMap<>();
        int lastIndex = -1;
        for (RequestRecord r : measured) {
            byIndex.put(r.index(), r);
            lastIndex = Math.max(lastIndex, r.index());
        }
        boolean traced = byIndex.size() == measured.size() && lastIndex < MAX_ARRIVALS;
        int matched = 0;
        int arrivals = 0;
        long tokens = 0;
        LoadGenerator trace = new LoadGenerator(w, ratePerSecond);
        for (Request r = trace.next(); traced && (r.index() <= lastIndex || r.arrivalNanos() <= windowEndNanos);
                r = trace.next()) {
            RequestRecord m = byIndex.get(r.index());
            if (m != null) {
                matched++;
                traced = m.arrivalNanos() == r.arrivalNanos() && m.promptTokens() == r.promptTokens()
                        && m.outputTokens() == r.outputTokens();
            }
            if (r.arrivalNanos() >= windowStartNanos && r.arrivalNanos() <= windowEndNanos) {
                arrivals++;
                tokens += r.outputTokens();
            }
            traced &= r.index() < MAX_ARRIVALS;
        }
        traced &= matched == measured.size();
        return new Stability((windowEndNanos - windowStartNanos) / 1e9, arrivals, tokens, windowTokens, traced);
    }

    /** Whether the server produced at least 1 - {@link #MARGIN} of the output tokens that arrived in the window. */
    public boolean keepsUp() {
        return traced && (offeredTokens == 0 || servedTokens >= (1 - MARGIN) * offeredTokens);
    }

    /** Served over offered output tokens (NaN without arrivals). */
    public double servedShare() {
        return offeredTokens == 0 ? Double.NaN : servedTokens / (double) offeredTokens;
    }

    /** Requests that arrived per second of the window. */
    public double offeredPerSecond() {
        return windowSeconds > 0 ? arrivals / windowSeconds : Double.NaN;
    }

    /** The served output tokens in requests per second: over the mean output of the window's arrivals. */
    public double servedPerSecond() {
        return offeredPerSecond() * servedShare();
    }

    /**
     * Why it does not keep up, in words ({@code the queue grows: offered 63.5 req/s, served 50.8 req/s (80% of the
     * output tokens that arrived in the 9.89 s window)}), or null when it does.
     */
    public String problem() {
        if (!traced) {
            return "its requests are not the sweep's seeded trace at this rate: whether the queue grows is unknown";
        }
        if (keepsUp()) {
            return null;
        }
        return String.format(Locale.ROOT, "the queue grows: offered %.3g req/s, served %.3g req/s (%.0f%% of the output "
                + "tokens that arrived in the %.3g s window)", offeredPerSecond(), servedPerSecond(), 100 * servedShare(),
                windowSeconds);
    }
}
