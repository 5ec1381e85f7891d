package io.p2pbench.serving;

import java.util.SplittableRandom;

/**
 * An open-loop load: Poisson arrivals at {@code ratePerSecond} (exponential gaps, drawn by inversion
 * from a seeded stream), with prompt and output lengths drawn from the workload's ranges on a second
 * stream. The arrivals do not wait for the server: they come whether or not it keeps up.
 *
 * <p>The gaps are unit-rate exponential draws scaled by {@code 1 / rate}, and the lengths come from
 * their own stream, so one seed gives the same requests at every rate, their arrival times a scaled
 * copy: every plan and every rate of a sweep serves the same requests, and two plans at one rate
 * the same trace to the nanosecond.
 */
public final class LoadGenerator implements Arrivals {
    /** Mixes the seed of the lengths' stream away from the gaps' stream. */
    private static final long LENGTH_STREAM = 0x9E3779B97F4A7C15L;

    private final Workload workload;
    private final double ratePerSecond;
    private final SplittableRandom gaps;
    private final SplittableRandom lengths;
    private double unitTime;
    private int next;

    /** A generator at {@code ratePerSecond} (positive, finite). */
    public LoadGenerator(Workload workload, double ratePerSecond) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("request rate " + ratePerSecond + "/s is not a positive number");
        }
        this.workload = workload;
        this.ratePerSecond = ratePerSecond;
        this.gaps = new SplittableRandom(workload.seed());
        this.lengths = new SplittableRandom(workload.seed() ^ LENGTH_STREAM);
    }

    /** The rate it offers, requests per second. */
    public double ratePerSecond() {
        return ratePerSecond;
    }

    /** The next request, in arrival order; the first arrives one gap after time 0. */
    @Override
    public Request next() {
        // 1 - U is in (0, 1]: the log is finite
        unitTime += -Math.log(1 - gaps.nextDouble());
        long arrival = Math.round(unitTime / ratePerSecond * 1e9);
        int prompt = workload.prompt().draw(lengths);
        int output = workload.output().draw(lengths);
        return new Request(next++, arrival, prompt, output);
    }
}
