package io.p2pbench.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.transfer.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Predictions from curves: the fit, interpolation, the flags, and leave-one-out on exact data. */
class CurveTest {
    /** Bandwidth of t = 20 µs + S / (300 GB/s): S / t. */
    private static double hockneyGbps(long size) {
        double seconds = 20e-6 + size / 300e9;
        return size / seconds / 1e9;
    }

    private static Curve exact(long... sizes) {
        List<Curve.Point> ps = new ArrayList<>();
        for (long s : sizes) {
            ps.add(new Curve.Point(s, hockneyGbps(s), Double.NaN, Double.NaN));
        }
        return new Curve("synthetic alpha-beta", 8, false, ps);
    }

    @Test
    void fitRecoversAlphaAndBetaAndPredictsBetweenAndBeyond() {
        Curve c = exact(Sizes.MIB, 4 * Sizes.MIB, 16 * Sizes.MIB, 64 * Sizes.MIB, 256 * Sizes.MIB);
        assertEquals(20, c.fit().alphaMicros(), 1e-6);
        assertEquals(300, c.fit().betaGBps(), 1e-6);
        Curve.Estimate inside = c.predict(25 * Sizes.MIB, Curve.Method.FIT);
        assertEquals(20e-6 + 25 * Sizes.MIB / 300e9, inside.seconds(), 1e-12);
        assertEquals("alpha-beta fit", inside.method());
        assertFalse(inside.outside());
        assertEquals("interpolation", c.predict(25 * Sizes.MIB, Curve.Method.AUTO).method(), "auto interpolates inside");
        Curve.Estimate beyond = c.predict(Sizes.GIB, Curve.Method.AUTO);
        assertTrue(beyond.outside(), "beyond 256 MiB is an extrapolation");
        assertEquals("alpha-beta fit", beyond.method(), "auto uses the fit outside");
        assertEquals(20e-6 + Sizes.GIB / 300e9, beyond.seconds(), 1e-12);
        assertTrue(c.predict(4 * Sizes.KIB, Curve.Method.AUTO).outside(), "below 1 MiB too");
    }

    @Test
    void interpolationIsLinearInLog2SizeAndHeldOutside() {
        Curve c = new Curve("two sizes", 4, false, List.of(
                new Curve.Point(Sizes.MIB, 100, 90, 110), new Curve.Point(4 * Sizes.MIB, 200, 180, 220)));
        // 2 MiB is halfway in log2 size: 150 GB/s.
        Curve.Estimate mid = c.predict(2 * Sizes.MIB, Curve.Method.AUTO);
        assertEquals(2.0 * Sizes.MIB / 150e9, mid.seconds(), 1e-15);
        assertEquals(2.0 * Sizes.MIB / 165e9, mid.lowSeconds(), 1e-15);
        assertEquals(2.0 * Sizes.MIB / 135e9, mid.highSeconds(), 1e-15);
        assertEquals("interpolation", mid.method());
        Curve.Estimate beyond = c.predict(64 * Sizes.MIB, Curve.Method.FIT);
        assertEquals(64.0 * Sizes.MIB / 200e9, beyond.seconds(), 1e-15);
        assertTrue(beyond.outside());
        assertTrue(beyond.method().startsWith("held at 4 MiB (no fit: 2 sizes measured"), beyond.method());
    }

    @Test
    void leaveOneOutOnExactAlphaBetaDataHasNoFitError() {
        Curve c = exact(Sizes.MIB, 4 * Sizes.MIB, 16 * Sizes.MIB, 64 * Sizes.MIB, 256 * Sizes.MIB);
        List<LeaveOneOut.Point> ps = LeaveOneOut.validate("exact", c);
        assertEquals(5, ps.size());
        for (LeaveOneOut.Point p : ps) {
            assertEquals(0, p.fitError(), 1e-9, "size " + p.sizeBytes());
        }
        assertTrue(ps.get(0).held() && ps.get(4).held(), "the ends cannot be interpolated");
        assertFalse(ps.get(2).held());
        assertTrue(Math.abs(ps.get(2).interpolationError()) > 1e-3, "interpolation of a curved line is not exact");
        String md = LeaveOneOut.markdown(Map.of("exact", c), "test");
        assertTrue(md.contains("| exact | 1 MiB..256 MiB (5 sizes) | 0.0% (within 10%) |"), md);
    }

    @Test
    void curvesOfTwoSizesAreNotValidatedAndSaySo() {
        Curve c = exact(Sizes.MIB, 64 * Sizes.MIB);
        assertTrue(LeaveOneOut.validate("two", c).isEmpty());
        assertTrue(LeaveOneOut.markdown(Map.of("two", c), null).contains("Not validated"));
    }

    @Test
    void referenceMachinesAreLabelledAndCiteTheirSources() {
        Map<String, Source> refs = Source.references();
        assertTrue(refs.keySet().containsAll(List.of("h200x8-nvlink-nvls", "rtx5090x8-pcie5", "rtx4090x4-pcie4")));
        for (Source s : refs.values()) {
            assertTrue(s.label().contains(Source.REFERENCE_LABEL), s.label());
            assertTrue(s.origin().matches(".*(#\\d+|AI-benchmarking-guide).*"), "cites a source: " + s.origin());
            assertTrue(s.isReference());
        }
        Curve nvls = refs.get("h200x8-nvlink-nvls").candidates().get(0).curve();
        assertEquals(6, nvls.points().size());
        assertEquals(480, nvls.points().get(5).gbps());
    }

