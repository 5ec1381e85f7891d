package io.p2pbench.whatif;

import io.p2pbench.report.stats.HockneyFit;
import org.apache.commons.math3.distribution.TDistribution;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One measured bandwidth-versus-size curve of one source: a collective's bus bandwidth (nccl-tests'
 * busbw), or a one-way copy's bandwidth, in decimal GB/s. It predicts the "bus time" of a message,
 * tau(S) = S / busbw(S), by one of two methods:
 *
 * <ul>
 *   <li>{@link Method#FIT}: the alpha-beta (Hockney) model tau = alpha + S / beta, fitted by
 *       {@link HockneyFit} (relative least squares); the interval is tau +- t(n-2) standard errors from
 *       alpha's and 1/beta's standard errors, their covariance left out (usually negative, so the
 *       interval is wider than the joint one), only inside the measured sizes and from 4 sizes on;</li>
 *   <li>{@link Method#INTERPOLATE}: busbw interpolated linearly in log2(size) between the two
 *       neighbouring measured sizes, and held at the nearest measured size outside them; the interval
 *       interpolates the points' 95% intervals of the median where they have samples, inside the
 *       measured sizes only.</li>
 * </ul>
 *
 * A curve needs {@link HockneyFit#MIN_SIZES} sizes (and a physical fit: alpha >= 0, beta > 0) for
 * the fit. {@link Method#AUTO} interpolates inside the measured sizes and uses the fit outside them
 * (holding the nearest size where there is no fit): leave-one-out on curves with a protocol or
 * algorithm change inside them (NCCL with NVLS on 8x H200, {@code docs/whatif.md}) showed the
 * two-parameter fit off by 20% and more at sizes interpolation predicted within 10%.
 */
public final class Curve {
    /** How a prediction is made. */
    public enum Method {
        /** Interpolation inside the measured sizes, the fit (where there is one) outside them. */
        AUTO,
        /** The alpha-beta fit. */
        FIT,
        /** Interpolation of the measured curve. */
        INTERPOLATE
    }

    /**
     * One measured size.
     *
     * @param sizeBytes message size (nccl-tests' size for collectives)
     * @param gbps median (or only) bandwidth, decimal GB/s
     * @param lowGbps lower end of its 95% interval, NaN when the source gives one value
     * @param highGbps upper end, NaN when the source gives one value
     */
    public record Point(long sizeBytes, double gbps, double lowGbps, double highGbps) {}

    /**
     * A predicted bus time.
     *
     * @param seconds tau(S)
     * @param lowSeconds lower end of its interval (NaN: none)
     * @param highSeconds upper end (NaN: none)
     * @param noIntervalReasons why there is no interval, each reason apart (empty, or null, when there is one)
     * @param method what made it ({@code alpha-beta fit}, {@code interpolation}, {@code held at 1 GiB})
     * @param outside whether S lies outside the measured sizes (an extrapolation)
     */
    public record Estimate(double seconds, double lowSeconds, double highSeconds, List<String> noIntervalReasons,
                           String method, boolean outside) {
        /** An interval contains its estimate; one that did not would be a defect here, never shown. */
        public Estimate {
            noIntervalReasons = noIntervalReasons == null ? List.of() : List.copyOf(noIntervalReasons);
            boolean interval = Double.isFinite(lowSeconds) && Double.isFinite(highSeconds);
            if (interval != noIntervalReasons.isEmpty()) {
                throw new IllegalStateException("an estimate has an interval or a reason for none: "
                        + noIntervalReasons);
            }
            if (interval && !(lowSeconds <= seconds * (1 + 1e-12) && seconds <= highSeconds * (1 + 1e-12))) {
                throw new IllegalStateException("interval " + lowSeconds + " .. " + highSeconds + " s does not contain "
                        + "its estimate " + seconds + " s (" + method + ")");
            }
        }

        /** Whether there is an interval. */
        public boolean hasInterval() {
            return noIntervalReasons.isEmpty();
        }

        /** Why there is no interval, the reasons joined by {@code ; } (null when there is one). */
        public String noInterval() {
            return hasInterval() ? null : String.join("; ", noIntervalReasons);
        }
    }

    private final String description;
    private final int ranks;
    private final boolean singleGpu;
    private final List<Point> points;
    private final HockneyFit.Fit fit;

    /**
     * @param description what was measured, e.g. {@code NCCL ALL_REDUCE FLOAT32 on 0,1,2,3, bus bandwidth}
     * @param ranks ranks of the measured group (2 for a copy between two GPUs)
     * @param singleGpu whether every rank ran on one GPU (no interconnect crossed)
     * @param points one per size, at least one, sizes distinct
     */
    public Curve(String description, int ranks, boolean singleGpu, List<Point> points) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a curve needs at least one size: " + description);
        }
        this.description = description;
        this.ranks = ranks;
        this.singleGpu = singleGpu;
        List<Point> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingLong(Point::sizeBytes));
        this.points = List.copyOf(sorted);
        this.fit = fitOf(this.points);
    }

    private static HockneyFit.Fit fitOf(List<Point> points) {
        if (points.size() < HockneyFit.MIN_SIZES) {
            return null;
        }
        long[] sizes = new long[points.size()];
        double[] micros = new double[points.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = points.get(i).sizeBytes();
            // 1 GB/s = 1e3 bytes per µs.
            micros[i] = sizes[i] / (points.get(i).gbps() * 1e3);
        }
        HockneyFit.Fit f = HockneyFit.fit(null, "bus time from median bandwidth", sizes, micros);
        return f.physical() && Double.isFinite(f.betaGBps()) ? f : null;
    }

    /** What was measured. */
    public String description() {
        return description;
    }

    /** Ranks of the measured group. */
    public int ranks() {
        return ranks;
    }

    /** Whether every rank ran on one GPU. */
    public boolean singleGpu() {
        return singleGpu;
    }

    /** The measured sizes, smallest first. */
    public List<Point> points() {
        return points;
    }

    /** The alpha-beta fit, or null (fewer than three sizes, or alpha < 0). */
    public HockneyFit.Fit fit() {
        return fit;
    }

    /** Smallest measured size. */
    public long minBytes() {
        return points.get(0).sizeBytes();
    }

    /** Largest measured size. */
    public long maxBytes() {
        return points.get(points.size() - 1).sizeBytes();
    }

    /** The measured sizes as {@code 1 MiB..8 GiB (6 sizes)}. */
    public String range() {
        return points.size() == 1 ? Sizes.format(minBytes()) + " (1 size)"
                : Sizes.format(minBytes()) + ".." + Sizes.format(maxBytes()) + " (" + points.size() + " sizes)";
    }

    /**
     * The bus time of a message of {@code sizeBytes}, by {@code method}. The fit's interval is t +- t(n-2) standard
     * errors, given only inside the measured sizes and from 4 sizes on (what {@code --validate} can check: leave-one-out
     * keeps 3); interpolation's interpolates the points' intervals of the median inside the measured sizes; a size held
     * at a curve's end has none. Where there is none, the estimate says why.
     */
    public Estimate predict(long sizeBytes, Method method) {
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("message size must be positive, was " + sizeBytes);
        }
        boolean outside = sizeBytes < minBytes() || sizeBytes > maxBytes();
        if (fit != null && (method == Method.FIT || method == Method.AUTO && outside)) {
            double gammaMicrosPerByte = 1e-3 / fit.betaGBps();
            double gammaError = 1e-3 * fit.betaError() / (fit.betaGBps() * fit.betaGBps());
            double micros = fit.alphaMicros() + gammaMicrosPerByte * sizeBytes;
            double se = Math.hypot(fit.alphaError(), gammaError * sizeBytes);
            List<String> none = new ArrayList<>();
            if (points.size() <= HockneyFit.MIN_SIZES) {
                none.add("a fit on " + points.size() + " sizes has " + (points.size() - 2) + " degree of freedom, and "
                        + "--validate cannot check it");
            }
            if (outside) {
                none.add(Sizes.format(sizeBytes) + " is " + factor(sizeBytes) + " the measured " + range()
                        + ", where the fit is not checked");
            }
            if (!Double.isFinite(se)) {
                none.add("the fit has no standard errors");
            }
            if (!none.isEmpty()) {
                return new Estimate(micros * 1e-6, Double.NaN, Double.NaN, none, "alpha-beta fit", outside);
            }
            double t = new TDistribution(null, points.size() - 2).inverseCumulativeProbability(0.975);
            return new Estimate(micros * 1e-6, Math.max(micros - t * se, 0) * 1e-6, (micros + t * se) * 1e-6,
                    List.of(), "alpha-beta fit", false);
        }
        String why = method == Method.FIT ? " (no fit: " + (points.size() < HockneyFit.MIN_SIZES
                ? points.size() + " size" + (points.size() == 1 ? "" : "s") + " measured, a fit needs "
                + HockneyFit.MIN_SIZES : "alpha < 0") + ")" : "";
        double[] bw = interpolate(sizeBytes);
        String how = sizeBytes < minBytes() ? "held at " + Sizes.format(minBytes())
                : sizeBytes > maxBytes() ? "held at " + Sizes.format(maxBytes())
                : points.size() == 1 || isMeasured(sizeBytes) ? "measured size" : "interpolation";
        // 1 GB/s = 1e9 bytes per second; a higher bandwidth is a shorter time.
        double seconds = sizeBytes / (bw[0] * 1e9);
        if (outside) {
            return new Estimate(seconds, Double.NaN, Double.NaN, List.of(Sizes.format(sizeBytes) + " is "
                    + factor(sizeBytes) + " the measured " + range() + ", held at the nearest"), how + why, true);
        }
        if (!(bw[1] > 0 && bw[2] > 0)) {
            return new Estimate(seconds, Double.NaN, Double.NaN, List.of("one value per size"), how + why, false);
        }
        return new Estimate(seconds, sizeBytes / (bw[2] * 1e9), sizeBytes / (bw[1] * 1e9), List.of(), how + why,
                false);
    }

    /** How far outside the measured sizes {@code sizeBytes} lies: {@code 10.2x below}, {@code 1.6x above}. */
    private String factor(long sizeBytes) {
        double f = sizeBytes < minBytes() ? (double) minBytes() / sizeBytes : (double) sizeBytes / maxBytes();
        return String.format(Locale.ROOT, "%.3gx %s", f, sizeBytes < minBytes() ? "below" : "above");
    }

    private boolean isMeasured(long sizeBytes) {
        return points.stream().anyMatch(p -> p.sizeBytes() == sizeBytes);
    }

    /** {median, low, high} bandwidth at {@code sizeBytes}, linear in log2(size), held outside the range. */
    private double[] interpolate(long sizeBytes) {
        if (sizeBytes <= minBytes()) {
            return values(points.get(0));
        }
        if (sizeBytes >= maxBytes()) {
            return values(points.get(points.size() - 1));
        }
        int i = 0;
        while (points.get(i + 1).sizeBytes() < sizeBytes) {
            i++;
        }
        Point a = points.get(i);
        Point b = points.get(i + 1);
        double w = (Math.log(sizeBytes) - Math.log(a.sizeBytes())) / (Math.log(b.sizeBytes()) - Math.log(a.sizeBytes()));
        double[] va = values(a);
        double[] vb = values(b);
        return new double[] {va[0] + w * (vb[0] - va[0]), va[1] + w * (vb[1] - va[1]), va[2] + w * (vb[2] - va[2])};
    }

    private static double[] values(Point p) {
        return new double[] {p.gbps(), p.lowGbps(), p.highGbps()};
    }

    /** The curve without the size at {@code index} (for leave-one-out validation). */
    public Curve without(int index) {
        List<Point> rest = new ArrayList<>(points);
        rest.remove(index);
        return new Curve(description, ranks, singleGpu, rest);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s, %s", description, range());
    }
}
