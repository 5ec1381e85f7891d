package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.PartitionVerdict.Figure;
import io.p2pbench.report.PartitionVerdict.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The keep/reject logic of "Does splitting pay?" on fixture figures. */
class PartitionVerdictTest {
    private static Figure fig(String plan, String transport, boolean oneGpu, List<Double> tokens, List<Double> p99,
                              double comm, double bus, String skip) {
        return new Figure("DENSE_8B", "DECODE", 8, true, plan, transport, oneGpu ? "0,0" : "0,1", oneGpu, tokens, p99,
                comm, bus, skip);
    }

    private static Row only(List<Figure> figures) {
        List<Row> rows = PartitionVerdict.judge(figures, 400, "0-1, 2-3 (NV18)");
        assertEquals(1, rows.size());
        return rows.get(0);
    }

    @Test
    void keepsOnlyAGainBeyondTheFloor() {
        Figure single = fig("SINGLE", "P2P", false, List.of(1000.0, 1010.0), List.of(500e3, 505e3), 0, 0, null);
        Row gain = only(List.of(single, fig("TP", "P2P", false, List.of(1300.0, 1290.0), List.of(480e3, 470e3), 0.1, 300,
                null)));
        assertEquals("keep", gain.verdict(), gain.why());
        Row small = only(List.of(single, fig("TP", "P2P", false, List.of(1050.0, 1060.0), List.of(490e3, 495e3), 0.1,
                300, null)));
        assertEquals("reject", small.verdict(), small.why());
        // p99 alone beyond its floor keeps the plan
        Row tail = only(List.of(single, fig("PP", "P2P_OFF", false, List.of(990.0, 1000.0), List.of(300e3, 310e3), 0.1,
                10, null)));
        assertEquals("keep", tail.verdict(), tail.why());
    }

    @Test
    void theFloorRisesToTheSpreadBetweenRunsAndOneRunIsFlagged() {
        Figure single = fig("SINGLE", "P2P", false, List.of(1000.0, 1400.0), List.of(), 0, 0, null);
        Row noisy = only(List.of(single, fig("TP", "P2P", false, List.of(1500.0, 1500.0), List.of(), 0, 0, null)));
        assertEquals("reject", noisy.verdict(), "1500 vs median 1200 is +25%, inside the 40% spread: " + noisy.why());
        Row one = only(List.of(fig("SINGLE", "P2P", false, List.of(1000.0), List.of(), 0, 0, null),
                fig("TP", "P2P", false, List.of(1500.0), List.of(), 0, 0, null)));
        assertEquals("keep", one.verdict());
        assertTrue(one.why().contains("n too small"), one.why());
    }

    @Test
    void keepsWhenSingleDoesNotFitAndJudgesNothingOnOneGpu() {
        Row capacity = only(List.of(fig("SINGLE", "P2P", false, List.of(), List.of(), 0, 0,
                "does not fit: DENSE_70B SINGLE over 1 GPU needs 150.0 GiB"),
                fig("TP", "P2P", false, List.of(100.0), List.of(), 0.2, 300, null)));
        assertEquals("keep", capacity.verdict());
        assertTrue(capacity.why().contains("needed for capacity"), capacity.why());
        Row oneGpu = only(List.of(fig("SINGLE", "P2P", true, List.of(1000.0), List.of(), 0, 0, null),
                fig("TP", "P2P", true, List.of(2000.0), List.of(), 0.1, 100, null)));
        assertEquals("cannot judge", oneGpu.verdict());
        assertTrue(oneGpu.why().startsWith(PartitionVerdict.SINGLE_GPU), oneGpu.why());
        String section = PartitionVerdict.section(List.of(fig("SINGLE", "P2P", true, List.of(1000.0), List.of(), 0, 0,
                null), fig("TP", "P2P", true, List.of(900.0), List.of(), 0.1, 100, null)), 400, "");
        assertTrue(section.contains("cannot judge whether splitting pays"), section);
    }

    @Test
    void namesWhatToTryWhenCommunicationBound() {
        Figure single = fig("SINGLE", "P2P", false, List.of(1000.0), List.of(), 0, 0, null);
        Row fast = only(List.of(single, fig("TP", "P2P", false, List.of(900.0), List.of(), 0.45, 350, null)));
        assertTrue(fast.why().contains("although its copies are fast"), fast.why());
        assertTrue(fast.why().contains("PP instead of TP"), fast.why());
        assertTrue(fast.why().contains("0-1, 2-3 (NV18)"), fast.why());
        Row slow = only(List.of(single, fig("TP", "P2P_OFF", false, List.of(600.0), List.of(), 0.6, 20, null)));
        assertTrue(slow.why().contains("try a placement on the best-linked pairs 0-1, 2-3 (NV18)"), slow.why());
        Row computeBound = only(List.of(single, fig("TP", "P2P", false, List.of(900.0), List.of(), 0.1, 350, null)));
        assertTrue(!computeBound.why().contains("communication-bound"), computeBound.why());
    }

    @Test
    void chartsPutTransportsSideBySidePerPlan() {
        List<Figure> fs = List.of(fig("SINGLE", "P2P", false, List.of(1000.0), List.of(400e3), 0, 0, null),
                fig("TP", "P2P", false, List.of(1500.0), List.of(300e3), 0.2, 300, null),
                fig("TP", "P2P_OFF", false, List.of(1100.0), List.of(350e3), 0.4, 20, null));
        double[][] v = PartitionVerdict.values(fs, List.of("SINGLE", "TP"), List.of("P2P", "P2P_OFF"), false);
        assertEquals(1000.0, v[0][0]);
        assertTrue(Double.isNaN(v[1][0]));
        assertEquals(1100.0, v[1][1]);
        var charts = PartitionVerdict.charts(fs, "h200x8");
        assertEquals(2, charts.size(), charts.keySet().toString());
        assertTrue(charts.values().iterator().next().startsWith("<svg") || charts.values().iterator().next().contains("<svg"));
    }
}
