package io.p2pbench.collective;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Nccl;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.transfer.Pattern;
import java.util.Arrays;
import java.util.List;

/**
 * An NCCL collective over a group of distinct GPUs, one communicator per GPU in this process
 * (ncclCommInitAll), out of place. Sizes follow nccl-tests: {@code sizeBytes} is each rank's
 * buffer for all-reduce and all-to-all, the gathered output for all-gather, and the input for
 * reduce-scatter. NVLink multicast (NVLS) stays off.
 */
public final class NcclCollective implements CollectiveOperation {
    private final Group group;
    private final Operation op;
    private final DataType type;
    private final long total;
    private final long perRank;
    private final Ranks ranks;
    private final Nccl nccl;
    private final DeviceBuffer[] send;
    private final DeviceBuffer[] recv;
    private final DeviceCheck[] checks;

    /** Sets up communicators and buffers and fills the inputs. */
    public NcclCollective(Group group, Operation op, DataType type, long sizeBytes) {
        Cuda.require();
        requireShape(group, op, type, sizeBytes);
        this.group = group;
        this.op = op;
        this.type = type;
        int n = group.size();
        this.total = sizeBytes / type.bytes();
        this.perRank = total / n;
        this.ranks = new Ranks(group, null, 0);
        try {
            this.nccl = ranks.own(Nccl.open(group.toArray()));
            send = new DeviceBuffer[n];
            recv = new DeviceBuffer[n];
            checks = new DeviceCheck[n];
            long sendElems = op == Operation.ALL_GATHER ? perRank : total;
            long recvElems = op == Operation.REDUCE_SCATTER ? perRank : total;
            for (int r = 0; r < n; r++) {
                int d = group.device(r);
                send[r] = ranks.own(new DeviceBuffer(d, sendElems * type.bytes()));
                recv[r] = ranks.own(new DeviceBuffer(d, recvElems * type.bytes()));
                checks[r] = ranks.own(new DeviceCheck(d));
                SuiteKernels.kernel(d, type == DataType.FLOAT32 ? "fillRankF32" : "fillRankBf16")
                        .launch(ranks.compute[r], SuiteKernels.gridFor(d, sendElems, SuiteKernels.BLOCK),
                                SuiteKernels.BLOCK, send[r], sendElems, Reference.SEED, r);
            }
            ranks.synchronize();
        } catch (RuntimeException e) {
            ranks.close();
            throw e;
        }
    }

    /** Throws {@link IllegalArgumentException} naming the problem if NCCL cannot run this shape. */
    public static void requireShape(Group group, Operation op, DataType type, long sizeBytes) {
        if (group.repeatsDevices()) {
            throw new IllegalArgumentException("NCCL needs distinct GPUs, but group '" + group + "' repeats one");
        }
        int n = group.size();
        long unit = (op == Operation.ALL_REDUCE ? 1L : n) * type.bytes();
        if (sizeBytes % unit != 0 || sizeBytes <= 0) {
            throw new IllegalArgumentException("size " + sizeBytes + " bytes does not split into " + n + " equal parts of "
                    + type + " elements for " + op + "; use a multiple of " + unit + " bytes");
        }
    }

    private void enqueue() {
        Nccl.groupStart();
        try {
            for (int r = 0; r < group.size(); r++) {
                switch (op) {
                    case ALL_REDUCE -> nccl.allReduce(r, send[r], recv[r], total, type, ranks.compute[r]);
                    case ALL_GATHER -> nccl.allGather(r, send[r], recv[r], perRank, type, ranks.compute[r]);
                    case REDUCE_SCATTER -> nccl.reduceScatter(r, send[r], recv[r], perRank, type, ranks.compute[r]);
                    case ALL_TO_ALL -> nccl.allToAll(r, send[r], recv[r], perRank, type, ranks.compute[r]);
                    default -> throw new IllegalStateException(op.toString());
                }
            }
        } finally {
            Nccl.groupEnd();
        }
    }

    /** Device time of {@code ops} back-to-back operations (gated when they fit), per operation. */
    @Override
    public CollectiveTiming time(int ops) {
        Ranks.Timing t = ranks.time(this::enqueue, 4, ops);
        return new CollectiveTiming(t.nanosPerOp(), t.ops(), t.gated());
    }

    /** One operation, enqueued and waited for by the host. */
    @Override
    public void runOnce() {
        enqueue();
        ranks.synchronize();
    }

    /** Fills every output with poison. */
    @Override
    public void poison() {
        for (int r = 0; r < group.size(); r++) {
            Copies.memsetAsync(recv[r], Pattern.POISON_BYTE, recv[r].bytes(), ranks.compute[r]);
        }
        ranks.synchronize();
    }

    private DeviceCheck.Mode mode() {
        return switch (op) {
            case ALL_REDUCE -> DeviceCheck.Mode.ALL_REDUCE;
            case REDUCE_SCATTER -> DeviceCheck.Mode.REDUCE_SCATTER;
            case ALL_GATHER -> DeviceCheck.Mode.ALL_GATHER;
            case ALL_TO_ALL -> DeviceCheck.Mode.ALL_TO_ALL;
        };
    }

    /** Checks every rank's output on its GPU; throws {@link CollectiveMismatchException}. */
    @Override
    public void verify() {
        for (int r = 0; r < group.size(); r++) {
            checks[r].check("NCCL " + op + " rank " + r + " (GPU" + group.device(r) + ")", recv[r],
                    recv[r].bytes() / type.bytes(), type, group.size(), mode(), perRank, r, ranks.compute[r]);
        }
    }

    /**
     * Compares every rank's output with the CPU reference; throws {@link CollectiveMismatchException}.
     * All-reduce and all-gather leave the same result on every rank, so its reference is computed
     * once and every rank's output compared with it; reduce-scatter and all-to-all differ per rank.
     */
    @Override
    public void verifyOnHost() {
        int n = group.size();
        if (op == Operation.ALL_REDUCE || op == Operation.ALL_GATHER) {
            ResultCheck.check("NCCL " + op + " over " + group + " (output o = rank o)", Arrays.asList(recv),
                    Arrays.asList(ranks.compute), recv[0].bytes() / type.bytes(), type,
                    op == Operation.ALL_REDUCE ? ResultCheck.sum(type, n, 0) : ResultCheck.gathered(type, perRank, 0));
            return;
        }
        for (int r = 0; r < n; r++) {
            ResultCheck.Expected expected = op == Operation.REDUCE_SCATTER ? ResultCheck.sum(type, n, r * perRank)
                    : ResultCheck.gathered(type, perRank, r * perRank);
            ResultCheck.check("NCCL " + op + " rank " + r + " (GPU" + group.device(r) + ")", List.of(recv[r]),
                    List.of(ranks.compute[r]), recv[r].bytes() / type.bytes(), type, expected);
        }
    }

    @Override
    public long bytesVerified() {
        return DeviceCheck.bytesVerified(checks);
    }

    @Override
    public void close() {
        ranks.close();
    }
}
