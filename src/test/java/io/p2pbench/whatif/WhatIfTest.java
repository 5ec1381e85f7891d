package io.p2pbench.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Compare;
import io.p2pbench.report.Fixtures;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.Sizes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Predictions from sources: the time arithmetic, the choice of curve, and the chart's groups. */
class WhatIfTest {
    private static final TrainingModel M70 = TrainingModel.Preset.DENSE_70B.model(GradientType.FP16);

    private static WhatIf.Request request(int gpus, boolean extrapolate, Strategy... s) {
        return request(Curve.Method.AUTO, gpus, extrapolate, s);
    }

    private static WhatIf.Request request(Curve.Method method, int gpus, boolean extrapolate, Strategy... s) {
        return new WhatIf.Request(M70, gpus, List.of(s), 25 * Sizes.MIB, 1, method, extrapolate, null);
    }

    @Test
    void timeIsTheSumOfMessagesTimesTheirBusTime() {
        Source nvls = Source.references().get("h200x8-nvlink-nvls");
        WhatIf.Row dp = WhatIf.predict(request(Curve.Method.FIT, 8, false, Strategy.DP), List.of(nvls)).get(0);
        Curve c = nvls.candidates().get(0).curve();
        double expected = 0;
        for (Strategy.Message m : dp.step().messages()) {
            expected += m.count() * 1.75 * c.predict(m.sizeBytes(), Curve.Method.FIT).seconds();
        }
        assertEquals(expected, dp.seconds(), 1e-12);
        assertTrue(dp.lowSeconds() < dp.seconds() && dp.seconds() < dp.highSeconds());
        assertTrue(dp.flags().stream().noneMatch(f -> f.startsWith("extrapolated")), "25 MiB lies inside 1 MiB..8 GiB: "
                + dp.flags());
    }

    @Test
    void resultFolderPrefersNcclOnTheRequestedGroupAndCopiesForPipelines() throws Exception {
        Source x8 = Source.of(Compare.read(Fixtures.X8, 512 * Sizes.MIB));
        Source.Candidate ar = x8.curve(Comm.ALL_REDUCE, GradientType.FP16, 8).orElseThrow();
        assertEquals(Kind.NCCL, ar.kind());
        assertEquals(8, ar.curve().ranks());
        Source.Candidate send = x8.curve(Comm.SEND, GradientType.FP16, 8).orElseThrow();
        assertTrue(send.curve().description().contains("0→1"), send.curve().description());
        WhatIf.Row pp = WhatIf.predict(request(8, false, Strategy.PP), List.of(x8)).get(0);
        assertTrue(pp.flags().stream().noneMatch(f -> f.contains("all-reduce")), "PP uses the copy curve: " + pp.flags());
    }