    /**
     * Skewed batches: eleven at 100 GB/s and nine at 50 put the median (100) above the mean's t-interval
     * (about 66..89). The estimate is the median, so its interval is the median's, and contains it.
     */
    @Test
    void anIntervalContainsItsEstimateEvenWhenTheBatchesAreSkewed() {
        double[] batches = new double[20];
        java.util.Arrays.fill(batches, 0, 9, 50);
        java.util.Arrays.fill(batches, 9, 20, 100);
        io.p2pbench.report.stats.Statistics.Bandwidth b = io.p2pbench.report.stats.Statistics.bandwidth(batches);
        assertTrue(b.median() > b.ciHigh(), "the fixture is what it claims: median " + b.median() + ", t-interval "
                + b.ciLow() + ".." + b.ciHigh());
        List<io.p2pbench.report.read.Measurement> ms = new ArrayList<>();
        for (long size : List.of(Sizes.MIB, 4 * Sizes.MIB)) {
            ms.add(new io.p2pbench.report.read.Measurement(new io.p2pbench.report.read.Measurement.Key("bandwidth", "nccl",
                    "ALL_REDUCE FLOAT16", "bus", "0,1,2,3", size), "m", "group of 4", false, "collective", "id",
                    batches, "test"));
        }
        Source source = Source.of(new io.p2pbench.report.read.ResultData(java.nio.file.Path.of("skewed"), "skewed", "m",
                "test", null, null, ms, List.of(), Map.of(), null));
        Curve c = source.candidates().get(0).curve();
        for (long size : List.of(Sizes.MIB, 2 * Sizes.MIB, 4 * Sizes.MIB)) {
            Curve.Estimate e = c.predict(size, Curve.Method.AUTO);
            assertTrue(e.hasInterval(), e.toString());
            assertTrue(e.lowSeconds() <= e.seconds() && e.seconds() <= e.highSeconds(), e.toString());
        }
        IllegalStateException wrong = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> new Curve.Estimate(326.42e-3, 326.75e-3, 359.70e-3, null, "interpolation", false));
        assertTrue(wrong.getMessage().contains("does not contain its estimate"), wrong.getMessage());
    }

    /** The 4x RTX 4090 curve has 3 sizes: its fit has one degree of freedom, and 25 MiB is 10x below it. */
    @Test
    void aFitOnThreeSizesExtrapolatedTenfoldGivesNoIntervalAndSaysWhy() {
        Curve pcie4 = Source.references().get("rtx4090x4-pcie4").candidates().get(0).curve();
        Curve.Estimate e = pcie4.predict(25 * Sizes.MIB, Curve.Method.AUTO);
        assertEquals("alpha-beta fit", e.method());
        assertFalse(e.hasInterval());
        assertTrue(Double.isNaN(e.lowSeconds()) && Double.isNaN(e.highSeconds()));
        assertEquals("a fit on 3 sizes has 1 degree of freedom, and --validate cannot check it; 25 MiB is 10.2x below "
                + "the measured 256 MiB..1 GiB (3 sizes), where the fit is not checked", e.noInterval());
        Curve.Estimate inside = pcie4.predict(512 * Sizes.MIB, Curve.Method.FIT);
        assertEquals("a fit on 3 sizes has 1 degree of freedom, and --validate cannot check it", inside.noInterval());
    }

    /** Five exact sizes: an interval inside them (Student t, 3 degrees of freedom), none beyond them. */
    @Test
    void aFitGivesAnIntervalOnlyInsideTheSizesItWasFittedOn() {
        List<Curve.Point> ps = new ArrayList<>();
        double[] wobble = {1.02, 0.97, 1.03, 0.98, 1.01};
        long[] sizes = {Sizes.MIB, 4 * Sizes.MIB, 16 * Sizes.MIB, 64 * Sizes.MIB, 256 * Sizes.MIB};
        for (int i = 0; i < sizes.length; i++) {
            ps.add(new Curve.Point(sizes[i], hockneyGbps(sizes[i]) * wobble[i], Double.NaN, Double.NaN));
        }
        Curve c = new Curve("wobbly alpha-beta", 8, false, ps);
        Curve.Estimate inside = c.predict(32 * Sizes.MIB, Curve.Method.FIT);
        assertTrue(inside.hasInterval(), inside.noInterval());
        assertTrue(inside.lowSeconds() < inside.seconds() && inside.seconds() < inside.highSeconds(), inside.toString());
        Curve.Estimate beyond = c.predict(4 * Sizes.GIB, Curve.Method.AUTO);
        assertEquals("alpha-beta fit", beyond.method());
        assertEquals("4 GiB is 16.0x above the measured 1 MiB..256 MiB (5 sizes), where the fit is not checked",
                beyond.noInterval());
        Curve.Estimate held = new Curve("two", 4, false, List.of(new Curve.Point(Sizes.MIB, 100, 90, 110),
                new Curve.Point(4 * Sizes.MIB, 200, 180, 220))).predict(64 * Sizes.MIB, Curve.Method.AUTO);
        assertFalse(held.hasInterval(), "a size held at the curve's end has no interval of its own");
        assertTrue(held.noInterval().endsWith("held at the nearest"), held.noInterval());
    }
}
