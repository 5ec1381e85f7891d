package io.p2pbench.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SvgChartTest {
    @Test
    void logTicksAreOneTwoFiveInMicrosAndMillis() {
        Axis a = Axis.log(7, 900, true);
        assertEquals(List.of(5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0), a.ticks());
        assertEquals("5 µs", a.label(5));
        assertEquals("1 ms", a.label(1000));
        assertEquals("20 ms", Axis.micros(20_000));
        assertEquals("500 ns", Axis.micros(0.5));
        // Six decades: 1, 2, 5 would give 19 ticks, so only powers of ten.
        assertEquals(List.of(10.0, 100.0, 1000.0, 1e4, 1e5, 1e6, 1e7), Axis.log(15, 9e6, true).ticks());
    }

    @Test
    void linearTicksStepOneTwoOrFiveTimesAPowerOfTen() {
        Axis a = Axis.linear(2132);
        assertEquals(500.0, a.ticks().get(1));
        assertTrue(a.hi() >= 2132);
        assertEquals(20.0, Axis.niceStep(13));
        assertEquals(0.5, Axis.niceStep(0.31));
    }

    @Test
    void linesJoinOnlyNeighbouringSizesOfTheChart() {
        long mib = 1 << 20;
        SvgChart.Series all = new SvgChart.Series("CE", List.of(new SvgChart.Point(mib, 1, 0),
                new SvgChart.Point(4 * mib, 2, 0), new SvgChart.Point(64 * mib, 3, 0)), false);
        SvgChart.Series sm = new SvgChart.Series("SM", List.of(new SvgChart.Point(mib, 1, 0),
                new SvgChart.Point(64 * mib, 3, 0)), false);
        String svg = SvgChart.render(new SvgChart.SizeChart("t", "m", List.of(), "GB/s", false, false, "", List.of(all, sm)));
        List<String> paths = svg.lines().filter(l -> l.startsWith("<path d=\"M") && l.contains("stroke-width=\"1.8\""))
                .toList();
        assertEquals(2, paths.size(), svg);
        assertEquals(2, paths.get(0).split(" L").length - 1, "1-4 and 4-64 MiB joined: " + paths.get(0));
        assertFalse(paths.get(1).contains(" L"), "SM was not measured at 4 MiB: no line across it: " + paths.get(1));
        assertTrue(svg.contains(">4 MiB</text>") || svg.contains(">1 MiB</text>"));
    }

    /** The overlay title says "candidate (solid) over baseline (dashed)": so for every candidate, however many. */
    @Test
    void everyCandidateOfAComparisonIsSolidAndEveryBaselineDashedInItsCandidatesColour() {
        long mib = 1 << 20;
        List<SvgChart.Point> pts = List.of(new SvgChart.Point(mib, 1, 0), new SvgChart.Point(4 * mib, 2, 0));
        List<SvgChart.Series> series = new java.util.ArrayList<>();
        for (String path : List.of("CE_P2P_READ", "CE_P2P_WRITE", "SM_P2P_READ", "HOST_STAGED", "CE_NO_P2P")) {
            series.add(new SvgChart.Series(path + " · candidate", pts, false));
            series.add(new SvgChart.Series(path + " · baseline", pts, true));
        }
        List<SeriesStyles.Style> styles = SeriesStyles.of(series);
        for (int i = 0; i < series.size(); i += 2) {
            assertTrue(styles.get(i).solid(), series.get(i).name() + ": " + styles.get(i));
            assertEquals(SeriesStyles.BASELINE_DASH, styles.get(i + 1).dash(), series.get(i + 1).name());
            assertEquals(styles.get(i).color(), styles.get(i + 1).color(), series.get(i + 1).name());
        }
        assertEquals(5, styles.stream().filter(SeriesStyles.Style::solid).map(SeriesStyles.Style::color).distinct().count());
        String svg = SvgChart.render(new SvgChart.SizeChart("t", "m", List.of(), "GB/s", false, false, "", series));
        List<String> lines = svg.lines().filter(l -> l.contains("stroke-width=\"1.8\"")).toList();
        assertEquals(2 * series.size(), lines.size(), "a line per series and a legend line per series");
        assertEquals(series.size(), lines.stream().filter(l -> l.contains("stroke-dasharray=\"7 4\"")).count(), svg);
        assertTrue(lines.stream().noneMatch(l -> l.contains("stroke-dasharray=\"2 3\"")), "no dotted series: " + svg);

        // Outside a comparison, series differ by dash pattern too.
        List<SeriesStyles.Style> plain = SeriesStyles.of(series.stream().filter(s -> !s.baseline()).toList());
        assertEquals(List.of("", "7 4", "2 3", "9 3 2 3", ""), plain.stream().map(SeriesStyles.Style::dash).toList());
    }

    @Test
    void longTitlesWrapInsteadOfRunningOffThePicture() {
        String title = "p99 latency vs size, GPU0→GPU0 (X, single GPU: not an interconnect measurement) on a machine with a "
                + "long name that goes on";
        List<String> lines = SvgChart.wrap(title, SvgChart.WIDTH - 40, 16);
        assertTrue(lines.size() >= 2);
        assertTrue(lines.stream().allMatch(l -> l.length() * 0.6 * 16 <= SvgChart.WIDTH - 40), lines.toString());
        assertEquals(title, String.join(" ", lines));
    }

    @Test
    void textIsEscaped() {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot;", SvgChart.escape("a <b> & \"c\""));
    }
}
