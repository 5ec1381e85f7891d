package io.p2pbench.partition;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One inference step of a transformer split over {@code ranks} GPUs: what each rank computes, what
 * crosses between ranks, and what the whole model needs in memory per GPU. Pure arithmetic, shared
 * by the planner (dry runs, skips), the GPU step and the report.
 *
 * <p>Per layer and rank, as serving engines run a Llama-style layer: RMSNorm fused with the residual
 * add, the QKV projection, rotary embedding on q and k with the KV-cache write, attention (decode:
 * flash-decoding over the cached context; prefill: causal flash attention over the prompt), the
 * output projection, a second fused add-and-norm, and the gated MLP (gate and up as one GEMM,
 * SiLU(gate) * up, down). Mixtures of experts add the router GEMM and route every token to {@code
 * topK} experts, evenly; each expert's GEMMs run as one batched GEMM over the rank's experts. The
 * first stage looks the tokens up in the embedding; the last applies the final norm and the LM head
 * to each sequence's last token. Head size is {@link #HEAD_SIZE}.
 *
 * @param ranks ranks of the plan (1 for {@link Plan#SINGLE})
 * @param batch sequences per step
 * @param prompt prompt tokens per sequence (prefill)
 * @param context tokens each decode step attends to (its KV cache, the new token included)
 */
public record PartitionSpec(ModelShape model, Plan plan, int ranks, Phase phase, int batch, int prompt, int context) {
    /** Bytes of one bfloat16 element. */
    static final int BF16 = 2;
    /** Head size the step's attention kernels take (every preset's). */
    public static final int HEAD_SIZE = 128;

    /** Checks positivity; divisibility is {@link #requireDivides()}. */
    public PartitionSpec {
        if (ranks < 1 || batch < 1 || prompt < 1 || context < 1) {
            throw new IllegalArgumentException("ranks, batch, prompt and context must be positive: " + ranks + ", "
                    + batch + ", " + prompt + ", " + context);
        }
        if (plan == Plan.SINGLE && ranks != 1) {
            throw new IllegalArgumentException("plan SINGLE runs on one GPU, not " + ranks);
        }
    }

    /**
     * Throws {@link IllegalArgumentException}, one line naming the value and what would divide, when
     * the plan cannot split the model: a TP degree not dividing the heads, KV heads and FFN; more PP
     * stages than layers; an EP degree not dividing the experts (or a dense model).
     */
    public void requireDivides() {
        int group = model.kvHeads() == 0 ? 0 : model.heads() / model.kvHeads();
        if (model.headSize() != HEAD_SIZE || model.heads() % model.kvHeads() != 0 || Integer.bitCount(group) != 1 || group > 8) {
            throw new IllegalArgumentException(model.name() + " has head size " + model.headSize() + " and "
                    + model.heads() + " query heads over " + model.kvHeads() + " KV heads; the step's attention kernels "
                    + "take head size " + HEAD_SIZE + " and 1, 2, 4 or 8 query heads per KV head");
        }
        switch (plan) {
            case SINGLE -> { }
            case TP -> {
                if (model.heads() % ranks != 0 || model.kvHeads() % ranks != 0 || model.ffn() % ranks != 0
                        || model.vocab() % ranks != 0) {
                    throw new IllegalArgumentException("plan TP over " + ranks + " ranks does not divide " + model.name()
                            + " (" + model.heads() + " attention heads, " + model.kvHeads() + " KV heads, FFN "
                            + model.ffn() + ", vocabulary " + model.vocab() + "); use a TP degree that divides them all: "
                            + join(divisors(gcd(gcd(gcd(model.heads(), model.kvHeads()), model.ffn()), model.vocab()))));
                }
            }
            case PP -> {
                if (ranks > model.layers()) {
                    throw new IllegalArgumentException("plan PP over " + ranks + " stages exceeds " + model.name() + "'s "
                            + model.layers() + " layers; use at most " + model.layers() + " stages");
                }
            }
            case EP -> {
                if (model.experts() == 0) {
                    throw new IllegalArgumentException("plan EP needs experts, but " + model.name()
                            + " is dense; use MOE_8X_TOP2, or TP or PP");
                }
                if (model.experts() % ranks != 0) {
                    throw new IllegalArgumentException("plan EP over " + ranks + " ranks does not divide " + model.name()
                            + "'s " + model.experts() + " experts; use an EP degree that divides them: "
                            + join(divisors(model.experts())));
                }
            }
            default -> throw new IllegalStateException(plan.toString());
        }
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    static List<Integer> divisors(int n) {
        return IntStream.rangeClosed(1, n).filter(d -> n % d == 0).boxed().toList();
    }

    private static String join(List<Integer> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** Tensor-parallel degree (1 unless TP). */
    public int tp() {
        return plan == Plan.TP ? ranks : 1;
    }

    /** Pipeline stages (1 unless PP). */
    public int stages() {
        return plan == Plan.PP ? ranks : 1;
    }

    /** Expert-parallel degree (1 unless EP). */
    public int ep() {
        return plan == Plan.EP ? ranks : 1;
    }

    /** Tokens one step puts through the model: {@code batch x prompt} in prefill, {@code batch} in decode. */
    public long tokensPerStep() {
        return phase == Phase.PREFILL ? (long) batch * prompt : batch;
    }

    /**
     * Tokens a rank's attention handles: all of them, or under EP (data-parallel attention, whole
     * sequences per rank) those of its {@link #rankSequences()}.
     */
    public int rankTokens() {
        return rankSequences() * (phase == Phase.PREFILL ? prompt : 1);
    }

    /** Sequences a rank's attention holds KV for. */
    public int rankSequences() {
        return (int) ceilDiv(batch, ep());
    }

    /** Tokens each sequence attends to: the prompt in prefill, the context in decode. */
    public int attendedTokens() {
        return phase == Phase.PREFILL ? prompt : context;
    }

    /** Layers of stage {@code stage}: an even split, the first stages taking the remainder. */
    public int layersOfStage(int stage) {
        int s = stages();
        return model.layers() / s + (stage < model.layers() % s ? 1 : 0);
    }

    /** The most layers any rank holds. */
    public int maxLayersPerRank() {
        return layersOfStage(0);
    }

    /** Experts on each rank (0 for dense models). */
    public int expertsPerRank() {
        return model.experts() / ep();
    }

    /** Tokens each local expert processes per step (even routing, rounded up); 0 for dense models. */
    public int tokensPerExpert() {
        return model.experts() == 0 ? 0 : (int) ceilDiv(tokensPerStep() * model.topK(), model.experts());
    }

    /** Query heads on a rank. */
    public int qHeadsPerRank() {
        return model.heads() / tp();
    }

    /** KV heads on a rank. */
    public int kvHeadsPerRank() {
        return model.kvHeads() / tp();
    }

    /** Columns of a rank's QKV projection: its query, key and value heads. */
    public int qkvColumns() {
        return (model.heads() + 2 * model.kvHeads()) * model.headSize() / tp();
    }

    /** MLP (per-expert) intermediate size on a rank. */
    public int ffnPerRank() {
        return model.ffn() / tp();
    }

    /** Vocabulary rows of the embedding and columns of the LM head on a rank (split under TP). */
    public int vocabPerRank() {
        return model.vocab() / tp();
    }

    /** The GEMMs of one layer on one rank, in order. */
    public List<GemmShape> layerGemms() {
        return layerGemms(rankTokens(), tokensPerExpert());
    }

    /** The GEMMs of one layer on one rank for {@code rows} tokens and {@code expertRows} rows per local expert. */
    List<GemmShape> layerGemms(int rows, int expertRows) {
        int h = model.hidden();
        List<GemmShape> out = new ArrayList<>();
        out.add(new GemmShape("qkv", rows, h, qkvColumns(), 1));
        out.add(new GemmShape("out", rows, qHeadsPerRank() * model.headSize(), h, 1));
        if (model.experts() == 0) {
            out.add(new GemmShape("gate_up", rows, h, 2 * ffnPerRank(), 1));
            out.add(new GemmShape("down", rows, ffnPerRank(), h, 1));
        } else {
            out.add(new GemmShape("router", rows, h, model.experts(), 1));
            out.add(new GemmShape("gate_up", expertRows, h, 2 * ffnPerRank(), expertsPerRank()));
            out.add(new GemmShape("down", expertRows, ffnPerRank(), h, expertsPerRank()));
        }
        return out;
    }

    /** The LM head on the last stage: each of the rank's sequences' last token times its vocabulary share. */
    public GemmShape headGemm() {
        return new GemmShape("lm_head", rankSequences(), model.hidden(), vocabPerRank(), 1);
    }

    /**
     * Attention FLOPs of one layer on one rank (QK^T and PV, 2 each per multiply-add): decode, every
     * sequence's query against its {@code context} keys; prefill, causal, query i against i + 1 keys.
     */
    public double attentionFlopsPerLayer() {
        double perPair = 4.0 * qHeadsPerRank() * model.headSize();
        double pairs = phase == Phase.PREFILL ? (double) prompt * (prompt + 1) / 2 : context;
        return perPair * pairs * rankSequences();
    }

    /** FLOPs of one layer on one rank: its GEMMs and attention (the elementwise kernels' are not counted). */
    public double flopsPerLayer() {
        double f = attentionFlopsPerLayer();
        for (GemmShape g : layerGemms()) {
            f += g.flops();
        }
        return f;
    }

    /** KV-cache bytes one rank holds for one layer (keys and values of its KV heads for its sequences). */
    public long kvBytesPerLayer() {
        long kvHeads = model.kvHeads() / tp();
        return 2L * kvHeads * model.headSize() * BF16 * rankSequences() * attendedTokens();
    }

    /** Weight bytes of one layer on one rank. */
    public long weightBytesPerLayer() {
        long h = model.hidden();
        long d = model.headSize();
        long attn = h * (model.heads() + 2L * model.kvHeads()) * d + (long) model.heads() * d * h;
        long mlp = 3L * h * model.ffn() * Math.max(1, model.experts() == 0 ? 1 : expertsPerRank());
        long replicated = h * model.experts() + 2 * h; // the router and the two norms' weights
        return ((attn + mlp) / tp() + replicated) * BF16;
    }

    /**
     * Activation bytes one layer's elementwise kernels read and write on a rank: the two fused
     * add-and-norms (residual and input read, residual and output written), rotary and the KV-cache
     * write (q, k, v read, q and the cache written), SiLU(gate) x up (gate and up read, the product
     * written) and, for mixtures of experts, the gather into expert order and the weighted combine.
     */
    public long elementwiseBytesPerLayer() {
        long h = model.hidden();
        long t = rankTokens();
        long bytes = 8 * t * h + 2 * t * qkvColumns();
        if (model.experts() == 0) {
            bytes += 3L * ffnPerRank() * t;
        } else {
            long routed = t * model.topK();
            bytes += 3L * ffnPerRank() * expertsPerRank() * tokensPerExpert() + 2 * routed * h + (routed + t) * h;
        }
        return bytes * BF16;
    }

    /** LM-head weight bytes the last stage reads each step. */
    public long headBytesPerRank() {
        return (long) vocabPerRank() * model.hidden() * BF16;
    }

    /** Embedding and output-head bytes on the rank that holds the most of them. */
    public long embeddingBytesPerRank() {
        long one = (long) model.vocab() * model.hidden() * BF16;
        return stages() > 1 ? one : 2 * one / tp();
    }

    /** Bytes of the [rankTokens x hidden] activation: what a TP all-reduce sums and a PP boundary carries. */
    public long activationBytes() {
        return (long) rankTokens() * model.hidden() * BF16;
    }

    /** Bytes crossing between ranks at one boundary: one all-reduce's buffer (TP), one stage's output (PP), one dispatch (EP). */
    public long bytesPerBoundary() {
        return switch (plan) {
            case SINGLE -> 0;
            case TP, PP -> activationBytes();
            case EP -> dispatchBytesPerRank();
        };
    }

    /** Boundaries per step: two all-reduces per layer (TP), stages - 1 (PP), dispatch and combine per layer (EP). */
    public long boundariesPerStep() {
        return switch (plan) {
            case SINGLE -> 0;
            case TP -> 2L * model.layers();
            case PP -> stages() - 1;
            case EP -> 2L * model.layers();
        };
    }

    /**
     * Tokens each rank sends to each rank in one EP dispatch (combine sends the same counts back):
     * the rank's {@link #rankTokens()} each routed to {@code topK} experts, spread uniformly over the
     * ranks by {@link ModelShape#routedTokens(long, int, double)} (the activation exchange's routing
     * with skew 1/ranks). {@code counts[r][r]} stay on their rank and do not cross.
     *
     * @return counts[src][dst]; empty for a dense model
     */
    public long[][] routedTokens() {
        if (model.experts() == 0) {
            return new long[0][0];
        }
        return model.routedTokens(rankTokens(), ep(), 1.0 / ep());
    }

    /** Routed-token bytes the busiest sender sends to the other ranks in one dispatch (uniform routing). */
    public long dispatchBytesPerRank() {
        if (ep() == 1) {
            return 0;
        }
        long[][] counts = routedTokens();
        long most = 0;
        for (int s = 0; s < counts.length; s++) {
            long sent = 0;
            for (int d = 0; d < counts.length; d++) {
                sent += d == s ? 0 : counts[s][d];
            }
            most = Math.max(most, sent);
        }
        return most * model.hidden() * BF16;
    }

    /**
     * Rows of a rank's EP receive buffer: every token routed to it (its own included, which stay in
     * place) and at least what its local experts' batched GEMMs read ({@link #tokensPerExpert()}
     * rows per local expert).
     */
    public long receiveRows() {
        if (plan != Plan.EP) {
            return 0;
        }
        long[][] counts = routedTokens();
        long most = 0;
        for (int d = 0; d < counts.length; d++) {
            long in = 0;
            for (long[] from : counts) {
                in += from[d];
            }
            most = Math.max(most, in);
        }
        return Math.max(most, (long) expertsPerRank() * tokensPerExpert());
    }

    /**
     * Device bytes of a rank's EP exchange buffers: what it dispatches and what combine brings back
     * ({@code rankTokens x topK} rows each), what it receives and what its experts return
     * ({@link #receiveRows()} each); 0 for the other plans.
     */
    public long exchangeBufferBytes() {
        if (plan != Plan.EP) {
            return 0;
        }
        long sendRows = (long) rankTokens() * model.topK();
        return 2 * (sendRows + receiveRows()) * model.hidden() * BF16;
    }

    /**
     * Device memory the step's working buffers take on a rank ({@link BufferPlan}: activations, MLP
     * and expert scratch, attention partials, logits, step metadata, EP exchange buffers, the TP
     * all-reduce's buffers, the cuBLAS workspace).
     */
    public long workspaceBytes() {
        return BufferPlan.of(this, StepCapacity.of(this)).workspaceBytes();
    }

    /**
     * Memory one GPU needs for the whole model under this plan: weights of every layer it holds,
     * the embedding and LM head, the KV cache for the batch and context, and the working buffers.
     */
    public long memoryPerGpu() {
        long layers = maxLayersPerRank();
        return layers * weightBytesPerLayer() + embeddingBytesPerRank() + layers * kvBytesPerLayer() + workspaceBytes();
    }

    /** Memory kept free for the CUDA context, NCCL and allocator slack when judging fit. */
    public static final long RESERVE_BYTES = 2L << 30;

    /**
     * Why the plan does not fit the GPUs of {@code group}, or null when it fits: SINGLE runs on the group's first GPU
     * alone; otherwise the ranks placed on one GPU share its {@code gpuBytes}.
     */
    public String doesNotFit(Group group, IntToLongFunction gpuBytes) {
        int[] devices = plan == Plan.SINGLE ? new int[] {group.device(0)} : group.distinctDevices();
        for (int d : devices) {
            long ranksHere = plan == Plan.SINGLE ? 1 : group.devices().stream().filter(x -> x == d).count();
            String why = doesNotFit(gpuBytes.applyAsLong(d) / ranksHere);
            if (why != null) {
                return why + String.format(Locale.ROOT, " (GPU%d%s)", d, ranksHere > 1 ? ", shared by " + ranksHere
                        + " ranks" : "");
            }
        }
        return null;
    }

    /** Why the plan does not fit a GPU of {@code gpuBytes}, or null when it fits. */
    public String doesNotFit(long gpuBytes) {
        long need = memoryPerGpu();
        if (need + RESERVE_BYTES <= gpuBytes) {
            return null;
        }
        return String.format(Locale.ROOT, "does not fit: %s %s over %d GPU%s needs %.1f GiB per GPU (weights, KV for "
                        + "batch %d x %d tokens, buffers) + %.0f GiB reserve, GPU has %.1f GiB",
                model.name(), plan, ranks, ranks == 1 ? "" : "s", need / GIB, batch, attendedTokens(),
                RESERVE_BYTES / GIB, gpuBytes / GIB);
    }

    private static final double GIB = 1024.0 * 1024 * 1024;

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /** A short label: {@code DENSE_8B TP x2 DECODE b8 c4096}. */
    public String label() {
        return model.name() + " " + plan + (ranks > 1 ? " x" + ranks : "") + " " + phase + " b" + batch
                + (phase == Phase.PREFILL ? " p" + prompt : " c" + context);
    }
}
