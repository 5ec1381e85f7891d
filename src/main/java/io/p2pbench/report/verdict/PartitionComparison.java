package io.p2pbench.report.verdict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The partition figures {@code compare} gates ({@link GatedFigures}): per configuration (model, phase, batch,
 * eager or graph, plan, transport, GPUs) of the same machine, the step's device time and its tokens/s, judged
 * as one measurement (the worse decides), and the p99 request latency as another, each side's figures read by
 * {@link PartitionVerdict#figures} (one value per run).
 *
 * <p>Floors: no partition result has been rerun, so none is measured between runs. The committed run
 * {@code results/h200x1-single-r580/2026-12-02T18-05-20Z} has one iteration per configuration at quick timing,
 * so it has no spread across batches either; its configurations that do the same work on one GPU (PP's three
 * transports over 0,0, whose one hand-over per step is a copy within the GPU; SINGLE against PP) differ by at
 * most 1.3% in step time and 3.1% in p99 request latency, which says nothing of the drift between runs. The
 * floors are therefore the report's stated ones, several times that spread:
 * {@link PartitionVerdict#TOKENS_FLOOR} for step time and tokens/s, {@link PartitionVerdict#P99_FLOOR} for the
 * p99 request latency, raised to the spread between runs of either side.
 */
final class PartitionComparison {
    /** Where the step and tokens floor comes from. */
    static final String STEP_SOURCE = "stated: no partition reruns yet";

    private PartitionComparison() {}

    /** The gated groups of matching configurations; unmatched ones are counted into {@code only}. */
    static List<GatedFigures.Group> compare(List<PartitionVerdict.Figure> base, List<PartitionVerdict.Figure> cand,
                                            double thresholdPct, String otherMachines, int[] only) {
        Map<String, PartitionVerdict.Figure> b = index(base);
        Map<String, PartitionVerdict.Figure> c = index(cand);
        List<GatedFigures.Group> out = new ArrayList<>();
        for (String key : GatedFigures.common(List.copyOf(b.keySet()), List.copyOf(c.keySet()), only)) {
            PartitionVerdict.Figure fb = b.get(key);
            PartitionVerdict.Figure fc = c.get(key);
            String what = fc.model() + " " + fc.plan() + " " + fc.transport() + " over " + fc.group() + ", "
                    + fc.phase() + " batch " + fc.batch() + (fc.graph() ? " graph" : " eager")
                    + (fc.singleGpu() ? " (" + PartitionVerdict.SINGLE_GPU + ")" : "");
            List<GatedFigures.Row> step = new ArrayList<>();
            if (!fb.stepUs().isEmpty() && !fc.stepUs().isEmpty()) {
                step.add(GatedFigures.row("step time (µs)", false, fb.stepUs(), fc.stepUs(),
                        PartitionVerdict.TOKENS_FLOOR, STEP_SOURCE, thresholdPct, otherMachines));
            }
            if (!fb.tokensPerSecond().isEmpty() && !fc.tokensPerSecond().isEmpty()) {
                step.add(GatedFigures.row("tokens/s", true, fb.tokensPerSecond(), fc.tokensPerSecond(),
                        PartitionVerdict.TOKENS_FLOOR, STEP_SOURCE, thresholdPct, otherMachines));
            }
            if (!step.isEmpty()) {
                out.add(GatedFigures.group("partition", what, step));
            }
            if (!fb.p99RequestUs().isEmpty() && !fc.p99RequestUs().isEmpty()) {
                out.add(GatedFigures.group("partition", what, List.of(GatedFigures.row("p99 request latency (µs)",
                        false, fb.p99RequestUs(), fc.p99RequestUs(), PartitionVerdict.P99_FLOOR,
                        "stated: a tail percentile moves more than a median; no partition reruns yet", thresholdPct,
                        otherMachines))));
            }
        }
        return out;
    }

    /** Measured figures by configuration, machine left out (the caller decides what two machines mean). */
    private static Map<String, PartitionVerdict.Figure> index(List<PartitionVerdict.Figure> figures) {
        Map<String, PartitionVerdict.Figure> out = new LinkedHashMap<>();
        for (PartitionVerdict.Figure f : figures) {
            if (f.skipReason() == null && !(f.tokensPerSecond().isEmpty() && f.p99RequestUs().isEmpty())) {
                out.putIfAbsent(String.join("|", f.model(), f.phase(), Integer.toString(f.batch()),
                        Boolean.toString(f.graph()), f.plan().name(), f.transport(), f.group()), f);
            }
        }
        return out;
    }
}
