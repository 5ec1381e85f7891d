package io.p2pbench.partition;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.settings.Settings;
import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Checks one rank's forward-pass kernels ({@code forward.cu}) against {@link KernelReference}, each
 * run by the rank's own launches on its own buffers for the step's geometry, after its inputs were
 * refilled with known values: sampled rows or heads are read back and every element of them
 * compared. Embedding lookup, expert gather and the LM head's row gather must match exactly, the
 * residual sum too; the rest within the reference's tolerance. A wrong element throws {@link
 * KernelMismatchException} naming the kernel, the rank and the element.
 *
 * <p>Attention is checked with queries scaled up (values to 16) so that each softmax is dominated
 * by a few keys: a wrong key, position or head then moves the output far beyond the tolerance.
 *
 * <p>Test hook: {@code -Dp2pbench.test.corrupt=true} (every check) or {@code =KIND} (the {@link
 * StepKernel} of that name) overwrites one output element before it is read back, and the check
 * must fail.
 */
final class KernelChecks {
        private static final int SEED = 0xC4EC;

    private final RankForward f;
    private final RankBuffers b;
    private final BufferPlan plan;
    private final PartitionSpec spec;
    private final CudaStream stream;
    private final StepGeometry g;
    private final PinnedHostBuffer host;
    private final String where;
    private long bytes;

    KernelChecks(RankForward f, PinnedHostBuffer host, String where) {
        this.f = f;
        this.b = f.buffers();
        this.plan = b.plan;
        this.spec = plan.spec();
        this.stream = f.blas().stream();
        this.g = f.geometry();
        this.host = host;
        this.where = where;
    }

    /** Runs every check that applies to the rank; returns the output bytes compared. */
    long run() {
        if (f.firstStage()) {
            embedding();
        }
        norm();
        rotary();
        attention();
        silu();
        if (plan.moe()) {
            experts();
        }
        if (f.lastStage()) {
            headRows();
        }
        return bytes;
    }

    // ---------------------------------------------------------------- the checks

    private void embedding() {
        f.embedTokens();
        int h = spec.model().hidden();
        corrupt(StepKernel.EMBED, b.hid, 0);
        for (int row : sampleRows(g.tokens)) {
            int id = KernelReference.tokenId(row, RankForward.embedSeed(), spec.vocabPerRank());
            short[] want = read(b.embedding, (long) id * h, h);
            short[] got = read(b.hid, (long) row * h, h);
            for (int i = 0; i < h; i++) {
                exact(StepKernel.EMBED, got[i], want[i], "row " + row + " (token " + id + ") element " + i);
            }
        }
    }

    private void norm() {
        int h = spec.model().hidden();
        fill(b.hid, (long) g.tokens * h, 2f);
        fill(b.res, (long) g.tokens * h, 2f);
        Set<Integer> rows = sampleRows(g.tokens);
        short[][] x = new short[g.tokens][];
        short[][] r = new short[g.tokens][];
        for (int row : rows) {
            x[row] = read(b.hid, (long) row * h, h);
            r[row] = read(b.res, (long) row * h, h);
        }
        DeviceBuffer weight = b.weights[0].norm1();
        f.normalise(b.hid, weight, true, true);
        corrupt(StepKernel.NORM, b.nrm, (long) rows.iterator().next() * h);
        short[] w = read(weight, 0, h);
        for (int row : rows) {
            short[] res = read(b.res, (long) row * h, h);
            short[] out = read(b.nrm, (long) row * h, h);
            for (int i = 0; i < h; i++) {
                exact(StepKernel.NORM, res[i], KernelReference.residualSum(x[row][i], r[row][i]),
                        "residual row " + row + " element " + i);
            }
            double inv = KernelReference.inverseRms(res, 1e-5);
            for (int i = 0; i < h; i++) {
                double want = KernelReference.bf16(res[i]) * inv * KernelReference.bf16(w[i]);
                close(StepKernel.NORM, out[i], want, KernelReference.roundingTolerance(want), "row " + row + " element " + i);
            }
        }
    }

