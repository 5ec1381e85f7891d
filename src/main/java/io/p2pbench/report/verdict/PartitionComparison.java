package io.p2pbench.report.verdict;

import io.p2pbench.partition.Transport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The partition figures {@code compare} gates ({@link GatedFigures}): per configuration (model, phase, batch,
 * eager or graph, plan, transport, GPUs) of the same machine, the step's device time and its tokens/s, judged
 * as one measurement (the worse decides), and the request latency as another, each side's figures read by
 * {@link PartitionVerdict#figures} (one value per run; of a decode step or request measured in rounds its fastest
 * round's).
 *
 * <p>Floors, measured: A/A reruns of the partition study (DENSE_8B, every plan over 0,0, quick) on H100 hosts. On
 * 2026-12-06, four runs on one host and three on another, one session: between any two, a configuration's step time
 * and tokens/s moved by at most 2.4% and its request latency by at most 2.2% (within a host 2.0% and 1.3%).
 * {@link #STEP_FLOOR} and {@link #REQUEST_FLOOR} are those maxima with a margin of 1.7 times, raised to the spread between
 * runs of either side. Held out, three runs on a third host ten hours later (2026-12-07) moved within it by at most
 * 2.9% and 2.3%, inside those floors, but against the first seven by up to 5.4% (TP host-staged prefill, whose
 * activations cross the host's memory) and 3.3%: 2 of 42 such comparisons exited 1. So where the sides ran on other GPUs of one
 * kind (GPU UUIDs differ), the floors are {@link #ACROSS_HOSTS_STEP_FLOOR} and {@link #ACROSS_HOSTS_REQUEST_FLOOR}, the
 * largest changes between hosts with the same margin. A fourth host (2026-12-07) kept configurations not staged through
 * host memory within them (3.7%, 4.2% against the other three) but ran TP host-staged ones up to 18.2% slower, so
 * configurations staged through host memory are not judged across hosts ({@link #STAGED_ACROSS_HOSTS};
 * docs/compare.md, "Partition and serving results"). The report's
 * own partition verdicts, which compare plans within one run, keep their stated floors
 * ({@link PartitionVerdict#TOKENS_FLOOR}, {@link PartitionVerdict#REQUEST_FLOOR}).
 *
 * <p>The request latency was named a p99 until 2026-12-07, but a request (a prefill and 32 decode steps) takes
 * 0.6-1.1 s against the quick preset's iteration of 0.5 s, so each run had one request and its "p99" was that
 * request's time: the floors, measured on those runs, are a single request's.
 */
final class PartitionComparison {
    /** The floor of a configuration's step time and tokens/s between runs of one machine. */
    static final double STEP_FLOOR = 0.04;
    /** The floor of its request latency. */
    static final double REQUEST_FLOOR = 0.04;
    /** Where the step and tokens floor comes from. */
    static final String STEP_SOURCE = "A/A reruns, 7 runs on two H100 hosts: at most 2.4% apart";
    /** Where the request floor comes from. */
    static final String REQUEST_SOURCE = "A/A reruns, 7 runs on two H100 hosts: at most 2.2% apart";
    /** The floor of a step's time and tokens/s where the sides ran on other GPUs of one kind. */
    static final double ACROSS_HOSTS_STEP_FLOOR = 0.09;
    /** The floor of a request latency there. */
    static final double ACROSS_HOSTS_REQUEST_FLOOR = 0.06;
    /** Where the floors across hosts come from. */
    static final String ACROSS_HOSTS_SOURCE = "the sides ran on other GPUs of this kind, GPU UUIDs differ: A/A reruns "
            + "on four H100 hosts moved at most 3.7% (step) and 4.2% (request) between hosts where not staged through "
            + "host memory";

    /**
     * Why a configuration staged through host memory is not judged where the sides ran on other GPUs of one kind:
     * its activations cross the host's memory, whose speed differs between hosts of one kind by more than runs of one
     * host differ (a fourth H100 host ran TP host-staged prefill 15-18% slower than three others, its host-staged peer
     * copy at 34-37 GB/s against 46), as the copy rows in rounds are not judged across hosts.
     */
    static final String STAGED_ACROSS_HOSTS = "staged through host memory, on other GPUs of this kind (GPU UUIDs "
            + "differ): not judged, hosts of one kind differ there by more than runs of one host (TP host-staged "
            + "prefill up to 18.2% apart between four H100 hosts, docs/compare.md); compare runs of one host";

    /**
     * Why a step or request is not judged where one side's runs took it from one round and the other's as the fastest
     * of several (a decode step or request since 2026-12-07, runs of {@code --rounds} 2 or more): the fastest of three
     * is never slower than one round and was up to 11% faster on an H100 host (GPU-7184e42e, TP P2P eager: 10793 us in
     * round 1, 9692 in round 2), so such a pair would lean to "better" one way and to false alarms the other.
     */
    static final String ROUNDS_DIFFER = "the sides' runs measured this figure in different rounds (one side once, the "
            + "other the fastest of several: runs before 2026-12-07 or with --rounds 1); rerun the baseline with this "
            + "build and its settings";

    private PartitionComparison() {}

    /**
     * The gated groups of matching configurations; unmatched ones are counted into {@code only}. {@code oneHost} false
     * where the sides ran on other GPUs of one kind: the floors across hosts.
     */
    static List<GatedFigures.Group> compare(List<PartitionVerdict.Figure> base, List<PartitionVerdict.Figure> cand,
                                            double thresholdPct, String otherMachines, boolean oneHost, int[] only) {
        double stepFloor = oneHost ? STEP_FLOOR : ACROSS_HOSTS_STEP_FLOOR;
        double requestFloor = oneHost ? REQUEST_FLOOR : ACROSS_HOSTS_REQUEST_FLOOR;
        String stepSource = oneHost ? STEP_SOURCE : ACROSS_HOSTS_SOURCE;
        String requestSource = oneHost ? REQUEST_SOURCE : ACROSS_HOSTS_SOURCE;
        Map<String, PartitionVerdict.Figure> b = index(base);
        Map<String, PartitionVerdict.Figure> c = index(cand);
        List<GatedFigures.Group> out = new ArrayList<>();
        for (String key : GatedFigures.common(List.copyOf(b.keySet()), List.copyOf(c.keySet()), only)) {
            PartitionVerdict.Figure fb = b.get(key);
            PartitionVerdict.Figure fc = c.get(key);
            String what = fc.model() + " " + fc.plan() + " " + fc.transport() + " over " + fc.group() + ", "
                    + fc.phase() + " batch " + fc.batch() + (fc.graph() ? " graph" : " eager")
                    + (fc.singleGpu() ? " (" + PartitionVerdict.SINGLE_GPU + ")" : "");
            UnaryOperator<GatedFigures.Row> hosts = otherMachines == null && !oneHost && staged(fc)
                    ? r -> GatedFigures.otherHosts(r, STAGED_ACROSS_HOSTS) : UnaryOperator.identity();
            // Figures taken from one round on one side and as the fastest of several on the other are not alike.
            UnaryOperator<GatedFigures.Row> steps = roundsAlike(fb.stepRoundCounts(), fc.stepRoundCounts(),
                    otherMachines, hosts);
            UnaryOperator<GatedFigures.Row> requests = roundsAlike(fb.requestRoundCounts(), fc.requestRoundCounts(),
                    otherMachines, hosts);
            List<GatedFigures.Row> step = new ArrayList<>();
            if (!fb.stepUs().isEmpty() && !fc.stepUs().isEmpty()) {
                step.add(steps.apply(GatedFigures.row("step time (µs)", false, fb.stepUs(), fc.stepUs(),
                        stepFloor, stepSource, thresholdPct, otherMachines)));
            }
            if (!fb.tokensPerSecond().isEmpty() && !fc.tokensPerSecond().isEmpty()) {
                step.add(steps.apply(GatedFigures.row("tokens/s", true, fb.tokensPerSecond(), fc.tokensPerSecond(),
                        stepFloor, stepSource, thresholdPct, otherMachines)));
            }
            if (!step.isEmpty()) {
                out.add(GatedFigures.group("partition", what, step));
            }
            if (!fb.requestUs().isEmpty() && !fc.requestUs().isEmpty()) {
                out.add(GatedFigures.group("partition", what, List.of(requests.apply(GatedFigures.row(
                        REQUEST_LATENCY, false, fb.requestUs(), fc.requestUs(), requestFloor, requestSource,
                        thresholdPct, otherMachines)))));
            }
        }
        return out;
    }

    /** The name of the request latency row: what the figure is. */
    static final String REQUEST_LATENCY = "request latency (µs, p50)";

    /**
     * {@code otherwise} where the sides' runs read a figure from alike rounds (or the sides are of two machines, shown
     * side by side), else "not judged" with {@link #ROUNDS_DIFFER}.
     */
    private static UnaryOperator<GatedFigures.Row> roundsAlike(Set<Integer> base, Set<Integer> cand,
                                                               String otherMachines,
                                                               UnaryOperator<GatedFigures.Row> otherwise) {
        return otherMachines == null && !base.equals(cand)
                ? r -> GatedFigures.with(r, Verdict.UNJUDGED, ROUNDS_DIFFER) : otherwise;
    }

    /** Whether a configuration's activations are staged through host memory. */
    private static boolean staged(PartitionVerdict.Figure f) {
        return Transport.HOST_STAGED.name().equals(f.transport());
    }

    /** Measured figures by configuration, machine left out (the caller decides what two machines mean). */
    private static Map<String, PartitionVerdict.Figure> index(List<PartitionVerdict.Figure> figures) {
        Map<String, PartitionVerdict.Figure> out = new LinkedHashMap<>();
        for (PartitionVerdict.Figure f : figures) {
            if (f.skipReason() == null && !(f.tokensPerSecond().isEmpty() && f.requestUs().isEmpty())) {
                out.putIfAbsent(String.join("|", f.model(), f.phase(), Integer.toString(f.batch()),
                        Boolean.toString(f.graph()), f.plan().name(), f.transport(), f.group()), f);
            }
        }
        return out;
    }
}
