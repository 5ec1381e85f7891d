package io.p2pbench.partition;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.SuiteKernels;
import java.util.ArrayList;
import java.util.List;

/**
 * One rank's device memory for the forward step, sized by a {@link BufferPlan}: activations, MLP and
 * expert scratch, attention partials, logits, step metadata, EP exchange buffers, the weights and the
 * KV cache.
 *
 * <p>Weights are not the whole model: the rank cycles through a few copies of one layer's weights
 * (enough that consecutive layers never find them in L2: at least {@link #ROTATION_BYTES}, or one
 * per layer), and likewise for the KV cache, so a step's time does not depend on the model fitting
 * on the GPU. The embedding (first stage) and the LM head (last stage) are allocated whole. Values:
 * each weight matrix holds the suite's bf16 pattern scaled to about {@code 1/sqrt(inner)}, so
 * activations keep their size from layer to layer, as a trained model's do (constant or zero
 * operands would draw less power and run faster); norm weights, embedding and KV cache hold the
 * pattern in [-1, 1).
 */
final class RankBuffers implements AutoCloseable {
    /** Weight and KV bytes a rank cycles through at least. */
    static final long ROTATION_BYTES = 256L << 20;

    /** One copy of a layer's weights (gate_up and down hold every local expert, one after another). */
    record LayerWeights(DeviceBuffer norm1, DeviceBuffer norm2, DeviceBuffer qkv, DeviceBuffer out, DeviceBuffer router,
                        DeviceBuffer gateUp, DeviceBuffer down) {}

    final int rank;
    final int device;
    final BufferPlan plan;
    private final CudaStream stream;
    private final List<AutoCloseable> owned = new ArrayList<>();
    final DeviceBuffer res;
    final DeviceBuffer hid;
    final DeviceBuffer nrm;
    final DeviceBuffer qkv;
    final DeviceBuffer att;
    final DeviceBuffer mid;
    final DeviceBuffer act;
    /** Mixtures of experts: the experts' input (expert-sorted, or what the EP dispatch receives) and output. */
    final DeviceBuffer expertIn;
    final DeviceBuffer expertOut;
    /** EP: the routed tokens to dispatch, and what combine brings back. */
    final DeviceBuffer send;
    final DeviceBuffer back;
    final DeviceBuffer routerLogits;
    final DeviceBuffer gates;
    final DeviceBuffer partO;
    final DeviceBuffer partLse;
    final DeviceBuffer headIn;
    final DeviceBuffer logits;
    final DeviceBuffer meta;
    final DeviceBuffer invFreq;
    final PinnedHostBuffer metaStaging;
    final LayerWeights[] weights;
    final DeviceBuffer finalNorm;
    final DeviceBuffer embedding;
    final DeviceBuffer head;
    /** [set][0: keys, 1: values]. */
    final DeviceBuffer[][] kv;