    private void rotary() {
        int cols = spec.qkvColumns();
        int qh = spec.qHeadsPerRank();
        int kvh = spec.kvHeadsPerRank();
        int d = PartitionSpec.HEAD_SIZE;
        fill(b.qkv, (long) g.tokens * cols, 2f);
        Set<Integer> rows = sampleRows(g.tokens);
        short[][] before = new short[g.tokens][];
        for (int row : rows) {
            before[row] = read(b.qkv, (long) row * cols, cols);
        }
        f.rotaryAndCache(0);
        corrupt(StepKernel.ROTARY_CACHE, b.qkv, (long) rows.iterator().next() * cols);
        float[] inv = KernelReference.inverseFrequencies();
        DeviceBuffer[] kv = b.kv[0];
        for (int row : rows) {
            int pos = g.meta[plan.posAt() + row];
            int slot = g.meta[plan.slotAt() + row];
            short[] after = read(b.qkv, (long) row * cols, cols);
            for (int head = 0; head < qh + kvh; head++) {
                short[] got = head < qh ? slice(after, head * d)
                        : read(kv[0], cacheAt(slot, head - qh, pos), d);
                String what = (head < qh ? "q head " + head : "k head " + (head - qh)) + " of row " + row + " (position "
                        + pos + ")";
                for (int i = 0; i < d / 2; i++) {
                    double x1 = KernelReference.bf16(before[row][head * d + i]);
                    double x2 = KernelReference.bf16(before[row][head * d + i + d / 2]);
                    double[] want = KernelReference.rotate(x1, x2, pos, inv[i]);
                    close(StepKernel.ROTARY_CACHE, got[i], want[0], KernelReference.rotaryTolerance(want[0], x1, x2),
                            what + " element " + i);
                    close(StepKernel.ROTARY_CACHE, got[i + d / 2], want[1], KernelReference.rotaryTolerance(want[1], x1, x2),
                            what + " element " + (i + d / 2));
                }
            }
            for (int head = 0; head < kvh; head++) {
                short[] got = read(kv[1], cacheAt(slot, head, pos), d);
                for (int i = 0; i < d; i++) {
                    exact(StepKernel.ROTARY_CACHE, got[i], before[row][(qh + kvh + head) * d + i],
                            "cached v head " + head + " of row " + row + " element " + i);
                }
            }
        }
    }

    private void attention() {
        int cols = spec.qkvColumns();
        int qh = spec.qHeadsPerRank();
        int group = qh / spec.kvHeadsPerRank();
        int d = PartitionSpec.HEAD_SIZE;
        DeviceBuffer[] kv = b.kv[0];
        long cacheElements = plan.kvBytesPerLayer() / 2 / PartitionSpec.BF16;
        fill(b.qkv, (long) g.tokens * cols, 32f);
        fill(kv[0], cacheElements, 2f);
        fill(kv[1], cacheElements, 2f);
        f.attentionKernels(0);
        int outCols = qh * d;
        Set<Integer> rows = new LinkedHashSet<>();
        rows.addAll(sampleRows(g.decodeRows));
        for (int p = 0; p < Math.min(2, g.prefillSequences); p++) {
            int first = g.meta[plan.infoAt() + 4 * p];
            int len = g.meta[plan.infoAt() + 4 * p + 1];
            for (int i : sampleRows(len)) {
                rows.add(first + i);
            }
        }
        corrupt(StepKernel.ATTENTION, b.att, (long) rows.iterator().next() * outCols);
        for (int row : rows) {
            int pos = g.meta[plan.posAt() + row];
            int slot = g.meta[plan.slotAt() + row];
            int keys = pos + 1;
            short[] q = read(b.qkv, (long) row * cols, qh * d);
            short[] out = read(b.att, (long) row * outCols, outCols);
            for (int head : new int[] {0, qh - 1}) {
                int kvHead = head / group;
                float[] k = floats(read(kv[0], cacheAt(slot, kvHead, 0), keys * d));
                float[] v = floats(read(kv[1], cacheAt(slot, kvHead, 0), keys * d));
                float[] qv = floats(slice(q, head * d));
                double[][] ref = KernelReference.attention(qv, k, v, keys);
                for (int i = 0; i < d; i++) {
                    close(StepKernel.ATTENTION, out[head * d + i], ref[0][i], ref[1][i], (row < g.decodeRows ? "decode"
                            : "prefill") + " row " + row + " (position " + pos + ", " + keys + " keys) head " + head
                            + " element " + i);
                }
            }
        }
    }

