package io.p2pbench.collective;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.cuda.PinnedHostBuffer;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * The CPU reference check of a collective: reads outputs back piece by piece and compares every
 * element with {@link Reference}, computing each expected piece once for all outputs that must
 * hold it. A wrong element throws {@link CollectiveMismatchException} naming it (the lowest-indexed
 * wrong element of the first output found wrong).
 *
 * <p>Both the expected values and the comparison are spread over the CPU's cores in blocks of
 * {@link #BLOCK} elements (the common fork-join pool): every element is computed and compared, in
 * parallel, because on one core this check was the largest cost outside measurement in a run's phases
 * (docs/notes/run-overhead.md).
 *
 * <p>Outputs up to {@link #FULL_CHECK_BYTES} are cross-checked whole. Larger outputs are cross-checked
 * on {@link #SAMPLED_PIECES} pieces of {@link #PIECE} bytes: the first, the last, and pieces evenly
 * spaced between them. Every element of every output is still checked on the GPU after every
 * iteration ({@link DeviceCheck}); this CPU reference is the independent check of that kernel's
 * formula, and at 4 GiB over 8 ranks checking it whole would take longer than the whole measurement.
 */
public final class ResultCheck {
    /** Bytes of one cross-checked piece of a larger output. */
    public static final long PIECE = 2L << 20;
    /**
     * Outputs up to this size are cross-checked whole; larger ones on {@link #SAMPLED_PIECES} pieces, because at
     * 128 MiB the cross-check of an 8-rank bfloat16 row took about as long as its measurement.
     */
    public static final long FULL_CHECK_BYTES = 8L << 20;
    /** Pieces cross-checked of a larger output. */
    static final int SAMPLED_PIECES = 4;
    /** Elements one task computes or compares. */
    static final int BLOCK = 1 << 16;

    private ResultCheck() {}

    /** What element {@code i} of an output must be, and the allowed error. */
    interface Expected {
        /** Fills {@code want[k]} and {@code tolerance[k]} with element {@code first + k}'s, for k in [from, to). */
        void compute(long first, double[] want, double[] tolerance, int from, int to);
    }

    /** Checks {@code count} elements of every output in {@code outs} (all holding the same result). */
    static void check(String what, List<Memory> outs, List<CudaStream> streams, long count, DataType type,
                      Expected expected) {
        int size = type.bytes();
        long bytes = count * size;
        int perPiece = (int) (Math.min(bytes, PIECE) / size);
        double[] want = new double[perPiece];
        double[] tolerance = new double[perPiece];
        try (PinnedHostBuffer host = new PinnedHostBuffer((long) perPiece * size)) {
            for (long first : pieceStarts(count, perPiece, size)) {
                int n = (int) Math.min(perPiece, count - first);
                computeAll(expected, first, want, tolerance, n);
                for (int o = 0; o < outs.size(); o++) {
                    Copies.async(host, 0, outs.get(o), first * size, (long) n * size, streams.get(o));
                    streams.get(o).synchronize();
                    requireMatch(what + ", output " + o, host.hostView(), type, first, want, tolerance, n);
                }
            }
        }
    }

    /**
     * The first element of every piece the CPU cross-checks: every piece when the output is at most
     * {@link #FULL_CHECK_BYTES}, else {@link #SAMPLED_PIECES} of them (first, last, evenly spaced between).
     */
    static long[] pieceStarts(long count, int perPiece, int elementBytes) {
        long pieces = (count + perPiece - 1) / perPiece;
        if (count * elementBytes <= FULL_CHECK_BYTES || pieces <= SAMPLED_PIECES) {
            return LongStream.range(0, pieces).map(p -> p * perPiece).toArray();
        }
        return pieceStarts(count, perPiece, elementBytes, SAMPLED_PIECES);
    }

    private static long[] pieceStarts(long count, int perPiece, int elementBytes, int sampled) {
        long pieces = (count + perPiece - 1) / perPiece;
        long[] starts = new long[sampled];
        for (int k = 0; k < sampled; k++) {
            starts[k] = (k * (pieces - 1) / (sampled - 1)) * perPiece;
        }
        return starts;
    }

    /** Elements of an output of {@code count} elements that the CPU cross-checks (for the time predictor). */
    public static long checkedElements(long count, int elementBytes) {
        return checkedElements(count, elementBytes, FULL_CHECK_BYTES, PIECE);
    }

    /**
     * The same for a cross-check whole up to {@code fullBytes} and on pieces of {@code pieceBytes} above
     * (runs of earlier versions: 128 MiB and 32 MiB).
     */
    public static long checkedElements(long count, int elementBytes, long fullBytes, long pieceBytes) {
        int perPiece = (int) (Math.min(count * elementBytes, pieceBytes) / elementBytes);
        long sum = 0;
        long pieces = (count + perPiece - 1) / perPiece;
        long[] starts = count * elementBytes <= fullBytes || pieces <= SAMPLED_PIECES
                ? LongStream.range(0, pieces).map(q -> q * perPiece).toArray()
                : pieceStarts(count, perPiece, elementBytes, SAMPLED_PIECES);
        for (long first : starts) {
            sum += Math.min(perPiece, count - first);
        }
        return sum;
    }

    /** Fills want and tolerance for elements {@code first .. first + n - 1}, in parallel blocks. */
    static void computeAll(Expected expected, long first, double[] want, double[] tolerance, int n) {
        int blocks = (n + BLOCK - 1) / BLOCK;
        IntStream.range(0, blocks).parallel().forEach(b ->
                expected.compute(first, want, tolerance, b * BLOCK, Math.min(n, (b + 1) * BLOCK)));
    }

    /**
     * Compares {@code n} elements of {@code view} (type {@code type}, from index 0) with {@code want}
     * within {@code tolerance}, in parallel blocks; throws naming the lowest-indexed wrong element
     * ({@code first} is the piece's offset in the output, for the message).
     */
    static void requireMatch(String what, ByteBuffer view, DataType type, long first, double[] want,
                             double[] tolerance, int n) {
        int blocks = (n + BLOCK - 1) / BLOCK;
        boolean f32 = type == DataType.FLOAT32;
        int bad = IntStream.range(0, blocks).parallel().map(b -> {
            int end = Math.min(n, (b + 1) * BLOCK);
            for (int k = b * BLOCK; k < end; k++) {
                double got = f32 ? view.getFloat(k * 4) : Reference.bf16ToFloat(view.getShort(k * 2));
                if (!(Math.abs(got - want[k]) <= tolerance[k])) {
                    return k;
                }
            }
            return Integer.MAX_VALUE;
        }).min().orElse(Integer.MAX_VALUE);
        if (bad != Integer.MAX_VALUE) {
            double got = f32 ? view.getFloat(bad * 4) : Reference.bf16ToFloat(view.getShort(bad * 2));
            throw new CollectiveMismatchException(String.format(Locale.ROOT,
                    "%s: element %d is %s, expected %s within %s (CPU reference)", what, first + bad, got, want[bad],
                    tolerance[bad]));
        }
    }

    /** Sum over {@code ranks} of input element {@code offset + i}: all-reduce and reduce-scatter. */
    static Expected sum(DataType type, int ranks, long offset) {
        return (first, want, tolerance, from, to) -> {
            for (int k = from; k < to; k++) {
                long j = offset + first + k;
                double s = 0;
                double abs = 0;
                for (int r = 0; r < ranks; r++) {
                    double v = Reference.value(type, r, j);
                    s += v;
                    abs += Math.abs(v);
                }
                want[k] = s;
                tolerance[k] = Reference.bound(type, ranks, abs);
            }
        };
    }

    /** Element i is rank (i / perRank)'s input at {@code offset + i % perRank}: all-gather, all-to-all. */
    static Expected gathered(DataType type, long perRank, long offset) {
        return (first, want, tolerance, from, to) -> {
            for (int k = from; k < to; k++) {
                long i = first + k;
                want[k] = Reference.value(type, (int) (i / perRank), offset + i % perRank);
                tolerance[k] = 0;
            }
        };
    }
}
