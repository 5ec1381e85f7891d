package io.p2pbench.partition;

import io.p2pbench.cuda.Cublas;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Kernel;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.SuiteKernels;
import java.util.ArrayList;
import java.util.List;

/**
 * Enqueues one rank's share of the forward pass on its stream, piece by piece, for the {@link
 * StepGeometry} last {@link #use}d: kernels from {@code forward.cu} and cuBLAS GEMMs on the rank's
 * {@link RankBuffers}. The step ({@link PartitionStep}) puts the plan's exchanges between the pieces:
 * <ul>
 *   <li>{@link #entry}: the embedding lookup (first layer of the first stage), the EP weighted
 *       combine of the previous layer's experts, and the first fused add-and-norm;
 *   <li>{@link #attention}: QKV GEMM, rotary and KV-cache write, decode and prefill attention,
 *       output GEMM (under TP into the all-reduce's input);
 *   <li>{@link #mlp}: the second fused add-and-norm and the MLP: dense, or router, gather into
 *       expert order, batched expert GEMMs and the weighted combine; under EP it stops at the
 *       gather into the send buffer, and {@link #experts} runs the experts on what the dispatch
 *       brought;
 *   <li>{@link #exit}: the final norm and the LM head on each sequence's last token (last stage),
 *       or the residual add that makes the stage's output (other PP stages).
 * </ul>
 * Which buffer carries a piece's result to the next: {@code hid}, or under TP the all-reduce's
 * input, whose output the next norm reads.
 */
final class RankForward implements AutoCloseable {
    private static final float NORM_EPS = 1e-5f;
    private static final int EMBED_SEED = 0x70CE;

    private final PartitionSpec spec;
    private final BufferPlan plan;
    private final RankBuffers b;
    private final Cublas blas;
    private final CudaStream stream;
    private final KernelTimer timer;
    private final boolean firstStage;
    private final boolean lastStage;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final Kernel.Launch embed;
    private final Kernel.Launch norm;
    private final Kernel.Launch rotary;
    private final Kernel.Launch decode;
    private final Kernel.Launch combineSplits;
    private final Kernel.Launch prefill;
    private final Kernel.Launch silu;
    private final Kernel.Launch gates;
    private final Kernel.Launch gather;
    private final Kernel.Launch combine;
    private final Kernel.Launch headGather;
    private StepGeometry g;
    private DeviceBuffer ringIn;
    private DeviceBuffer ringOut;

