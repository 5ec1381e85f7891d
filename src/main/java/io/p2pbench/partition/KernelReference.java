package io.p2pbench.partition;

/**
 * Host references for the forward-pass kernels ({@code forward.cu}), in double from the bf16 inputs
 * read back from the GPU, each with the tolerance a correct kernel stays within. Float32 arithmetic
 * on the GPU is off by a few units in the last place (about {@code 2^-22} relative), far below a
 * bf16 output's rounding ({@code 2^-9} relative), so each tolerance is the output rounding with a
 * factor of two to spare ({@code 2^-8 |ref|}) plus what the kernel's own intermediate rounding can
 * add. A wrong element (another row, head, position or operand) is off by about its own size.
 */
public final class KernelReference {
    /** Rotary base (Llama-3's). */
    public static final double ROPE_THETA = 500_000.0;
    private static final int D = PartitionSpec.HEAD_SIZE;

    private KernelReference() {}

    /** The rotary inverse frequencies {@code theta^(-2i/128)} as float32, the values the kernel reads. */
    public static float[] inverseFrequencies() {
        float[] inv = new float[D / 2];
        for (int i = 0; i < inv.length; i++) {
            inv[i] = (float) (1.0 / Math.pow(ROPE_THETA, 2.0 * i / D));
        }
        return inv;
    }

    /** A float from bf16 bits. */
    public static float bf16(short bits) {
        return GemmSample.bf16ToFloat(bits);
    }

    /** bf16 bits of {@code v}, rounded to nearest even (as the GPU). */
    public static short toBf16(float v) {
        return GemmSample.floatToBf16(v);
    }

    /** The residual the fused norm stores: {@code bf16(x + res)} in float32, exactly as the GPU rounds it. */
    public static short residualSum(short x, short res) {
        return toBf16(bf16(x) + bf16(res));
    }

    /** The reciprocal RMS of a row of bf16 values: {@code 1 / sqrt(mean(v^2) + eps)}. */
    public static double inverseRms(short[] row, double eps) {
        double sum = 0;
        for (short v : row) {
            double f = bf16(v);
            sum += f * f;
        }
        return 1.0 / Math.sqrt(sum / row.length + eps);
    }

    /** Tolerance of one output that the GPU computed in float32 and rounded to bf16 once. */
    public static double roundingTolerance(double ref) {
        return Math.scalb(Math.abs(ref), -8) + 1e-6;
    }

    /** {@code silu(g) * u}. */
    public static double siluMul(double g, double u) {
        return g / (1.0 + Math.exp(-g)) * u;
    }

    /**
     * One rotated pair: element {@code i} and {@code i + 64} of a head at position {@code pos},
     * angle {@code (float) pos * invFreq[i]} in float32 as the kernel forms it.
     *
     * @return {x1 cos - x2 sin, x2 cos + x1 sin}
     */
    public static double[] rotate(double x1, double x2, int pos, float invFreq) {
        double angle = (float) pos * invFreq;
        double c = Math.cos(angle);
        double s = Math.sin(angle);
        return new double[] {x1 * c - x2 * s, x2 * c + x1 * s};
    }

    /** Tolerance of a rotated element: its rounding plus float32 sine and cosine (a few ulp) on both inputs. */
    public static double rotaryTolerance(double ref, double x1, double x2) {
        return roundingTolerance(ref) + 1e-5 * (Math.abs(x1) + Math.abs(x2));
    }

    /**
     * Attention of one query head over {@code keys} keys: {@code softmax(q k^T / sqrt(128)) v}.
     *
     * @param q the query, 128 values
     * @param k keys, {@code keys x 128} row-major (at least {@code keys} rows)
     * @param v values, likewise
     * @return {output[0..127], tolerance[0..127]}: the output's rounding plus, since prefill rounds
     *     the probabilities to bf16 before multiplying by V ({@code 2^-9} each), {@code 2^-7 sum p |v|}
     */
    public static double[][] attention(float[] q, float[] k, float[] v, int keys) {
        double scale = 1.0 / Math.sqrt(D);
        double[] s = new double[keys];
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < keys; j++) {
            double dot = 0;
            for (int i = 0; i < D; i++) {
                dot += (double) q[i] * k[j * D + i];
            }
            s[j] = dot * scale;
            max = Math.max(max, s[j]);
        }
        double sum = 0;
        for (int j = 0; j < keys; j++) {
            s[j] = Math.exp(s[j] - max);
            sum += s[j];
        }
        double[] out = new double[D];
        double[] spread = new double[D];
        for (int j = 0; j < keys; j++) {
            double p = s[j] / sum;
            for (int i = 0; i < D; i++) {
                out[i] += p * v[j * D + i];
                spread[i] += p * Math.abs(v[j * D + i]);
            }
        }
        double[] tol = new double[D];
        for (int i = 0; i < D; i++) {
            tol[i] = roundingTolerance(out[i]) + Math.scalb(spread[i], -7);
        }
        return new double[][] {out, tol};
    }

    /** The router's gate weights: softmax over the chosen experts' logits. */
    public static double[] gates(float[] chosenLogits) {
        double max = Double.NEGATIVE_INFINITY;
        for (float l : chosenLogits) {
            max = Math.max(max, l);
        }
        double sum = 0;
        double[] g = new double[chosenLogits.length];
        for (int i = 0; i < g.length; i++) {
            g[i] = Math.exp(chosenLogits[i] - max);
            sum += g[i];
        }
        for (int i = 0; i < g.length; i++) {
            g[i] /= sum;
        }
        return g;
    }

    /** The suite's 32-bit mix (kernels' fmix32). */
    static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** The token id the embedding kernel looks up for row {@code row}. */
    public static int tokenId(int row, int seed, int vocabRows) {
        return (int) Long.remainderUnsigned(fmix32(row * 0x9E3779B9 + seed) & 0xFFFFFFFFL, vocabRows);
    }
}
