package io.p2pbench.collective;

/**
 * Algorithm and bus bandwidth exactly as nccl-tests defines them (doc/PERFORMANCE.md): algbw is the
 * buffer size over the time of one operation; busbw scales it by what each rank must move, so that
 * it compares with the link's peak whatever the rank count. Both decimal GB/s.
 */
public final class BusBandwidth {
    private BusBandwidth() {}

    /** Collective operations and their bus-bandwidth factors. */
    public enum Operation {
        /** Sum all-reduce: busbw = algbw x 2(n-1)/n. */
        ALL_REDUCE,
        /** All-gather: busbw = algbw x (n-1)/n, algbw over the gathered (total) size. */
        ALL_GATHER,
        /** Reduce-scatter: busbw = algbw x (n-1)/n, algbw over the input (total) size. */
        REDUCE_SCATTER,
        /** All-to-all: busbw = algbw x (n-1)/n. */
        ALL_TO_ALL;

        /** The factor from algbw to busbw for {@code n} ranks. */
        public double factor(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("rank count must be positive, was " + n);
            }
            return this == ALL_REDUCE ? 2.0 * (n - 1) / n : (double) (n - 1) / n;
        }
    }

    /** algbw in decimal GB/s: {@code bytes} over {@code nanos}. */
    public static double algGbps(long bytes, double nanos) {
        return bytes / nanos;
    }

    /** busbw in decimal GB/s for {@code op} on {@code n} ranks. */
    public static double busGbps(Operation op, int n, long bytes, double nanos) {
        return algGbps(bytes, nanos) * op.factor(n);
    }
}
