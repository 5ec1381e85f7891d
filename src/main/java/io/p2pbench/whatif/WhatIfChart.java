package io.p2pbench.whatif;

import io.p2pbench.report.chart.SvgChart;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The what-if chart: predicted communication time per training step, one bar group per machine
 * (source), one bar per strategy, error bars half the interval's width where there is one. SVG with
 * text as text, drawn without AWT (as the report's charts), so it renders on GPU nodes without fonts.
 */
public final class WhatIfChart {
    /** File stem of the chart. */
    public static final String STEM = "whatif";

    private WhatIfChart() {}

    /**
     * The bars of {@code rows}.
     *
     * @param machines bar groups, in source order
     * @param strategies series, in request order
     * @param seconds {@code seconds[strategy][machine]}, NaN where there is no prediction
     * @param halfWidths interval half-widths, same shape (NaN: no interval)
     */
    record Bars(List<String> machines, List<String> strategies, double[][] seconds, double[][] halfWidths) {}

    static Bars bars(List<WhatIf.Row> rows) {
        List<String> machines = new ArrayList<>();
        Map<Strategy, Map<String, WhatIf.Row>> byStrategy = new LinkedHashMap<>();
        for (WhatIf.Row r : rows) {
            String machine = r.source().label();
            if (!machines.contains(machine)) {
                machines.add(machine);
            }
            byStrategy.computeIfAbsent(r.step().strategy(), s -> new LinkedHashMap<>()).put(machine, r);
        }
        List<String> strategies = new ArrayList<>();
        double[][] seconds = new double[byStrategy.size()][machines.size()];
        double[][] half = new double[byStrategy.size()][machines.size()];
        int i = 0;
        for (Map.Entry<Strategy, Map<String, WhatIf.Row>> e : byStrategy.entrySet()) {
            strategies.add(e.getKey().label());
            for (int j = 0; j < machines.size(); j++) {
                WhatIf.Row r = e.getValue().get(machines.get(j));
                seconds[i][j] = r == null ? Double.NaN : r.seconds();
                half[i][j] = r == null ? Double.NaN : (r.highSeconds() - r.lowSeconds()) / 2;
            }
            i++;
        }
        return new Bars(machines, strategies, seconds, half);
    }

    /** The chart of {@code rows} as SVG text. */
    static String svg(WhatIf.Request request, List<WhatIf.Row> rows) {
        Bars b = bars(rows);
        String title = "Communication per training step, " + request.model().describe() + ", " + request.gpus()
                + " GPUs, not overlapped";
        return SvgChart.bars(title, "one bar group per machine (source); error bars: the prediction's interval",
                List.of(), "seconds per step", b.machines(), b.strategies(), b.seconds(), b.halfWidths(), "%.3g");
    }

    /** Writes the chart as {@code whatif.svg} into {@code dir}; returns it. */
    public static Path write(WhatIf.Request request, List<WhatIf.Row> rows, Path dir) throws IOException {
        Path svg = dir.resolve(STEM + ".svg");
        AtomicFiles.write(svg, svg(request, rows));
        return svg;
    }
}
