package io.p2pbench.collective;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.SuiteKernels;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * A collective's output checked on its GPU, every element, against the inputs' formula (kernel
 * {@code verifyCollective}): fast enough to run after every iteration. The independent CPU
 * reference ({@link ResultCheck}) runs at the end of each trial.
 */
final class DeviceCheck implements AutoCloseable {
    /** What the output must hold. */
    enum Mode {
        /** out[i] = sum over ranks of in_r[i]. */
        ALL_REDUCE,
        /** out[i] = sum over ranks of in_r[myRank * perRank + i]. */
        REDUCE_SCATTER,
        /** out[i] = in_(i / perRank)[i % perRank]. */
        ALL_GATHER,
        /** out[i] = in_(i / perRank)[myRank * perRank + i % perRank]. */
        ALL_TO_ALL
    }

    private final DeviceBuffer counters;
    private final PinnedHostBuffer result;
    private final int device;
    private long bytesVerified;

    DeviceCheck(int device) {
        this.device = device;
        this.counters = new DeviceBuffer(device, 16);
        try {
            this.result = new PinnedHostBuffer(16);
        } catch (RuntimeException e) {
            counters.close();
            throw e;
        }
    }

    /** Checks {@code n} elements of {@code out}; throws {@link CollectiveMismatchException} on any wrong one. */
    void check(String what, Memory out, long n, DataType type, int ranks, Mode mode, long perRank, int myRank,
               CudaStream stream) {
        SuiteKernels.kernel(device, "fillWord").launch(stream, 1, 32, counters, 2L, 0);
        SuiteKernels.kernel(device, "fillWord").launch(stream, 1, 32, counters.address() + 8, 2L, -1);
        SuiteKernels.kernel(device, "verifyCollective").launch(stream, SuiteKernels.gridFor(device, n, SuiteKernels.BLOCK),
                SuiteKernels.BLOCK, out, n, type == DataType.BFLOAT16 ? 1 : 0, Reference.SEED, ranks, mode.ordinal(),
                Math.max(1, perRank), myRank, counters);
        Copies.async(result, 0, counters, 0, 16, stream);
        stream.synchronize();
        ByteBuffer r = result.hostView();
        long bad = r.getLong(0);
        if (bad != 0) {
            throw new CollectiveMismatchException(String.format(Locale.ROOT,
                    "%s: %d of %d elements are wrong; first at element %d (checked on the GPU against the inputs)",
                    what, bad, n, r.getLong(8)));
        }
        bytesVerified += n * type.bytes();
    }

    /** Bytes checked and found right, over every call. */
    long bytesVerified() {
        return bytesVerified;
    }

    /** Bytes checked and found right by all of {@code checks}. */
    static long bytesVerified(DeviceCheck[] checks) {
        long sum = 0;
        for (DeviceCheck check : checks) {
            sum += check.bytesVerified();
        }
        return sum;
    }

    @Override
    public void close() {
        counters.close();
        result.close();
    }
}
