package io.p2pbench.serving;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The highest request rate at which a plan meets a latency {@link Target}: serving points at rates
 * chosen by a {@link SearchPlan} (geometric, then bisection of the bracket until the broken rate is at most
 * {@link SearchPlan#RESOLUTION} times the met one, or the plan's bisections are spent), each judged on its own
 * measured requests ({@link Target#judge}: latencies and a queue that does not grow). The knee is the
 * highest rate measured to meet the target below the lowest rate measured to break it; the bracket [knee, break) is the search's resolution. It assumes that a
 * point meets the target at every rate below one that meets it (latency grows with load); where
 * noise breaks that, the bracket still holds one rate that met it and one that did not.
 */
public final class CapacitySearch {
    /** Seconds allowed beyond a point's arrivals for its last requests to finish, in the time estimate. */
    static final double DRAIN_SECONDS = 2.0;
    /** A point may run to twice its estimate plus this before it is cut (overload), seconds. */
    public static final double CAP_SLACK_SECONDS = 10.0;

    private CapacitySearch() {}

    /**
     * Runs one serving point at {@code ratePerSecond}, cut at {@code capNanos}, on the workload's seeded trace at
     * that rate ({@link LoadGenerator}), which {@link Stability} regenerates to count the window's arrivals.
     */
    public interface PointRunner {
        /** The point's result. */
        ContinuousBatcher.Served run(double ratePerSecond, long capNanos);
    }

    /** How a point's rate was chosen. */
    public enum Step { UP, DOWN, BISECT }

    /**
     * One measured point.
     *
     * @param ratePerSecond the rate offered (the generator's)
     * @param met whether it met the target
     */
    public record Point(double ratePerSecond, Step step, PointStats stats, boolean met, ContinuousBatcher.Served served) {}

    /**
     * What the search found.
     *
     * @param points in the order run
     * @param kneePerSecond highest rate that met the target below {@code breakPerSecond}; NaN when none did
     * @param breakPerSecond lowest rate that broke it above the knee; NaN when none did
     * @param stop why it stopped, in words
     * @param elapsedSeconds the search's time on its clock
     */
    public record Outcome(List<Point> points, double kneePerSecond, double breakPerSecond, String stop,
                          double elapsedSeconds) {}

    /** Seconds a point at {@code rate} is expected to take: its arrivals plus {@link #DRAIN_SECONDS}. */
    public static double expectedSeconds(Workload w, double rate) {
        return (w.warmup(rate) + w.measured()) / rate + DRAIN_SECONDS;
    }

    /**
     * The lowest rate whose point fits in {@code budgetSeconds} ({@link #expectedSeconds} at most the budget): below
     * it the warm-up and measured requests take longer to arrive than the sweep may run.
     */
    public static double lowestAffordableRate(Workload w, double budgetSeconds) {
        double room = budgetSeconds - DRAIN_SECONDS - w.warmupSeconds();
        return room > 0 ? (w.warmupMin() + w.measured()) / room : Double.POSITIVE_INFINITY;
    }

    /** Runs the search on {@code clock}'s time; the first point runs whatever the budget says. */
    public static Outcome run(SearchPlan plan, Target target, Workload w, PointRunner runner, Clock clock) {
        long t0 = clock.nanos();
        List<Point> points = new ArrayList<>();
        double pass = Double.NaN;
        double fail = Double.NaN;
        String stop = null;
        // Geometric steps up.
        for (int k = 0; points.size() < plan.maxPoints(); k++) {
            double rate = plan.geometricRate(k);
            if (!points.isEmpty() && !affordable(plan, w, rate, clock, t0)) {
                stop = budget(plan);
                break;
            }
            Point p = measure(runner, rate, Step.UP, plan, w, target, clock, t0);
            points.add(p);
            if (p.met()) {
                pass = rate;
            } else {
                fail = rate;
                break;
            }
        }
        // Down from the start when the start already broke it.
        for (int k = -1; stop == null && Double.isNaN(pass) && k >= -plan.maxDown() && points.size() < plan.maxPoints();
                k--) {
            double rate = plan.geometricRate(k);
            if (!affordable(plan, w, rate, clock, t0)) {
                stop = budget(plan);
                break;
            }
            Point p = measure(runner, rate, Step.DOWN, plan, w, target, clock, t0);
            points.add(p);
            if (p.met()) {
                pass = rate;
            } else {
                fail = rate;
            }
        }
        // Bisections of the bracket, until it is within the resolution.
        for (int b = 0; stop == null && b < plan.bisections() && !Double.isNaN(pass) && !Double.isNaN(fail)
                && fail / pass > SearchPlan.RESOLUTION && points.size() < plan.maxPoints(); b++) {
            double rate = Math.sqrt(pass * fail);
            if (!affordable(plan, w, rate, clock, t0)) {
                stop = budget(plan);
                break;
            }
            Point p = measure(runner, rate, Step.BISECT, plan, w, target, clock, t0);
            points.add(p);
            if (p.met()) {
                pass = rate;
            } else {
                fail = rate;
            }
        }
        if (stop == null) {
            stop = Double.isNaN(fail) ? String.format(Locale.ROOT, "the target held at every rate up to %.3g req/s "
                    + "(%d points)", pass, points.size())
                    : Double.isNaN(pass) ? String.format(Locale.ROOT, "the target broke at every rate down to %.3g req/s",
                    fail)
                    : String.format(Locale.ROOT, "bracketed: met at %.3g, broken at %.3g req/s", pass, fail);
        }
        return new Outcome(List.copyOf(points), pass, fail, stop, (clock.nanos() - t0) / 1e9);
    }

    private static Point measure(PointRunner runner, double rate, Step step, SearchPlan plan, Workload w, Target target,
                                 Clock clock, long t0) {
        double expected = expectedSeconds(w, rate);
        double left = plan.budgetSeconds() - (clock.nanos() - t0) / 1e9;
        // An overloaded point is cut at twice its estimate, and never runs far past the sweep's budget.
        double cap = Math.min(2 * expected, Math.max(left, expected)) + CAP_SLACK_SECONDS;
        ContinuousBatcher.Served served = runner.run(rate, (long) (cap * 1e9));
        PointStats stats = PointStats.of(served);
        Stability stability = Stability.of(w, rate, served.measured(), served.windowStartNanos(), served.windowEndNanos(),
                served.windowTokens());
        Target.Judgement j = target.judge(stats, stability, served.capped(), served.measured().size(), w.measured());
        return new Point(rate, step, stats, j.met(), served);
    }

    private static boolean affordable(SearchPlan plan, Workload w, double rate, Clock clock, long t0) {
        return (clock.nanos() - t0) / 1e9 + expectedSeconds(w, rate) <= plan.budgetSeconds();
    }

    private static String budget(SearchPlan plan) {
        return String.format(Locale.ROOT, "the sweep's time budget (%.0f s) was spent", plan.budgetSeconds());
    }
}
