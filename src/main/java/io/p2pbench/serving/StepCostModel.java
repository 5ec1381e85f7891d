package io.p2pbench.serving;

import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;

/**
 * A model of a step's device time, for the planner's predictions and for tests: per rank and layer,
 * its FLOPs (projections, MLP or routed experts, attention scores over the cached and new tokens) at
 * {@link #FLOPS_PER_SECOND} plus its bytes (its weights once, the KV it reads) at
 * {@link #BYTES_PER_SECOND}, the LM head once per sampled sequence, and {@link #STEP_OVERHEAD_NANOS}.
 * The rates are the partition predictor's ({@code run.TimePredictor}: cuBLAS bf16 and decode-step
 * HBM rates measured on the H200 node; a test keeps them equal). Pipeline stages run one after
 * another (no micro-batches); other plans run their ranks at once, ranks that share a GPU one after
 * another. Communication is left out, as in the partition predictor.
 *
 * @param distinctGpus GPUs the ranks run on (ranks may share one)
 */
public record StepCostModel(ModelShape model, Plan plan, int ranks, int distinctGpus) {
    /** bf16 GEMM rate, FLOP/s (the partition predictor's). */
    public static final double FLOPS_PER_SECOND = 780e12;
    /** HBM bytes per second a step's weight and KV reads reach (the partition predictor's). */
    public static final double BYTES_PER_SECOND = 4.0e12;
    /** Launch and host cost of one step beyond its kernels, nanoseconds (assumed). */
    public static final long STEP_OVERHEAD_NANOS = 20_000;

    /** Checks the plan against the model. */
    public StepCostModel {
        if (distinctGpus < 1 || distinctGpus > ranks) {
            throw new IllegalArgumentException(distinctGpus + " distinct GPUs for " + ranks + " ranks");
        }
        spec(model, plan, ranks).requireDivides();
    }

    private static PartitionSpec spec(ModelShape model, Plan plan, int ranks) {
        return new PartitionSpec(model, plan, ranks, Phase.DECODE, 1, 1, 1);
    }

    /** Modelled device time of {@code s}, nanoseconds. */
    public long nanos(StepShape s) {
        PartitionSpec spec = spec(model, plan, ranks);
        double tp = spec.tp();
        double ep = spec.ep();
        double h = model.hidden();
        double d = model.headSize();
        double tokens = s.tokens();
        double attnParams = (h * (model.heads() + 2.0 * model.kvHeads()) * d + model.heads() * d * h) / tp;
        double mlpParams = 3.0 * h * model.ffn() / tp;
        double routed = model.experts() == 0 ? 1 : model.topK();
        double flops = 2 * tokens / ep * attnParams + 2 * tokens * routed / ep * mlpParams;
        double qWidth = model.heads() * d / tp;
        flops += 4 * (s.decodeContextTokens() + s.decodeSequences()) / ep * qWidth;
        if (s.prefillSequences() > 0) {
            double p = s.prefillTokens();
            flops += 4 * qWidth / ep * (p * s.prefillContextTokens() + p * p / 2) / s.prefillSequences();
        }
        double kvPerToken = 2 * (model.kvHeads() / tp) * d * 2;
        double kvTokens = s.decodeContextTokens() + s.decodeSequences() + s.prefillContextTokens() + s.prefillTokens();
        double bytes = spec.weightBytesPerLayer() + kvTokens / ep * kvPerToken;
        double perLayer = flops / FLOPS_PER_SECOND + bytes / BYTES_PER_SECOND;
        double sampled = s.decodeSequences() + s.prefillSequences();
        double head = (2 * sampled * h * model.vocab() / tp) / FLOPS_PER_SECOND
                + (model.vocab() * h * 2 / tp) / BYTES_PER_SECOND;
        double seconds;
        if (plan == Plan.PP) {
            seconds = model.layers() * perLayer + head;
        } else {
            int sequential = (ranks + distinctGpus - 1) / distinctGpus;
            seconds = (spec.maxLayersPerRank() * perLayer + head) * sequential;
        }
        return Math.round(seconds * 1e9) + STEP_OVERHEAD_NANOS;
    }
}
