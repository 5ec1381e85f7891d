package io.p2pbench.partition;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.settings.Settings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Times the partition step's SINGLE forward (decode at batch 8 and context 4096 as CUDA graphs,
 * prefill of 8 x 2048 tokens eagerly) for the presets on one GPU, checks it ({@link
 * PartitionStep#verify}), and prints each step's median device time and its per-kernel breakdown
 * (one eager instrumented step, {@link PartitionStep#kernelMicros}) as tab-separated lines, for
 * {@code tools/forward-check/torch_forward.py} to set beside the same shapes through PyTorch.
 *
 * <p>Lines: {@code step MODEL PHASE BATCH PROMPT CONTEXT GRAPH MEDIAN_US MIN_US MAX_US VERIFIED_BYTES}
 * and {@code kernel MODEL PHASE KIND MICROS}; a step whose check or run fails prints {@code failed
 * MODEL PHASE MESSAGE} instead (no figure), the program goes on with the next and exits with 1.
 * Decode: the median over 9 rounds of 10 back-to-back steps; prefill: over 5 single steps; both after
 * 3 untimed steps. The check runs after the timing (on the step's buffers, which it refills), and no
 * figure is printed for a step that fails it.
 *
 * <p>Run: {@code tools/forward-check/run.sh} (both programs, one GPU call). Arguments: models
 * (default DENSE_8B MOE_8X_TOP2); {@code -Dp2pbench.forward.device=N} picks the GPU.
 */
public final class ForwardCheck {
    private ForwardCheck() {}

    /** Prints the step and kernel lines for every model named (all presets but DENSE_70B by default). */
    public static void main(String[] args) {
        Cuda.Availability a = Cuda.availability();
        if (!a.available()) {
            System.err.println(a.problem());
            System.exit(1);
        }
        List<ModelShape> models = new ArrayList<>();
        for (String m : args.length == 0 ? new String[] {"DENSE_8B", "MOE_8X_TOP2"} : args) {
            models.add(ModelShape.named(m));
        }
        Group group = Group.parse(Integer.toString(Settings.current().forwardDevice()));
        boolean failed = false;
        for (ModelShape model : models) {
            for (Phase phase : new Phase[] {Phase.DECODE, Phase.PREFILL}) {
                try {
                    measure(new PartitionSpec(model, Plan.SINGLE, 1, phase, 8, 2048, 4096), group);
                } catch (RuntimeException e) {
                    failed = true;
                    e.printStackTrace();
                    System.out.printf(Locale.ROOT, "failed\t%s\t%s\t%s%n", model.name(), phase,
                            String.valueOf(e.getMessage()).replace('\t', ' ').replace('\n', ' '));
                    System.out.flush();
                }
            }
        }
        if (failed) {
            System.exit(1);
        }
    }

    private static void measure(PartitionSpec spec, Group group) {
        ModelShape model = spec.model();
        Phase phase = spec.phase();
        boolean graph = phase == Phase.DECODE;
        try (PartitionStep step = new PartitionStep(spec, group, Transport.P2P, graph, 4L << 20)) {
            step.deviceMicrosPerStep(3);
            int rounds = phase == Phase.DECODE ? 9 : 5;
            int steps = phase == Phase.DECODE ? 10 : 1;
            double[] us = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                us[i] = step.deviceMicrosPerStep(steps);
            }
            Arrays.sort(us);
            double median = rounds % 2 == 1 ? us[rounds / 2] : (us[rounds / 2 - 1] + us[rounds / 2]) / 2;
            long verified;
            try {
                verified = step.verify();
            } catch (RuntimeException e) {
                throw new IllegalStateException(e.getMessage() + " (the unchecked step took " + median + " us)", e);
            }
            System.out.printf(Locale.ROOT, "step\t%s\t%s\t%d\t%d\t%d\t%s\t%.1f\t%.1f\t%.1f\t%d%n", model.name(), phase,
                    spec.batch(), spec.prompt(), spec.context(), graph ? "graph" : "eager", median, us[0], us[rounds - 1],
                    verified);
            Map<StepKernel, Double> kernels = step.kernelMicros().get(0);
            for (Map.Entry<StepKernel, Double> e : kernels.entrySet()) {
                System.out.printf(Locale.ROOT, "kernel\t%s\t%s\t%s\t%.1f%n", model.name(), phase, e.getKey(), e.getValue());
            }
            System.out.flush();
        }
    }
}
