package io.p2pbench.whatif;

import io.p2pbench.report.chart.SvgChart;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The what-if chart: predicted communication time per training step, one bar group per machine
 * (source), one bar per strategy, error bars half the interval's width where there is one. A bar that is
 * only a lower bound is labelled {@code ≥}, one under which the model does not fit the GPU says so, and a
 * machine whose curves were measured on one GPU is labelled as not an interconnect measurement, as the
 * table flags them. SVG with text as text, drawn without AWT (as the report's charts), so it renders on GPU
 * nodes without fonts.
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
     * @param labels the label above each bar, same shape (null: no bar)
     */
    record Bars(List<String> machines, List<String> strategies, double[][] seconds, double[][] halfWidths,
                String[][] labels) {}

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
        String[][] labels = new String[byStrategy.size()][machines.size()];
        int i = 0;
        for (Map.Entry<Strategy, Map<String, WhatIf.Row>> e : byStrategy.entrySet()) {
            strategies.add(e.getKey().label());
            for (int j = 0; j < machines.size(); j++) {
                WhatIf.Row r = e.getValue().get(machines.get(j));
                seconds[i][j] = r == null ? Double.NaN : r.seconds();
                half[i][j] = r == null ? Double.NaN : (r.highSeconds() - r.lowSeconds()) / 2;
                labels[i][j] = r == null ? null : label(r);
            }
            i++;
        }
        List<String> groups = new ArrayList<>();
        for (String machine : machines) {
            boolean single = rows.stream().anyMatch(r -> r.source().label().equals(machine) && r.singleGpu());
            groups.add(machine + (single ? " (" + Measurement.SINGLE_GPU + ")" : ""));
        }
        return new Bars(groups, strategies, seconds, half, labels);
    }

    /** {@code 0.870}, {@code ≥ 1.23} for a lower bound, with {@code does not fit} above it where the model does not. */
    private static String label(WhatIf.Row r) {
        return (Boolean.FALSE.equals(r.fits()) ? "does not fit\n" : "") + (r.lowerBound() ? "≥ " : "")
                + String.format(Locale.ROOT, "%.3g", r.seconds());
    }

    /** The chart of {@code rows} as SVG text. */
    static String svg(WhatIf.Request request, List<WhatIf.Row> rows) {
        Bars b = bars(rows);
        String title = "Communication per training step, " + request.model().describe() + ", " + request.gpus()
                + " GPUs, not overlapped";
        List<String> notes = new ArrayList<>();
        if (rows.stream().anyMatch(WhatIf.Row::singleGpu)) {
            notes.add(Measurement.SINGLE_GPU + ": a machine so labelled measured its curves on one GPU");
        }
        if (rows.stream().anyMatch(WhatIf.Row::lowerBound)) {
            notes.add("≥: a lower bound (collectives derived from an all-reduce the switch reduced, which no ring reaches;"
                    + " see the table's flags)");
        }
        if (rows.stream().anyMatch(r -> Boolean.FALSE.equals(r.fits()))) {
            notes.add("does not fit: the model's parameters and gradients alone exceed a GPU's memory under that strategy");
        }
        return SvgChart.bars(title, "one bar group per machine (source); error bars: the prediction's interval",
                notes, "seconds per step", b.machines(), b.strategies(), b.seconds(), b.halfWidths(), "%.3g", b.labels());
    }

    /** Writes the chart as {@code whatif.svg} into {@code dir}; returns it. */
    public static Path write(WhatIf.Request request, List<WhatIf.Row> rows, Path dir) throws IOException {
        Path svg = dir.resolve(STEM + ".svg");
        AtomicFiles.write(svg, svg(request, rows));
        return svg;
    }
}
