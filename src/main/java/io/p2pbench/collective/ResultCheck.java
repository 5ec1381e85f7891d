package io.p2pbench.collective;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.cuda.PinnedHostBuffer;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;

/**
 * The CPU reference check of a collective: reads outputs back piece by piece and compares every
 * element with {@link Reference}, computing each expected piece once for all outputs that must
 * hold it. A wrong element throws {@link CollectiveMismatchException} naming it.
 */
final class ResultCheck {
    private static final long PIECE = 32L << 20;

    private ResultCheck() {}

    /** What element {@code i} of an output must be, and the allowed error. */
    interface Expected {
        /** Fills {@code want[k]} and {@code tolerance[k]} for elements {@code first + k}. */
        void compute(long first, double[] want, double[] tolerance, int count);
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
                expected.compute(first, want, tolerance, n);
                for (int o = 0; o < outs.size(); o++) {
                    Copies.async(host, 0, outs.get(o), first * size, (long) n * size, streams.get(o));
                    streams.get(o).synchronize();
                    ByteBuffer view = host.hostView();
                    for (int k = 0; k < n; k++) {
                        double got = type == DataType.FLOAT32 ? view.getFloat(k * 4)
                                : Reference.bf16ToFloat(view.getShort(k * 2));
                        if (!(Math.abs(got - want[k]) <= tolerance[k])) {
                            throw new CollectiveMismatchException(String.format(Locale.ROOT,
                                    "%s, output %d: element %d is %s, expected %s within %s (CPU reference)", what, o,
                                    first + k, got, want[k], tolerance[k]));
                        }
                    }
                }
            }
        }
    }

    /** Sum over {@code ranks} of input element {@code offset + i}: all-reduce and reduce-scatter. */
    static Expected sum(DataType type, int ranks, long offset) {
        return (first, want, tolerance, count) -> {
            for (int k = 0; k < count; k++) {
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
        return (first, want, tolerance, count) -> {
            for (int k = 0; k < count; k++) {
                long i = first + k;
                want[k] = Reference.value(type, (int) (i / perRank), offset + i % perRank);
                tolerance[k] = 0;
            }
        };
    }
}