    private void silu() {
        int ffn = spec.ffnPerRank();
        long rows = plan.moe() ? (long) g.expertTokens * spec.expertsPerRank() : g.tokens;
        fill(b.mid, rows * 2 * ffn, 8f);
        f.siluMul(rows);
        Set<Integer> sample = sampleRows((int) rows);
        corrupt(StepKernel.SILU_MUL, b.act, (long) sample.iterator().next() * ffn);
        for (int row : sample) {
            short[] gu = read(b.mid, (long) row * 2 * ffn, 2 * ffn);
            short[] out = read(b.act, (long) row * ffn, ffn);
            for (int i = 0; i < ffn; i++) {
                double want = KernelReference.siluMul(KernelReference.bf16(gu[i]), KernelReference.bf16(gu[ffn + i]));
                close(StepKernel.SILU_MUL, out[i], want, KernelReference.roundingTolerance(want), "row " + row + " column " + i);
            }
        }
    }

    private void experts() {
        int h = spec.model().hidden();
        int experts = spec.model().experts();
        int topK = plan.topK();
        int t = g.tokens;
        fill(b.routerLogits, (long) t * experts, 8f);
        f.routerGates();
        short[] logits = read(b.routerLogits, 0, t * experts);
        float[] gate = readFloats(b.gates, t * topK);
        for (int tok = 0; tok < t; tok++) {
            float[] chosen = new float[topK];
            for (int k = 0; k < topK; k++) {
                chosen[k] = KernelReference.bf16(logits[tok * experts + g.meta[plan.choiceAt() + tok * topK + k]]);
            }
            double[] want = KernelReference.gates(chosen);
            for (int k = 0; k < topK; k++) {
                double got = corrupting(StepKernel.ROUTER) ? -1 : gate[tok * topK + k];
                if (!(Math.abs(got - want[k]) <= 1e-5 + 1e-5 * want[k])) {
                    fail(StepKernel.ROUTER, "token " + tok + " gate " + k + " is " + got + ", expected " + want[k]);
                }
            }
        }
        bytes += 4L * t * topK;

        DeviceBuffer gathered = b.send != null ? b.send : b.expertIn;
        fill(b.nrm, (long) t * h, 2f);
        f.gatherForExperts();
        Set<Integer> rows = sampleRows(g.gatheredRows(plan));
        corrupt(StepKernel.EXPERT_GATHER, gathered, (long) rows.iterator().next() * h);
        for (int row : rows) {
            int src = g.meta[plan.gatherAt() + row];
            short[] want = read(b.nrm, (long) src * h, h);
            short[] got = read(gathered, (long) row * h, h);
            for (int i = 0; i < h; i++) {
                exact(StepKernel.EXPERT_GATHER, got[i], want[i], "row " + row + " (token " + src + ") element " + i);
            }
        }

        DeviceBuffer source = b.back != null ? b.back : b.expertOut;
        long sourceRows = b.back != null ? plan.sendRows() : plan.expertBufferRows();
        fill(source, sourceRows * h, 2f);
        f.combineExperts(b.hid, source);
        Set<Integer> tokens = sampleRows(t);
        corrupt(StepKernel.EXPERT_COMBINE, b.hid, (long) tokens.iterator().next() * h);
        for (int tok : tokens) {
            short[] got = read(b.hid, (long) tok * h, h);
            short[][] parts = new short[topK][];
            for (int k = 0; k < topK; k++) {
                parts[k] = read(source, (long) g.meta[plan.rowOfAt() + tok * topK + k] * h, h);
            }
            for (int i = 0; i < h; i++) {
                double want = 0;
                for (int k = 0; k < topK; k++) {
                    want += (double) gate[tok * topK + k] * KernelReference.bf16(parts[k][i]);
                }
                close(StepKernel.EXPERT_COMBINE, got[i], want, KernelReference.roundingTolerance(want),
                        "token " + tok + " element " + i);
            }
        }
    }