    RankBuffers(BufferPlan plan, int rank, int device, CudaStream stream, boolean firstStage, boolean lastStage,
                int layers) {
        this.plan = plan;
        this.rank = rank;
        this.device = device;
        this.stream = stream;
        PartitionSpec spec = plan.spec();
        long h = spec.model().hidden();
        long t = plan.tokens();
        long s = plan.sequences();
        long f = spec.ffnPerRank();
        int d = PartitionSpec.HEAD_SIZE;
        try {
            res = bf16(t * h, 2f);
            hid = bf16(t * h, 2f);
            nrm = bf16(t * h, 2f);
            qkv = bf16(t * spec.qkvColumns(), 2f);
            att = bf16(t * spec.qHeadsPerRank() * d, 2f);
            long mlpRows = plan.moe() ? plan.expertRows() : t;
            mid = bf16(mlpRows * 2 * f, 2f);
            act = bf16(mlpRows * f, 2f);
            expertIn = plan.moe() ? bf16(plan.expertBufferRows() * h, 2f) : null;
            expertOut = plan.moe() ? bf16(plan.expertBufferRows() * h, 2f) : null;
            send = plan.sendRows() > 0 ? bf16(plan.sendRows() * h, 2f) : null;
            back = plan.sendRows() > 0 ? bf16(plan.sendRows() * h, 2f) : null;
            routerLogits = plan.moe() ? bf16(t * spec.model().experts(), 2f) : null;
            gates = plan.moe() ? zeroed(t * plan.topK() * 4) : null;
            partO = zeroed(plan.partialRows() * d * 4);
            partLse = zeroed(plan.partialRows() * 4);
            headIn = bf16(s * h, 2f);
            logits = bf16(s * spec.vocabPerRank(), 2f);
            meta = zeroed(plan.metaInts() * 4L);
            invFreq = own(new DeviceBuffer(device, d / 2 * 4L));
            metaStaging = own(new PinnedHostBuffer(Math.max(d / 2 * 4L, plan.metaInts() * 4L)));
            uploadInverseFrequencies();
            int sets = (int) Math.max(1, Math.min(layers, PartitionSpec.ceilDiv(ROTATION_BYTES, spec.weightBytesPerLayer())));
            weights = new LayerWeights[sets];
            for (int i = 0; i < sets; i++) {
                weights[i] = layerWeights(spec);
            }
            finalNorm = bf16(h, 2f);
            embedding = firstStage ? bf16((long) spec.vocabPerRank() * h, 2f) : null;
            head = lastStage ? weight(h, spec.vocabPerRank()) : null;
            long kvBytes = plan.kvBytesPerLayer();
            int kvSets = (int) Math.max(1, Math.min(layers, PartitionSpec.ceilDiv(ROTATION_BYTES, kvBytes)));
            kv = new DeviceBuffer[kvSets][2];
            for (int i = 0; i < kvSets; i++) {
                kv[i][0] = bf16(kvBytes / 2 / PartitionSpec.BF16, 2f);
                kv[i][1] = bf16(kvBytes / 2 / PartitionSpec.BF16, 2f);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private LayerWeights layerWeights(PartitionSpec spec) {
        long h = spec.model().hidden();
        long f = spec.ffnPerRank();
        int experts = plan.moe() ? spec.expertsPerRank() : 1;
        return new LayerWeights(bf16(h, 2f), bf16(h, 2f), weight(h, spec.qkvColumns()),
                weight((long) spec.qHeadsPerRank() * PartitionSpec.HEAD_SIZE, h),
                plan.moe() ? weight(h, spec.model().experts()) : null, weight(h, 2 * f, experts), weight(f, h, experts));
    }

    private DeviceBuffer weight(long inner, long cols) {
        return weight(inner, cols, 1);
    }

    /** {@code count} weight matrices [inner x cols], scaled so that a product keeps its input's size. */
    private DeviceBuffer weight(long inner, long cols, int count) {
        double want = Math.sqrt(12.0 / inner); // the pattern's standard deviation is 1/sqrt(12)
        float scale = (float) Math.scalb(1.0, (int) Math.round(Math.log(want) / Math.log(2)));
        return bf16(inner * cols * count, scale);
    }

    private DeviceBuffer bf16(long elements, float scale) {
        long n = Math.max(8, elements);
        DeviceBuffer b = own(new DeviceBuffer(device, n * PartitionSpec.BF16));
        fill(b, n, 0x5EED + owned.size(), scale);
        return b;
    }

    private DeviceBuffer zeroed(long bytes) {
        DeviceBuffer b = own(new DeviceBuffer(device, Math.max(16, bytes)));
        Copies.memsetAsync(b, 0, b.bytes(), stream);
        return b;
    }

    /** Refills {@code elements} bf16 values of {@code b} with the pattern for {@code seed}, times {@code scale}. */
    void fill(DeviceBuffer b, long elements, int seed, float scale) {
        fill(b, 0, elements, seed, scale);
    }

    /** As {@link #fill(DeviceBuffer, long, int, float)}, from element {@code first} of {@code b}. */
    void fill(DeviceBuffer b, long first, long elements, int seed, float scale) {
        SuiteKernels.forwardKernel(device, "fillScaledBf16").launch(stream, SuiteKernels.gridFor(device, elements,
                SuiteKernels.BLOCK), SuiteKernels.BLOCK, b.address() + first * PartitionSpec.BF16, elements, seed, rank,
                scale);
    }

    /** Rotary inverse frequencies, 1 / theta^(2i/128), as float32 (the kernel and the host reference read the same values). */
    private void uploadInverseFrequencies() {
        var view = metaStaging.hostView();
        float[] inv = KernelReference.inverseFrequencies();
        for (int i = 0; i < inv.length; i++) {
            view.putFloat(4 * i, inv[i]);
        }
        Copies.async(invFreq, 0, metaStaging, 0, inv.length * 4L, stream);
        stream.synchronize();
    }

    /**
     * Copies the used part of {@code g}'s metadata to the device, on the rank's stream (after the
     * stream's earlier work, so that no copy still pending reads the staging buffer being rewritten).
     */
    void upload(StepGeometry g) {
        stream.synchronize();
        var view = metaStaging.hostView();
        int n = g.metaUsed();
        for (int i = 0; i < n; i++) {
            view.putInt(4 * i, g.meta[i]);
        }
        Copies.async(meta, 0, metaStaging, 0, Math.max(4, n * 4L), stream);
    }

    /** Device address of metadata int {@code index}. */
    long metaAt(int index) {
        return meta.address() + 4L * index;
    }

    private <T extends AutoCloseable> T own(T r) {
        owned.add(r);
        return r;
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
    }
}
