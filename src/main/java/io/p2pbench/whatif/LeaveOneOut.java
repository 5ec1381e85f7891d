package io.p2pbench.whatif;

import io.p2pbench.report.stats.HockneyFit;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Leave-one-out validation of the predictions: for every curve, each measured size in turn is left
 * out, predicted from the others by the alpha-beta fit and by interpolation, and the relative
 * error of the predicted time (equivalently of the bandwidth) is reported. The target is at most
 * 10% for sizes of 1 MiB and more. A fit needs three remaining sizes; interpolation needs a
 * remaining size on each side (otherwise the prediction is held at the nearest size and marked).
 */
public final class LeaveOneOut {
    /** Sizes from which the 10% target applies. */
    public static final long TARGET_FROM_BYTES = Sizes.MIB;
    /** The target: largest acceptable |error| at and above {@link #TARGET_FROM_BYTES}. */
    public static final double TARGET = 0.10;

    private LeaveOneOut() {}

    /**
     * One left-out size.
     *
     * @param curve the curve's description
     * @param sizeBytes the size left out
     * @param measuredGbps its measured bandwidth
     * @param fitError relative error of the fit's prediction, NaN where no fit was possible
     * @param interpolationError relative error of interpolation
     * @param held whether interpolation had to hold the nearest size (the size is the curve's end)
     */
    public record Point(String curve, long sizeBytes, double measuredGbps, double fitError, double interpolationError,
                        boolean held) {}

    /** Every left-out size of {@code curve} (none where the curve has fewer than 3 sizes). */
    public static List<Point> validate(String name, Curve curve) {
        List<Point> out = new ArrayList<>();
        if (curve.points().size() < 3) {
            return out;
        }
        for (int i = 0; i < curve.points().size(); i++) {
            Curve.Point left = curve.points().get(i);
            Curve rest = curve.without(i);
            double truth = left.sizeBytes() / (left.gbps() * 1e9);
            double fit = rest.fit() == null ? Double.NaN
                    : rest.predict(left.sizeBytes(), Curve.Method.FIT).seconds() / truth - 1;
            Curve.Estimate interp = rest.predict(left.sizeBytes(), Curve.Method.INTERPOLATE);
            out.add(new Point(name, left.sizeBytes(), left.gbps(), fit, interp.seconds() / truth - 1, interp.outside()));
        }
        return out;
    }

    /**
     * The curves of a source worth validating: every collective bus-bandwidth and copy curve
     * {@link Source} uses, and, for result folders, every one-way peer and host-device bandwidth
     * series (the same fit on the same kind of curve).
     */
    public static Map<String, Curve> curves(Source source, ResultData data) {
        Map<String, Curve> out = new LinkedHashMap<>();
        for (Source.Candidate c : source.candidates()) {
            out.put(source.label() + ": " + c.curve().description(), c.curve());
        }
        if (data == null) {
            return out;
        }
        Map<String, TreeMap<Long, Measurement>> series = new LinkedHashMap<>();
        for (Measurement m : data.measurements()) {
            Measurement.Key k = m.key();
            boolean oneWay = k.lane() == Lane.ONE_WAY || k.lane().isHostOneWay();
            boolean copyCurve = k.is(Kind.PEER)
                    && (k.route().copyPath() == CopyPath.CE_P2P_READ || k.route().copyPath() == CopyPath.CE_P2P_WRITE);
            // Copies along CE_P2P_READ/WRITE are already among the source's send curves.
            if (k.biggerIsBetter() && oneWay && !copyCurve && (k.is(Kind.HOST) || k.is(Kind.PEER))) {
                series.computeIfAbsent(k.kind() + " " + k.path() + " " + k.direction() + " " + m.pairLabel()
                        + (m.singleGpu() ? " (" + Measurement.SINGLE_GPU + ")" : ""), s -> new TreeMap<>())
                        .put(k.sizeBytes(), m);
            }
        }
        series.forEach((name, points) -> {
            List<Curve.Point> ps = new ArrayList<>();
            points.values().forEach(m -> {
                Statistics.Bandwidth b = Statistics.bandwidth(m.samples());
                ps.add(new Curve.Point(m.key().sizeBytes(), b.median(), Double.NaN, Double.NaN));
            });
            out.putIfAbsent(source.label() + ": " + name + ", bandwidth", new Curve(name, 2, false, ps));
        });
        return out;
    }

    /** The validation table as Markdown, with each curve's worst error at >= 1 MiB against the target. */
    public static String markdown(Map<String, Curve> curves, String command) {
        StringBuilder md = new StringBuilder("# p2pbench whatif --validate\n\n");
        if (command != null) {
            md.append("Made by `").append(command).append("`.\n\n");
        }
        md.append("Each measured size left out and predicted from the others; error = predicted / measured time - 1 "
                + "(the alpha-beta fit needs 3 remaining sizes; interpolation holds the nearest size at a curve's "
                + "ends, marked *held*). Target: |error| <= 10% at sizes of 1 MiB and more.\n\n");
        md.append("| curve | size | measured GB/s | fit error | interpolation error |\n|---|---|---|---|---|\n");
        List<String> summary = new ArrayList<>();
        List<String> notValidated = new ArrayList<>();
        for (Map.Entry<String, Curve> e : curves.entrySet()) {
            List<Point> ps = validate(e.getKey(), e.getValue());
            if (ps.isEmpty()) {
                notValidated.add(e.getKey() + " (" + e.getValue().range() + ")");
                continue;
            }
            double worstFit = 0;
            double worstInterp = 0;
            boolean anyFit = false;
            boolean anyInterp = false;
            boolean anyLarge = ps.stream().anyMatch(p -> p.sizeBytes() >= TARGET_FROM_BYTES);
            for (Point p : ps) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %s | %s%s |%n", e.getKey(),
                        Sizes.format(p.sizeBytes()), p.measuredGbps(), pct(p.fitError()), pct(p.interpolationError()),
                        p.held() ? " (held)" : ""));
                if (p.sizeBytes() >= TARGET_FROM_BYTES) {
                    if (Double.isFinite(p.fitError())) {
                        worstFit = Math.max(worstFit, Math.abs(p.fitError()));
                        anyFit = true;
                    }
                    if (!p.held()) {
                        worstInterp = Math.max(worstInterp, Math.abs(p.interpolationError()));
                        anyInterp = true;
                    }
                }
            }
            summary.add(String.format(Locale.ROOT, "| %s | %s | %s | %s |", e.getKey(), e.getValue().range(),
                    anyFit ? verdict(worstFit) : anyLarge ? "no fit (needs 3 remaining sizes)" : "no size >= 1 MiB",
                    anyInterp ? verdict(worstInterp) : "no interior size >= 1 MiB"));
        }
        md.append("\n## Worst |error| at >= 1 MiB\n\n| curve | sizes | alpha-beta fit | interpolation (interior sizes) |\n"
                + "|---|---|---|---|\n");
        summary.forEach(s -> md.append(s).append('\n'));
        if (!notValidated.isEmpty()) {
            md.append("\nNot validated (leave-one-out needs at least 3 sizes, the fit ")
                    .append(HockneyFit.MIN_SIZES + 1).append("): ").append(String.join("; ", notValidated))
                    .append(".\n");
        }
        return md.toString();
    }

    private static String verdict(double worst) {
        return String.format(Locale.ROOT, "%.1f%% (%s)", 100 * worst, worst <= TARGET ? "within 10%" : "over 10%");
    }

    private static String pct(double e) {
        return Double.isFinite(e) ? String.format(Locale.ROOT, "%+.1f%%", 100 * e) : "no fit";
    }
}
