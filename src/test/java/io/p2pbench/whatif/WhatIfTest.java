package io.p2pbench.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Compare;
import io.p2pbench.report.Fixtures;
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
        assertTrue(dp.flags().isEmpty(), "25 MiB lies inside 1 MiB..8 GiB: " + dp.flags());
    }

    @Test
    void resultFolderPrefersNcclOnTheRequestedGroupAndCopiesForPipelines() throws Exception {
        Source x8 = Source.of(Compare.read(Fixtures.X8, 512 * Sizes.MIB));
        Source.Candidate ar = x8.curve(Comm.ALL_REDUCE, GradientType.FP16, 8).orElseThrow();
        assertEquals("nccl", ar.kind());
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
}
