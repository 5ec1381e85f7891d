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
 * <p>Floors, measured: A/A reruns of the partition study (DENSE_8B, every plan over 0,0, quick) on two H100 hosts,
 * 2026-12-06: four runs on one host and three on another, one session. Between any two runs, of one host or of the
 * two, a configuration's step time and tokens/s moved by at most 2.4% and its p99 request latency by at most 2.2%
 * (within a host 2.0% and 1.3%). {@link #STEP_FLOOR} and {@link #P99_FLOOR} are those maxima with a margin, raised to
 * the spread between runs of either side; the drift between sessions days apart is not measured
 * (docs/compare.md, "Partition and serving results"). The report's own partition verdicts, which compare plans
 * within one run, keep their stated floors ({@link PartitionVerdict#TOKENS_FLOOR}, {@link PartitionVerdict#P99_FLOOR}).
 */
final class PartitionComparison {
    /** The floor of a configuration's step time and tokens/s between runs of one machine. */
    static final double STEP_FLOOR = 0.04;
    /** The floor of its p99 request latency. */
    static final double P99_FLOOR = 0.04;
    /** Where the step and tokens floor comes from. */
    static final String STEP_SOURCE = "A/A reruns, 7 runs on two H100 hosts: at most 2.4% apart";
    /** Where the p99 floor comes from. */
    static final String P99_SOURCE = "A/A reruns, 7 runs on two H100 hosts: at most 2.2% apart";

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
                        STEP_FLOOR, STEP_SOURCE, thresholdPct, otherMachines));
            }
            if (!fb.tokensPerSecond().isEmpty() && !fc.tokensPerSecond().isEmpty()) {
                step.add(GatedFigures.row("tokens/s", true, fb.tokensPerSecond(), fc.tokensPerSecond(),
                        STEP_FLOOR, STEP_SOURCE, thresholdPct, otherMachines));
            }
            if (!step.isEmpty()) {
                out.add(GatedFigures.group("partition", what, step));
            }
            if (!fb.p99RequestUs().isEmpty() && !fc.p99RequestUs().isEmpty()) {
                out.add(GatedFigures.group("partition", what, List.of(GatedFigures.row("p99 request latency (µs)",
                        false, fb.p99RequestUs(), fc.p99RequestUs(), P99_FLOOR, P99_SOURCE, thresholdPct,
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
