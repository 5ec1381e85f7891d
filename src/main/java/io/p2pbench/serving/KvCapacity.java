package io.p2pbench.serving;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import io.p2pbench.partition.PartitionSpec;
import io.p2pbench.partition.Phase;
import io.p2pbench.partition.Plan;
import java.util.Locale;
import java.util.function.IntToLongFunction;

/**
 * How many KV-cache tokens a plan holds: per rank, its GPU's free memory (shared evenly by the ranks
 * on that GPU, less {@link PartitionSpec#RESERVE_BYTES} once per GPU) less what the rank needs
 * besides the cache (its layers' weights, embeddings, and the step's working buffers at the batch
 * policy's largest step), divided by the KV bytes one token takes on that rank (its layers, its
 * share of the KV heads). Every rank of SINGLE, TP and PP holds a slice of every token, so the plan
 * holds the least of its ranks; under EP each rank holds whole sequences (data-parallel attention),
 * so the plan holds the ranks' sum. The arithmetic is {@link PartitionSpec}'s, the partition study's.
 *
 * @param tokens KV tokens the plan holds (0 when it does not fit)
 * @param kvBytesPerToken KV bytes of one token on the rank that needs the most per token
 * @param fixedBytesPerRank weights, embeddings and buffers of the rank that needs the most
 * @param shortfall why it does not fit, or null
 */
public record KvCapacity(long tokens, long kvBytesPerToken, long fixedBytesPerRank, String shortfall) {
    private static final double GIB = 1024.0 * 1024 * 1024;

    /**
     * The capacity of {@code plan} over {@code group} (SINGLE: its first GPU) with {@code freeBytes}
     * of each GPU free before the model is loaded: {@code Cuda.memInfo} on the GPU, a given figure
     * (the topology's memory) when planning.
     */
    public static KvCapacity of(ModelShape model, Plan plan, Group group, BatchPolicy policy, IntToLongFunction freeBytes) {
        int ranks = plan == Plan.SINGLE ? 1 : group.size();
        long least = Long.MAX_VALUE;
        long perTokenMost = 0;
        long fixedMost = 0;
        for (int r = 0; r < ranks; r++) {
            int device = group.device(r);
            long sharing = plan == Plan.SINGLE ? 1 : group.devices().stream().filter(x -> x == device).count();
            PartitionSpec decode = new PartitionSpec(model, plan, ranks, Phase.DECODE, policy.maxSequences(), 1, 1);
            PartitionSpec prefill = new PartitionSpec(model, plan, ranks, Phase.PREFILL, 1, policy.stepTokens(), 1);
            int layers = decode.layersOfStage(plan == Plan.PP ? r : 0);
            long fixed = layers * decode.weightBytesPerLayer() + decode.embeddingBytesPerRank()
                    + Math.max(decode.workspaceBytes(), prefill.workspaceBytes());
            long perToken = layers * 2L * (model.kvHeads() / decode.tp()) * model.headSize() * 2;
            long share = (freeBytes.applyAsLong(device) - PartitionSpec.RESERVE_BYTES) / sharing - fixed;
            perTokenMost = Math.max(perTokenMost, perToken);
            fixedMost = Math.max(fixedMost, fixed);
            if (share <= 0) {
                return new KvCapacity(0, perTokenMost, fixedMost, String.format(Locale.ROOT, "does not fit: %s %s over %d "
                        + "GPU%s needs %.1f GiB per rank (weights, embeddings, buffers) + %.0f GiB reserve per GPU, GPU%d "
                        + "has %.1f GiB free%s", model.name(), plan, ranks, ranks == 1 ? "" : "s", fixed / GIB,
                        PartitionSpec.RESERVE_BYTES / GIB, device, freeBytes.applyAsLong(device) / GIB,
                        sharing > 1 ? " for " + sharing + " ranks" : ""));
            }
            least = Math.min(least, share / perToken);
        }
        long tokens = plan == Plan.EP ? least * ranks : least;
        return new KvCapacity(tokens, perTokenMost, fixedMost, null);
    }

    /** Sequences of {@code contextTokens} each that fit at once. */
    public long sequencesAt(int contextTokens) {
        return tokens / contextTokens;
    }

    /** Tokens each of {@code sequences} sequences may hold at once. */
    public long contextAt(int sequences) {
        return tokens / sequences;
    }

    /** Whether one sequence of {@code contextTokens} fits. */
    public boolean fits(int contextTokens) {
        return shortfall == null && tokens >= contextTokens;
    }
}
