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

/**
 * The CPU reference check of a collective: reads outputs back piece by piece and compares every
 * element with {@link Reference}, computing each expected piece once for all outputs that must
 * hold it. A wrong element throws {@link CollectiveMismatchException} naming it (the lowest-indexed
 * wrong element of the first output found wrong).
 *
 * <p>Both the expected values and the comparison are spread over the CPU's cores in blocks of
 * {@link #BLOCK} elements (the common fork-join pool): every element is still computed and
 * compared, only no longer on one core. The run's phases showed this check as the largest cost
 * outside measurement (docs/notes/run-overhead.md).
 */
final class ResultCheck {
    private static final long PIECE = 32L << 20;
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
            for (long first = 0; first < count; first += perPiece) {
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
