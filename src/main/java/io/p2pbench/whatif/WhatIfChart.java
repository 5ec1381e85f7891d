package io.p2pbench.whatif;

import io.p2pbench.results.AtomicFiles;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.style.Styler;

/**
 * The what-if chart: predicted communication time per training step, one bar group per machine
 * (source), one bar per strategy, error bars half the interval's width where there is one. PNG and
 * SVG, headless.
 */
public final class WhatIfChart {
    /** File stem of the chart. */
    public static final String STEM = "whatif";

    private WhatIfChart() {}

    /**
     * Why this Java runtime cannot draw text (as {@code io.p2pbench.report.Charts} checks it), if it cannot.
     */
    public static Optional<String> renderingProblem() {
        try {
            java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(8, 8,
                    java.awt.image.BufferedImage.TYPE_INT_RGB);
            java.awt.Graphics2D g = img.createGraphics();
            g.setFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 12));
            g.drawString("p2pbench", 0, 8);
            g.dispose();
            return Optional.empty();
        } catch (Throwable t) {
            return Optional.of(t.getClass().getSimpleName() + ": "
                    + String.valueOf(t.getMessage()).lines().findFirst().orElse(""));
        }
    }

    /** The chart of {@code rows}. */
    static CategoryChart chart(WhatIf.Request request, List<WhatIf.Row> rows) {
        String title = "Communication per training step, " + request.model().describe() + ", " + request.gpus()
                + " GPUs, not overlapped";
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(650).title(title)
                .xAxisTitle("machine (source)").yAxisTitle("seconds per step; bars: interval half-width").build();
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setChartBackgroundColor(Color.WHITE)
                .setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(12f));
        List<String> machines = new ArrayList<>();
        Map<Strategy, Map<String, WhatIf.Row>> byStrategy = new LinkedHashMap<>();
        for (WhatIf.Row r : rows) {
            String machine = r.source().label();
            if (!machines.contains(machine)) {
                machines.add(machine);
            }
            byStrategy.computeIfAbsent(r.step().strategy(), s -> new LinkedHashMap<>()).put(machine, r);
        }
        for (Map.Entry<Strategy, Map<String, WhatIf.Row>> e : byStrategy.entrySet()) {
            List<Number> y = new ArrayList<>();
            List<Number> bars = new ArrayList<>();
            for (String machine : machines) {
                WhatIf.Row r = e.getValue().get(machine);
                y.add(r == null ? 0 : r.seconds());
                double half = r == null ? 0 : (r.highSeconds() - r.lowSeconds()) / 2;
                bars.add(Double.isFinite(half) ? half : 0);
            }
            chart.addSeries(e.getKey().label(), machines, y, bars);
        }
        return chart;
    }

    /** Writes the chart as {@code whatif.png} and {@code whatif.svg} into {@code dir}; returns the PNG. */
    public static Path write(WhatIf.Request request, List<WhatIf.Row> rows, Path dir) throws IOException {
        CategoryChart chart = chart(request, rows);
        Path png = dir.resolve(STEM + ".png");
        AtomicFiles.write(png, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        ByteArrayOutputStream svg = new ByteArrayOutputStream();
        VectorGraphicsEncoder.saveVectorGraphic(chart, svg, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        AtomicFiles.write(dir.resolve(STEM + ".svg"), svg.toByteArray());
        return png;
    }
}
