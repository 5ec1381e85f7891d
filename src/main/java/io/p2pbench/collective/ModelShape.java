package io.p2pbench.collective;

import io.p2pbench.cuda.Nccl.DataType;
import java.util.List;
import java.util.Locale;

/**
 * The shape of a transformer model: what its layers compute (for the partition benchmark) and the
 * activations it exchanges between GPUs (for the activation-exchange benchmarks): hidden size,
 * sequence length, micro-batch and element type, the expert layout for mixtures of experts, and
 * the layer dimensions of a grouped-query-attention transformer with a gated MLP.
 *
 * @param experts number of experts (0 for dense models)
 * @param topK experts each token is routed to
 * @param layers transformer layers
 * @param ffn intermediate size of one MLP (of one expert for mixtures of experts)
 * @param heads attention (query) heads; head size is {@code hidden / heads}
 * @param kvHeads key/value heads (grouped-query attention)
 * @param vocab vocabulary size (embedding and output head)
 */
public record ModelShape(String name, int hidden, int sequence, int microBatch, DataType dtype, int experts,
                         int topK, int layers, int ffn, int heads, int kvHeads, int vocab) {

    /** An 8B-class dense model (Llama-3-8B's shape): 32 layers, hidden 4096, FFN 14336, 32 heads, 8 KV heads. */
    public static final ModelShape DENSE_8B = new ModelShape("DENSE_8B", 4096, 4096, 1, DataType.BFLOAT16, 0, 0,
            32, 14336, 32, 8, 128256);
    /** A 70B-class dense model (Llama-3-70B's shape): 80 layers, hidden 8192, FFN 28672, 64 heads, 8 KV heads. */
    public static final ModelShape DENSE_70B = new ModelShape("DENSE_70B", 8192, 4096, 1, DataType.BFLOAT16, 0, 0,
            80, 28672, 64, 8, 128256);
    /** A mixture of 8 experts with top-2 routing (Mixtral-8x7B's shape): 32 layers, hidden 4096, expert FFN 14336. */
    public static final ModelShape MOE_8X_TOP2 = new ModelShape("MOE_8X_TOP2", 4096, 4096, 1, DataType.BFLOAT16, 8, 2,
            32, 14336, 32, 8, 32000);

    /** The presets, in the order the suite lists them. */
    public static final List<ModelShape> PRESETS = List.of(DENSE_8B, DENSE_70B, MOE_8X_TOP2);

    /** Size of one attention head. */
    public int headSize() {
        return hidden / heads;
    }

    /** The preset named {@code name}; throws naming the accepted ones. */
    public static ModelShape named(String name) {
        return switch (name == null ? "" : name.toUpperCase(Locale.ROOT)) {
            case "DENSE_8B" -> DENSE_8B;
            case "DENSE_70B" -> DENSE_70B;
            case "MOE_8X_TOP2" -> MOE_8X_TOP2;
            default -> throw new IllegalArgumentException("unknown model preset '" + name
                    + "'; use DENSE_8B, DENSE_70B or MOE_8X_TOP2");
        };
    }

    /** Tokens in one micro-batch. */
    public long tokens() {
        return (long) microBatch * sequence;
    }

    /** Bytes of one [tokens x hidden] activation: what crosses a pipeline boundary, and what a tensor-parallel all-reduce sums. */
    public long activationBytes() {
        return tokens() * hidden * dtype.bytes();
    }

    /** Bytes of one token's hidden state. */
    public long tokenBytes() {
        return (long) hidden * dtype.bytes();
    }

    /**
     * Tokens each of {@code ranks} ranks sends to each rank in an expert-parallel dispatch: rank r's
     * {@code tokens * topK} routed tokens go to the experts' ranks, a fraction {@code skew} to the
     * hot rank 0 and the rest spread evenly over the others (sender s's remainders to ranks s+1,
     * s+2, ... of them, wrapping). Combine sends the same counts back. {@code skew} = 1/ranks is
     * uniform routing.
     *
     * @return counts[src][dst]
     */
    public long[][] routedTokens(int ranks, double skew) {
        return routedTokens(tokens(), ranks, skew);
    }

    /**
     * As {@link #routedTokens(int, double)}, for {@code tokensPerRank} tokens on each rank instead of
     * one micro-batch (the partition step's data-parallel attention share).
     *
     * @return counts[src][dst]
     */
    public long[][] routedTokens(long tokensPerRank, int ranks, double skew) {
        if (experts == 0) {
            throw new IllegalArgumentException(name + " has no experts to route to");
        }
        if (skew < 0 || skew > 1) {
            throw new IllegalArgumentException("skew " + skew + " is not a fraction between 0 and 1");
        }
        long routed = tokensPerRank * topK;
        long[][] counts = new long[ranks][ranks];
        for (int src = 0; src < ranks; src++) {
            long hot = Math.round(routed * skew);
            long rest = routed - hot;
            counts[src][0] += hot;
            if (ranks == 1) {
                counts[src][0] += rest;
                continue;
            }
            long each = rest / (ranks - 1);
            long extra = rest % (ranks - 1);
            for (int dst = 1; dst < ranks; dst++) {
                // remainders go to the next ranks after the sender's turn, so they spread over the ranks
                counts[src][dst] = each + (Math.floorMod(dst - 1 - src, ranks - 1) < extra ? 1 : 0);
            }
        }
        return counts;
    }
}
