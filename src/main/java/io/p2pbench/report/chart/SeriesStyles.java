package io.p2pbench.report.chart;

import java.util.ArrayList;
import java.util.List;

/**
 * How the series of a size chart look, decided once for both renderers ({@link SvgChart}, {@link PngCharts}).
 * In a comparison (a chart with baseline series) every candidate series is solid and every baseline dashed,
 * in the colour and marker of the candidate before it, however many there are: the title says "candidate
 * (solid) over baseline (dashed)". In any other chart each series has its own colour, marker and dash
 * pattern, so series that coincide stay apart in print and for colour-blind readers.
 */
final class SeriesStyles {
    /** Okabe-Ito colours (distinguishable with common colour-vision deficiencies) and two more. */
    static final String[] COLORS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
            "#8C564B"};
    static final String[] MARKERS = {"circle", "square", "triangle", "diamond", "down", "cross", "plus"};
    /** SVG stroke-dasharray patterns of plain charts: solid, dashed, dotted, dash-dot. */
    static final String[] DASHES = {"", "7 4", "2 3", "9 3 2 3"};
    /** The dash pattern of a comparison's baseline series. */
    static final String BASELINE_DASH = "7 4";

    private SeriesStyles() {}

    /**
     * One series' look.
     *
     * @param color {@code #rrggbb}
     * @param marker one of {@link #MARKERS}
     * @param dash SVG stroke-dasharray, empty for a solid line
     */
    record Style(String color, String marker, String dash) {
        boolean solid() {
            return dash.isEmpty();
        }
    }

    /** The look of each series of {@code series}, in order. */
    static List<Style> of(List<SvgChart.Series> series) {
        boolean comparison = series.stream().anyMatch(SvgChart.Series::baseline);
        List<Style> out = new ArrayList<>();
        int next = 0;
        for (SvgChart.Series s : series) {
            int index = s.baseline() ? Math.max(0, next - 1) : next++;
            String dash = comparison ? (s.baseline() ? BASELINE_DASH : "") : DASHES[index % DASHES.length];
            out.add(new Style(COLORS[index % COLORS.length], MARKERS[index % MARKERS.length], dash));
        }
        return out;
    }
}