    private void headRows() {
        int h = spec.model().hidden();
        fill(b.nrm, (long) g.tokens * h, 2f);
        f.headGather();
        Set<Integer> rows = sampleRows(g.headRows);
        corrupt(StepKernel.LM_HEAD, b.headIn, (long) rows.iterator().next() * h);
        for (int i : rows) {
            int src = g.meta[plan.lastAt() + i];
            short[] want = read(b.nrm, (long) src * h, h);
            short[] got = read(b.headIn, (long) i * h, h);
            for (int e = 0; e < h; e++) {
                exact(StepKernel.LM_HEAD, got[e], want[e], "last-token row " + i + " (step row " + src + ") element " + e);
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Up to four rows of {@code n}: the first, the last, and two between. */
    private static Set<Integer> sampleRows(int n) {
        Set<Integer> rows = new LinkedHashSet<>();
        if (n > 0) {
            rows.add(0);
            rows.add(n - 1);
            rows.add(n / 2);
            rows.add((int) ((n * 0x9E3779B9L >>> 7) % n));
        }
        return rows;
    }

    private long cacheAt(int slot, int kvHead, int pos) {
        return (((long) slot * spec.kvHeadsPerRank() + kvHead) * plan.capacity().maxContext() + pos) * PartitionSpec.HEAD_SIZE;
    }

    private void fill(DeviceBuffer buf, long elements, float scale) {
        b.fill(buf, elements, SEED + (int) (bytes & 0xFFFF), scale);
    }

    private boolean corrupting(StepKernel kind) {
        return Settings.current().corrupts(kind.name());
    }

    /** With the test hook on for {@code kind}, overwrites bf16 element {@code element} of {@code buf}. */
    private void corrupt(StepKernel kind, DeviceBuffer buf, long element) {
        if (corrupting(kind)) {
            Copies.memsetAsync(buf, element * PartitionSpec.BF16, 0x7F, PartitionSpec.BF16, stream);
        }
    }

    private short[] read(DeviceBuffer buf, long element, int count) {
        Copies.async(host, 0, buf, element * PartitionSpec.BF16, (long) count * PartitionSpec.BF16, stream);
        stream.synchronize();
        ByteBuffer view = host.hostView();
        short[] out = new short[count];
        for (int i = 0; i < count; i++) {
            out[i] = view.getShort(2 * i);
        }
        return out;
    }

    private float[] readFloats(DeviceBuffer buf, int count) {
        Copies.async(host, 0, buf, 0, count * 4L, stream);
        stream.synchronize();
        ByteBuffer view = host.hostView();
        float[] out = new float[count];
        for (int i = 0; i < count; i++) {
            out[i] = view.getFloat(4 * i);
        }
        return out;
    }

    private static short[] slice(short[] a, int from) {
        return java.util.Arrays.copyOfRange(a, from, from + PartitionSpec.HEAD_SIZE);
    }

    private static float[] floats(short[] a) {
        float[] out = new float[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = KernelReference.bf16(a[i]);
        }
        return out;
    }

    private void exact(StepKernel kind, short got, short want, String what) {
        if (got != want) {
            fail(kind, String.format(Locale.ROOT, "%s is %s (bf16 0x%04x), expected %s (0x%04x) exactly", what,
                    KernelReference.bf16(got), got & 0xFFFF, KernelReference.bf16(want), want & 0xFFFF));
        }
        bytes += PartitionSpec.BF16;
    }

    private void close(StepKernel kind, short got, double want, double tolerance, String what) {
        double value = KernelReference.bf16(got);
        if (!(Math.abs(value - want) <= tolerance)) {
            fail(kind, String.format(Locale.ROOT, "%s is %s (bf16 0x%04x), expected %.6g within %.3g", what, value,
                    got & 0xFFFF, want, tolerance));
        }
        bytes += PartitionSpec.BF16;
    }

    private void fail(StepKernel kind, String detail) {
        throw new KernelMismatchException("forward check failed for " + kind + " on " + where + ": " + detail
                + " (host reference from the inputs read back)");
    }
}