    RankForward(BufferPlan plan, RankBuffers b, Cublas blas, KernelTimer timer, boolean firstStage, boolean lastStage) {
        this.spec = plan.spec();
        this.plan = plan;
        this.b = b;
        this.blas = blas;
        this.stream = blas.stream();
        this.timer = timer;
        this.firstStage = firstStage;
        this.lastStage = lastStage;
        int h = spec.model().hidden();
        int ctx = plan.capacity().maxContext();
        int qh = spec.qHeadsPerRank();
        int kvh = spec.kvHeadsPerRank();
        float scaleLog2 = (float) (1.0 / Math.sqrt(PartitionSpec.HEAD_SIZE) / Math.log(2));
        DeviceBuffer[] kv0 = b.kv[0];
        try {
            embed = prepare("embedRows", 1, 128, b.hid, b.embedding == null ? b.hid : b.embedding, h, spec.vocabPerRank(), EMBED_SEED);
            norm = prepare("addRmsNorm", 1, 256, b.nrm, b.res, b.hid, b.finalNorm, h, NORM_EPS, 1, 1);
            rotary = prepare("rotaryCache", 1, 128, b.qkv, spec.qkvColumns(), kv0[0], kv0[1], b.metaAt(plan.posAt()),
                    b.metaAt(plan.slotAt()), b.invFreq, qh, kvh, ctx);
            decode = prepare("decodeAttentionG" + (qh / kvh), 1, 128, b.qkv, spec.qkvColumns(), kv0[0], kv0[1],
                    b.metaAt(plan.posAt()), b.metaAt(plan.slotAt()), kvh, ctx, scaleLog2, b.partO, b.partLse);
            combineSplits = prepare("decodeCombine", 1, 128, b.partO, b.partLse, b.att, qh, 1, qh * PartitionSpec.HEAD_SIZE);
            prefill = prepare("prefillAttention", 1, 128, b.qkv, spec.qkvColumns(), kv0[0], kv0[1], b.metaAt(plan.infoAt()),
                    qh, kvh, ctx, scaleLog2, b.att, qh * PartitionSpec.HEAD_SIZE);
            silu = prepare("siluMul", 1, SuiteKernels.BLOCK, b.act, b.mid, 1L, spec.ffnPerRank());
            DeviceBuffer moeIn = plan.moe() ? (b.send != null ? b.send : b.expertIn) : b.nrm;
            gates = prepare("routerGates", 1, SuiteKernels.BLOCK, b.routerLogits == null ? b.nrm : b.routerLogits,
                    Math.max(1, spec.model().experts()), b.metaAt(plan.choiceAt()), b.gates == null ? b.partLse : b.gates, 1,
                    Math.max(1, plan.topK()));
            gather = prepare("gatherRows", 1, 128, moeIn, b.nrm, b.metaAt(plan.gatherAt()), h);
            combine = prepare("expertCombine", 1, 128, b.hid, plan.moe() ? (b.back != null ? b.back : b.expertOut) : b.hid,
                    b.metaAt(plan.rowOfAt()), b.gates == null ? b.partLse : b.gates, Math.max(1, plan.topK()), h);
            headGather = prepare("gatherRows", 1, 128, b.headIn, b.nrm, b.metaAt(plan.lastAt()), h);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private Kernel.Launch prepare(String kernel, int grid, int block, Object... args) {
        return own(SuiteKernels.forwardKernel(b.device, kernel).prepare(grid, 1, 1, block, args));
    }

    private <T extends AutoCloseable> T own(T r) {
        owned.add(r);
        return r;
    }

    /**
     * Sets the grids of later pieces for {@code geometry}; under TP, {@code ringIn} and {@code ringOut}
     * are the all-reduce buffers sized for it (null otherwise). The metadata must already be on the
     * device ({@link RankBuffers#upload}).
     */
    void use(StepGeometry geometry, DeviceBuffer ringIn, DeviceBuffer ringOut) {
        this.g = geometry;
        this.ringIn = ringIn;
        this.ringOut = ringOut;
        int t = geometry.tokens;
        embed.grid(t, 1, 1);
        norm.grid(t, 1, 1);
        int rotaryTasks = (spec.qHeadsPerRank() + spec.kvHeadsPerRank()) * 8 + spec.kvHeadsPerRank() * 16;
        rotary.grid(t, (rotaryTasks + 127) / 128, 1);
        if (geometry.decodeRows > 0) {
            decode.grid(geometry.decodeSplits, spec.kvHeadsPerRank(), geometry.decodeRows);
            combineSplits.grid(spec.qHeadsPerRank(), geometry.decodeRows, 1).set(4, geometry.decodeSplits);
        }
        if (geometry.prefillSequences > 0) {
            prefill.grid((geometry.longestPrefill + 63) / 64, spec.qHeadsPerRank(), geometry.prefillSequences);
        }
        combine.grid(t, 1, 1);
        headGather.grid(Math.max(1, geometry.headRows), 1, 1);
        if (plan.moe()) {
            gates.grid(SuiteKernels.gridFor(b.device, t, SuiteKernels.BLOCK), 1, 1).set(4, t);
            gather.grid(geometry.gatheredRows(plan), 1, 1);
        }
    }

    private void begin() {
        timer.begin(stream);
    }

    private void end(StepKernel kind) {
        timer.end(stream, kind);
    }

    /**
     * Layer {@code layer} of the rank (0: the stage's first): embedding lookup or EP combine as
     * needed, then residual add and the first norm.
     */
    void entry(int layer) {
        boolean first = layer == 0;
        if (first && firstStage) {
            embedTokens();
        }
        if (!first && spec.plan() == Plan.EP) {
            combineExperts(b.hid, b.back);
        }
        normalise(first ? b.hid : layerOutput(), b.weights[layer % b.weights.length].norm1(), !first, true);
    }

    /** Attention of layer {@code layer}: from the normed input to the output projection. */
    void attention(int layer) {
        RankBuffers.LayerWeights w = b.weights[layer % b.weights.length];
        begin();
        qkvGemm(w);
        end(StepKernel.QKV_GEMM);
        rotaryAndCache(layer);
        attentionKernels(layer);
        begin();
        outGemm(w);
        end(StepKernel.OUT_GEMM);
    }

    /** The MLP of layer {@code layer}, after the residual add and second norm; under EP up to the dispatch's send buffer. */
    void mlp(int layer) {
        RankBuffers.LayerWeights w = b.weights[layer % b.weights.length];
        normalise(layerOutput(), w.norm2(), true, true);
        if (!plan.moe()) {
            begin();
            gateUpGemm(w);
            end(StepKernel.GATE_UP_GEMM);
            siluMul(g.tokens);
            begin();
            downGemm(w);
            end(StepKernel.DOWN_GEMM);
            return;
        }
        begin();
        routerGemm(w);
        gates.enqueue(stream);
        end(StepKernel.ROUTER);
        gatherForExperts();
        if (spec.plan() == Plan.EP) {
            return;
        }
        expertGemms(w);
        combineExperts(output(), b.expertOut);
    }

    /** EP: the local experts of layer {@code layer} on what the dispatch brought into the receive buffer. */
    void experts(int layer) {
        expertGemms(b.weights[layer % b.weights.length]);
    }

    private void expertGemms(RankBuffers.LayerWeights w) {
        begin();
        expertGateUpGemm(w);
        end(StepKernel.GATE_UP_GEMM);
        siluMul((long) g.expertTokens * spec.expertsPerRank());
        begin();
        expertDownGemm(w);
        end(StepKernel.DOWN_GEMM);
    }

    /**
     * After the rank's last layer: the last stage's final norm and LM head on each sequence's last
     * token; another PP stage's residual add, which leaves the stage's output in {@code res}.
     */
    void exit() {
        if (spec.plan() == Plan.EP) {
            combineExperts(b.hid, b.back);
        }
        if (!lastStage) {
            normalise(b.hid, b.finalNorm, true, false);
            return;
        }
        normalise(layerOutput(), b.finalNorm, true, true);
        begin();
        headGather();
        headGemm();
        end(StepKernel.LM_HEAD);
    }

    // ---- single kernels and GEMMs, as the pieces above enqueue them (the step's check runs them one by one)

    void embedTokens() {
        begin();
        embed.enqueue(stream);
        end(StepKernel.EMBED);
    }

    /** Residual add ({@code res += in}, or {@code res = in}) and, when {@code write}, {@code nrm = norm(res) * weight}. */
    void normalise(DeviceBuffer in, DeviceBuffer weight, boolean add, boolean write) {
        begin();
        norm.set(0, b.nrm).set(2, in).set(3, weight).set(6, add ? 1 : 0).set(7, write ? 1 : 0).enqueue(stream);
        end(StepKernel.NORM);
    }

    void rotaryAndCache(int layer) {
        DeviceBuffer[] kv = b.kv[layer % b.kv.length];
        begin();
        rotary.set(2, kv[0]).set(3, kv[1]).enqueue(stream);
        end(StepKernel.ROTARY_CACHE);
    }

    void attentionKernels(int layer) {
        DeviceBuffer[] kv = b.kv[layer % b.kv.length];
        begin();
        if (g.decodeRows > 0) {
            decode.set(2, kv[0]).set(3, kv[1]).enqueue(stream);
            combineSplits.enqueue(stream);
        }
        if (g.prefillSequences > 0) {
            prefill.set(2, kv[0]).set(3, kv[1]).enqueue(stream);
        }
        end(StepKernel.ATTENTION);
    }

    void siluMul(long rows) {
        begin();
        silu.grid(SuiteKernels.gridFor(b.device, rows * spec.ffnPerRank() / 8, SuiteKernels.BLOCK), 1, 1).set(2, rows)
                .enqueue(stream);
        end(StepKernel.SILU_MUL);
    }

    void routerGates() {
        gates.enqueue(stream);
    }

    void gatherForExperts() {
        begin();
        gather.enqueue(stream);
        end(StepKernel.EXPERT_GATHER);
    }

    /** {@code out[t] = sum_k gate[t][k] src[rowOf[t][k]]}. */
    void combineExperts(DeviceBuffer out, DeviceBuffer src) {
        begin();
        combine.set(0, out).set(1, src).enqueue(stream);
        end(StepKernel.EXPERT_COMBINE);
    }

    void headGather() {
        headGather.enqueue(stream);
    }

    void qkvGemm(RankBuffers.LayerWeights w) {
        blas.matmulBf16(b.nrm, w.qkv(), b.qkv, g.tokens, spec.model().hidden(), spec.qkvColumns());
    }

    void outGemm(RankBuffers.LayerWeights w) {
        blas.matmulBf16(b.att, w.out(), output(), g.tokens, spec.qHeadsPerRank() * PartitionSpec.HEAD_SIZE,
                spec.model().hidden());
    }

    void gateUpGemm(RankBuffers.LayerWeights w) {
        blas.matmulBf16(b.nrm, w.gateUp(), b.mid, g.tokens, spec.model().hidden(), 2 * spec.ffnPerRank());
    }

    void downGemm(RankBuffers.LayerWeights w) {
        blas.matmulBf16(b.act, w.down(), output(), g.tokens, spec.ffnPerRank(), spec.model().hidden());
    }

    void routerGemm(RankBuffers.LayerWeights w) {
        blas.matmulBf16(b.nrm, w.router(), b.routerLogits, g.tokens, spec.model().hidden(), spec.model().experts());
    }

    void expertGateUpGemm(RankBuffers.LayerWeights w) {
        blas.matmulBf16Batched(b.expertIn, w.gateUp(), b.mid, g.expertTokens, spec.model().hidden(),
                2 * spec.ffnPerRank(), spec.expertsPerRank());
    }

    void expertDownGemm(RankBuffers.LayerWeights w) {
        blas.matmulBf16Batched(b.act, w.down(), b.expertOut, g.expertTokens, spec.ffnPerRank(), spec.model().hidden(),
                spec.expertsPerRank());
    }

    void headGemm() {
        blas.matmulBf16(b.headIn, b.head, b.logits, g.headRows, spec.model().hidden(), spec.vocabPerRank());
    }

    /** The buffer the attention and MLP pieces write their output to: the all-reduce's input (TP) or {@code hid}. */
    DeviceBuffer output() {
        return ringIn != null ? ringIn : b.hid;
    }

    /** What the next norm adds to the residual: the all-reduce's output (TP) or {@code hid}. */
    DeviceBuffer layerOutput() {
        return ringOut != null ? ringOut : b.hid;
    }

    boolean firstStage() {
        return firstStage;
    }

    boolean lastStage() {
        return lastStage;
    }

    /** The embedding kernel's token-id seed. */
    static int embedSeed() {
        return EMBED_SEED;
    }

    /** What a PP stage hands to the next: its residual stream after {@link #exit}. */
    DeviceBuffer stageOutput() {
        return b.res;
    }

    /** Where a PP stage receives its input: the first layer's norm reads it from {@code hid}. */
    DeviceBuffer stageInput() {
        return b.hid;
    }

    RankBuffers buffers() {
        return b;
    }

    Cublas blas() {
        return blas;
    }

    StepGeometry geometry() {
        return g;
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
    }
}
