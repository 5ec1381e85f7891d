package io.p2pbench.collective;

import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.transfer.Pattern;

/**
 * The CPU reference for collectives: every rank's inputs, computed here exactly as the fill kernels
 * compute them on the GPU, and the error bound a correct sum must meet.
 *
 * <p>float32 inputs are multiples of 2^-16 in [-0.5, 0.5), so float32 sums of up to 256 of them are
 * exact whatever the order: the bound is 0, and any difference is a wrong result. bfloat16 inputs
 * are multiples of 2^-8 in [-0.5, 0.5); the ring rounds every partial sum to bfloat16 (8
 * significant bits, unit roundoff 2^-8), so n ranks may differ from the exact sum by at most
 * n x 2^-8 x (sum of |inputs|).
 */
public final class Reference {
    /** The seed of every collective's inputs. */
    public static final int SEED = 0x51ed;

    private Reference() {}

    private static int hash(int rank, long i) {
        return Pattern.fmix32((int) i * 0x9E3779B9 + SEED + rank * 0x632BE5AB) ^ (int) (i >>> 32);
    }

    /** Rank {@code rank}'s input element {@code i} (as the fill kernel writes it, widened to double). */
    public static double value(DataType type, int rank, long i) {
        int h = hash(rank, i);
        return type == DataType.FLOAT32 ? (h & 0xFFFF) / 65536.0 - 0.5 : (h & 0xFF) / 256.0 - 0.5;
    }

    /** The largest acceptable |result - exact sum| for a sum over ranks whose |inputs| add up to {@code absSum}. */
    public static double bound(DataType type, int ranks, double absSum) {
        return type == DataType.FLOAT32 ? 0.0 : ranks * Math.scalb(1.0, -8) * absSum;
    }

    /** A float from its bfloat16 bits. */
    public static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }
}
