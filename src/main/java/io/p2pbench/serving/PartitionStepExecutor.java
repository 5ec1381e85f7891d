package io.p2pbench.serving;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.PartitionStep;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import io.p2pbench.partition.StepBatch;
import io.p2pbench.partition.StepBreakdown;
import io.p2pbench.partition.Transport;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes scheduler iterations on the GPUs with the partition step of one plan and transport
 * ({@link PartitionStep#forLimits}): its KV cache and activations are sized for {@link #limits()},
 * and every {@link StepShape} runs as one real forward step (every layer's kernels and GEMMs, the
 * plan's exchanges), its device time returned.
 *
 * <p>CUDA graphs, as serving engines use them: with {@code graph}, a graph per decode batch size in
 * {@link #decodeBuckets} (vLLM's list: 1, 2, 4, then multiples of 8, and the largest batch) is
 * captured up front, when the executor is built, so that no capture lands inside a request's
 * latency; a pure decode step runs the graph of the next size up, its batch padded (padding
 * sequences attend to one token). Steps with prefill tokens run eagerly (their GEMMs are large
 * enough that launch costs hide behind them).
 *
 * <p>A shape's summed context is spread evenly over its sequences (the step's {@link StepBatch});
 * a decode sequence attends to at least its new token. Under EP (data-parallel attention) every
 * rank runs the busiest rank's share of the sequences.
 */
public final class PartitionStepExecutor implements VerifiedStepExecutor {
    private final PartitionStep step;
    private final StepLimits limits;
    private final String description;

    /**
     * Builds the step for {@code plan} over {@code group} (SINGLE: its first GPU) and captures its
     * decode graphs.
     *
     * @throws IllegalArgumentException when the plan cannot split the model, or the limits do not
     *     fit a step (more sequences than step tokens)
     */
    public PartitionStepExecutor(ModelShape model, Plan plan, Group group, Transport transport, StepLimits limits,
                                 boolean graph, long stagingChunk) {
        if (limits.maxStepTokens() < limits.maxSequences()) {
            throw new IllegalArgumentException("step limits of " + limits.maxSequences() + " sequences need at least as "
                    + "many step tokens, not " + limits.maxStepTokens());
        }
        int ranks = plan == Plan.SINGLE ? 1 : group.size();
        PartitionSpec spec = new PartitionSpec(model, plan, ranks, Phase.DECODE, limits.maxSequences(), 1,
                limits.maxContextTokens());
        spec.requireDivides();
        this.limits = limits;
        this.description = "partition step " + plan + " over " + group + ", " + transport + (graph
                ? ", decode graphs for " + decodeBuckets(limits.maxSequences()) + " sequences" : ", eager")
                + ", up to " + limits.maxSequences() + " sequences, " + limits.maxStepTokens() + " step tokens, "
                + limits.maxContextTokens() + " tokens per sequence";
        this.step = PartitionStep.forLimits(spec, limits.maxSequences(), limits.maxStepTokens(),
                limits.maxContextTokens(), group, transport, graph, stagingChunk,
                decodeBuckets(limits.maxSequences()).stream().mapToInt(Integer::intValue).toArray());
    }

    /** The decode batch sizes captured as graphs for at most {@code maxSequences}: 1, 2, 4, multiples of 8, and {@code maxSequences}. */
    public static List<Integer> decodeBuckets(int maxSequences) {
        List<Integer> out = new ArrayList<>();
        for (int b : new int[] {1, 2, 4}) {
            if (b < maxSequences) {
                out.add(b);
            }
        }
        for (int b = 8; b < maxSequences; b += 8) {
            out.add(b);
        }
        out.add(maxSequences);
        return out;
    }

    /** The step's batch for {@code shape}: its counts, a decode sequence attending to at least its new token. */
    static StepBatch batchOf(StepShape shape) {
        return new StepBatch(shape.decodeSequences(), Math.max(shape.decodeContextTokens(), shape.decodeSequences()),
                shape.prefillSequences(), shape.prefillTokens(), shape.prefillContextTokens());
    }

    @Override
    public long run(StepShape shape) {
        if (!limits.admits(shape)) {
            throw new IllegalArgumentException("step " + shape + " exceeds the executor's limits " + limits);
        }
        return Math.round(step.deviceMicros(batchOf(shape)) * 1000.0);
    }

    @Override
    public StepLimits limits() {
        return limits;
    }

    /** Checks every GEMM, kernel and exchange of the step ({@link PartitionStep#verify}); returns the bytes checked. */
    @Override
    public long verify() {
        return step.verify();
    }

    @Override
    public StepBreakdown breakdown(StepShape shape) {
        return step.breakdown(batchOf(shape));
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void close() {
        step.close();
    }
}