    @Test
    void aGroupSizeNeverMeasuredNeedsTheFlag() {
        Source pcie4 = Source.references().get("rtx4090x4-pcie4");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WhatIf.predict(request(8, false, Strategy.DP), List.of(pcie4)));
        assertTrue(e.getMessage().startsWith("--gpus 8: 4x RTX 4090 PCIe Gen4"), e.getMessage());
        WhatIf.Row row = WhatIf.predict(request(8, true, Strategy.DP), List.of(pcie4)).get(0);
        assertTrue(row.flags().contains("group of 8 predicted from 4 measured ranks (bus bandwidth held)"), row.flags().toString());
    }

    @Test
    void chartHasOneBarGroupPerMachineAndOneSeriesPerStrategy() {
        List<Source> refs = List.of(Source.references().get("h200x8-nvlink-nvls"), Source.references().get("rtx5090x8-pcie5"));
        WhatIf.Request req = request(8, false, Strategy.DP, Strategy.ZERO3);
        List<WhatIf.Row> rows = WhatIf.predict(req, refs);
        WhatIfChart.Bars bars = WhatIfChart.bars(rows);
        assertEquals(List.of("data parallel", "ZeRO-3/FSDP"), bars.strategies());
        assertEquals(List.of(refs.get(0).label(), refs.get(1).label()), bars.machines());
        assertTrue(bars.seconds()[0][0] > 0 && bars.seconds()[1][1] > 0);
        String svg = WhatIfChart.svg(req, rows);
        assertTrue(svg.contains(">data parallel</text>") && svg.contains(">ZeRO-3/FSDP</text>"), svg);
    }

    /** The chart marks what the table flags: a lower bound as a bound, a strategy the model does not fit. */
    @Test
    void chartMarksLowerBoundsAndWhatDoesNotFit() {
        List<Source> refs = List.of(Source.references().get("h200x8-nvlink-nvls"));
        WhatIf.Request req = request(8, false, Strategy.DP, Strategy.ZERO12, Strategy.ZERO3);
        List<WhatIf.Row> rows = WhatIf.predict(req, refs);
        WhatIfChart.Bars bars = WhatIfChart.bars(rows);
        // DP: all-reduce measured, does not fit 150 GB; ZeRO-1/2: a lower bound, does not fit; ZeRO-3: a lower bound, fits
        assertEquals(String.format(java.util.Locale.ROOT, "does not fit\n%.3g", rows.get(0).seconds()), bars.labels()[0][0]);
        assertEquals(String.format(java.util.Locale.ROOT, "does not fit\n≥ %.3g", rows.get(1).seconds()), bars.labels()[1][0]);
        assertEquals(String.format(java.util.Locale.ROOT, "≥ %.3g", rows.get(2).seconds()), bars.labels()[2][0]);
        String svg = WhatIfChart.svg(req, rows);
        assertTrue(svg.contains(">does not fit</text>") && svg.contains(">≥ "), svg);
        assertTrue(svg.contains("≥: a lower bound"), svg);
        assertTrue(svg.contains("does not fit: the model's parameters and gradients alone exceed a GPU's memory"), svg);
        assertFalse(svg.contains("single GPU"), "eight GPUs: " + svg);
    }

    /**
     * The NVLS all-reduce reaches 480 GB/s, above NVLink's 450 GB/s line rate: reduce-scatter, all-gather and a
     * send derived from it are marked a lower bound; the all-reduce rows are not.
     */
    @Test
    void collectivesDerivedFromAnNvlsAllReduceAreALowerBound() {
        Source nvls = Source.references().get("h200x8-nvlink-nvls");
        List<WhatIf.Row> rows = WhatIf.predict(request(8, false, Strategy.DP, Strategy.ZERO12, Strategy.ZERO3,
                Strategy.TP, Strategy.PP), List.of(nvls));
        for (WhatIf.Row r : rows) {
            boolean derived = r.step().strategy() == Strategy.ZERO12 || r.step().strategy() == Strategy.ZERO3
                    || r.step().strategy() == Strategy.PP;
            assertEquals(derived, r.lowerBound(), r.step().strategy() + ": " + r.flags());
            assertEquals(derived, r.flags().stream().anyMatch(f -> f.startsWith("a lower bound: ")
                    && f.contains("from an all-reduce the switch reduced (NVLink SHARP (NVLS)), whose bus bandwidth "
                    + "reaches 480 GB/s at 8 GiB, above the 450 GB/s per-direction line rate")), r.flags().toString());
            assertTrue(!derived || r.noInterval().contains("the time is a lower bound"), r.noInterval());
        }
        assertTrue(rows.get(4).flags().stream().noneMatch(f -> f.startsWith("send time from all-reduce")),
                "one flag says why the send is a lower bound: " + rows.get(4).flags());
    }

    /** Given a ring all-reduce beside the NVLS one, reduce-scatter and all-gather come from the ring. */
    @Test
    void aRingAllReduceIsPreferredToDeriveFrom() {
        Source.Candidate nvls = Source.references().get("h200x8-nvlink-nvls").candidates().get(0);
        Curve ringCurve = new Curve("ring all-reduce on 8 GPUs", 8, false, List.of(
                new Curve.Point(Sizes.MIB, 40, Double.NaN, Double.NaN),
                new Curve.Point(Sizes.GIB, 370, Double.NaN, Double.NaN)));
        Source both = new Source("both", "test", List.of(nvls,
                new Source.Candidate(Comm.ALL_REDUCE, ringCurve, Kind.NCCL, "", null)), Source.Hardware.UNKNOWN);
        WhatIf.Row dp = WhatIf.predict(request(8, false, Strategy.DP), List.of(both)).get(0);
        assertTrue(dp.curves().stream().allMatch(c -> c.startsWith("nccl-tests all_reduce_perf")),
                "all-reduce itself keeps the NVLS curve (most sizes): " + dp.curves());
        WhatIf.Row zero = WhatIf.predict(request(8, false, Strategy.ZERO12), List.of(both)).get(0);
        assertFalse(zero.lowerBound(), zero.flags().toString());
        assertTrue(zero.curves().stream().allMatch(c -> c.startsWith("ring all-reduce on 8 GPUs")), zero.curves().toString());
    }

    /** One plain line per source, the data-parallel time first, figures from the computation. */
    @Test
    void plainLinesGiveEachSourcesTimeAndWhatDoesNotFit() throws Exception {
        List<Source> refs = List.of(Source.references().get("h200x8-nvlink-nvls"),
                Source.references().get("rtx5090x8-pcie5"));
        WhatIf.Request req = request(8, false, Strategy.DP, Strategy.ZERO12, Strategy.ZERO3);
        List<WhatIf.Row> rows = WhatIf.predict(req, refs);
        List<String> lines = WhatIf.headlines(req, refs, rows);
        assertEquals(List.of(
                "8x H200 NVLink (NVLS) (public reference, not measured here): data-parallel gradient sync ≈ 0.87 s per step",
                "8x H200 NVLink (NVLS) (public reference, not measured here): DENSE_70B in FP16 does not fit a GPU's "
                        + "150.11 GB under data parallel, ZeRO-1/2: its parameters and gradients alone take at least "
                        + "280.00 GB, 157.50 GB per GPU",
                "8x RTX 5090 PCIe Gen5 (public reference, not measured here): data-parallel gradient sync ≈ 8.75 s per step",
                "8x RTX 5090 PCIe Gen5 (public reference, not measured here): DENSE_70B in FP16 does not fit a GPU's "
                        + "34.36 GB under data parallel, ZeRO-1/2, ZeRO-3/FSDP: its parameters and gradients alone take "
                        + "at least 280.00 GB, 157.50 GB, 35.00 GB per GPU"), lines);
        assertEquals(WhatIf.plain(rows.get(0).seconds()), "0.87 s", "the line's figure is the row's");
        assertEquals(Boolean.TRUE, rows.get(2).fits(), "ZeRO-3 shards both: 35 GB per H200");

        Source imported = Source.of(Compare.read(Fixtures.NCCL_TESTS, 512 * Sizes.MIB));
        WhatIf.Request dpOnly = request(8, false, Strategy.DP);
        List<String> unknown = WhatIf.headlines(dpOnly, List.of(imported), WhatIf.predict(dpOnly, List.of(imported)));
        assertEquals("nccl-tests all_reduce_perf on 8x NVIDIA H200, NCCL 2.28.3: GPU memory not known, so whether "
                + "DENSE_70B fits is not checked", unknown.get(1));
        Source run = Source.of(Compare.read(Fixtures.X8, 512 * Sizes.MIB));
        assertEquals(Boolean.FALSE, WhatIf.predict(dpOnly, List.of(run)).get(0).fits(), "a run's topology gives its GPUs' memory");
    }
}
