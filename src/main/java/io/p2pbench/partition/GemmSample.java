package io.p2pbench.partition;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The host reference for a sample of one bfloat16 GEMM's outputs, {@code Y = X W} row-major (as
 * {@link io.p2pbench.cuda.Cublas#matmulBf16}): the sampled elements are recomputed in double from
 * the bf16 inputs read back from the GPU, and each must lie within {@link #tolerance}.
 *
 * <p>Tolerance: products of two bf16 values are exact in float32, so a float32-accumulated sum of
 * {@code k} of them is off by at most about {@code k 2^-24 sum|x w|}; rounding the result to bf16
 * (8 significant bits) adds at most {@code 2^-8 |y|}. The check allows {@code 2^-8 |y| + k 2^-21
 * sum|x w|}: eight times the float32 bound, since the order and blocking of cuBLAS's sums (split-K,
 * tensor-core accumulation) are not known. With inputs uniform in [-0.5, 0.5) a wrong element
 * (another row or column, a transposed operand, never written) is off by about {@code sqrt(k)/12},
 * many times the allowance: for k = 4096, 5.3 against at most 0.5.
 *
 * <p>Use: {@link #row}/{@link #col} say which elements are sampled; feed each sampled X row with
 * {@link #setRow}, every W row once with {@link #addWeightRows} (in any pieces), then {@link #check}
 * each sampled output.
 */
public final class GemmSample {
    private final String what;
    private final GemmShape shape;
    private final int[] rows;
    private final int[] cols;
    private final float[][] x;
    private final double[] sum;
    private final double[] absSum;

    /** Samples {@code samples} elements of {@code shape}'s output: the four corners first, then spread by a hash. */
    public GemmSample(String what, GemmShape shape, int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be positive: " + samples);
        }
        this.what = what;
        this.shape = shape;
        rows = new int[samples];
        cols = new int[samples];
        int[][] corners = {{0, 0}, {shape.rows() - 1, shape.cols() - 1}, {0, shape.cols() - 1}, {shape.rows() - 1, 0}};
        for (int s = 0; s < samples; s++) {
            if (s < corners.length) {
                rows[s] = corners[s][0];
                cols[s] = corners[s][1];
            } else {
                long h = mix(s * 0x9E3779B97F4A7C15L);
                rows[s] = (int) Long.remainderUnsigned(h, shape.rows());
                cols[s] = (int) Long.remainderUnsigned(h >>> 21, shape.cols());
            }
        }
        x = new float[samples][];
        sum = new double[samples];
        absSum = new double[samples];
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Number of sampled elements. */
    public int samples() {
        return rows.length;
    }

    /** Output row of sample {@code s}. */
    public int row(int s) {
        return rows[s];
    }

    /** Output column of sample {@code s}. */
    public int col(int s) {
        return cols[s];
    }

    /** Row {@link #row}(s) of X: {@code inner} little-endian bf16 values from the buffer's position 0. */
    public void setRow(int s, ByteBuffer bf16) {
        float[] r = new float[shape.inner()];
        for (int k = 0; k < r.length; k++) {
            r[k] = bf16ToFloat(bf16.getShort(2 * k));
        }
        x[s] = r;
    }

    /**
     * Rows {@code [first, first + count)} of W, {@code cols} little-endian bf16 values each, from
     * position 0 (at most 2 GiB: pieces of W, not the whole of a large one).
     */
    public void addWeightRows(int first, ByteBuffer bf16, int count) {
        int c = shape.cols();
        for (int s = 0; s < rows.length; s++) {
            if (x[s] == null) {
                throw new IllegalStateException("row " + rows[s] + " of X was not given before W");
            }
            for (int k = 0; k < count; k++) {
                double p = (double) x[s][first + k] * bf16ToFloat(bf16.getShort(2 * (k * c + cols[s])));
                sum[s] += p;
                absSum[s] += Math.abs(p);
            }
        }
    }

    /** The exact value of sample {@code s}, once every W row has been added. */
    public double expected(int s) {
        return sum[s];
    }

    /** The largest acceptable |got - expected| of sample {@code s}. */
    public double tolerance(int s) {
        return Math.scalb(Math.abs(sum[s]), -8) + shape.inner() * Math.scalb(absSum[s], -21);
    }

    /** Throws {@link GemmMismatchException} naming the element when {@code got} (bf16 bits) is not within tolerance. */
    public void check(int s, short got) {
        double value = bf16ToFloat(got);
        if (!(Math.abs(value - sum[s]) <= tolerance(s))) {
            throw new GemmMismatchException(String.format(Locale.ROOT,
                    "GEMM check failed for %s %s: output [%d, %d] is %s (bf16 0x%04x), expected %.6g within %.3g "
                            + "(host reference from the bf16 inputs)", what, shape, rows[s], cols[s], value, got & 0xFFFF,
                    sum[s], tolerance(s)));
        }
    }

    /** A float from its bfloat16 bits. */
    static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    /** bfloat16 bits of {@code v}, rounded to nearest even (as the GPU's conversion). */
    static short floatToBf16(float v) {
        int b = Float.floatToRawIntBits(v);
        b += 0x7FFF + ((b >>> 16) & 1);
        return (short) (b >>> 16);
    }
}
