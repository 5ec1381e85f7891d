package io.p2pbench.collective;

import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.cuda.NcclRank;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.StreamGate;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.transfer.Pattern;
import java.util.ArrayList;
import java.util.List;

/**
 * This process's rank of an NCCL collective whose ranks are processes (one GPU each, on one host or several),
 * the way engines run NCCL: the same operations, sizes, inputs and checks as {@link NcclCollective} (which drives
 * every GPU from one process), over a communicator made with {@link NcclRank}.
 *
 * <p>A batch: the destination is poisoned; the stream is held by a {@link StreamGate} while one warm-up operation
 * and {@code ops} timed ones are enqueued between a start and a stop event, then released. The warm-up
 * operation completes on every rank at about the same moment (a collective waits for all its ranks), so the start
 * events of the ranks line up on the device even when the processes released their gates at different host
 * times. The figure of a rank is its own start-to-stop device time per operation; a job's figure (nccl-tests
 * averages the ranks' times, its default {@code -a 1}) is made from the ranks' figures after the job. Sizes as
 * nccl-tests: {@code sizeBytes} is each rank's buffer for all-reduce and all-to-all, the gathered output for
 * all-gather and the input of reduce-scatter. Every element of the output is checked on the GPU after every batch.
 */
public final class ProcessCollective implements AutoCloseable {
    /** Operations a held stream may queue (as for transfers); one NCCL operation counts as 4. */
    private static final int MAX_HELD_OPERATIONS = 192;
    private static final int OPERATIONS_PER_OP = 4;
    /** Bytes a batch aims to reduce or move, so that event resolution and ramp-up are negligible. */
    private static final long TARGET_BATCH_BYTES = 256L << 20;

    private final NcclRank comm;
    private final Operation op;
    private final DataType type;
    private final long total;
    private final long perRank;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final DeviceBuffer send;
    private final DeviceBuffer recv;
    private final CudaStream stream;
    private final CudaEvent start;
    private final CudaEvent stop;
    private final StreamGate gate;
    private final DeviceCheck check;
    private final int ops;

    /** Allocates this rank's buffers on its GPU and fills its input (rank {@code comm.rank()}'s values). */
    public ProcessCollective(NcclRank comm, Operation op, DataType type, long sizeBytes) {
        requireShape(comm.size(), op, type, sizeBytes);
        this.comm = comm;
        this.op = op;
        this.type = type;
        this.total = sizeBytes / type.bytes();
        this.perRank = total / comm.size();
        int d = comm.device();
        try {
            long sendElems = op == Operation.ALL_GATHER ? perRank : total;
            long recvElems = op == Operation.REDUCE_SCATTER ? perRank : total;
            send = own(new DeviceBuffer(d, sendElems * type.bytes()));
            recv = own(new DeviceBuffer(d, recvElems * type.bytes()));
            stream = own(new CudaStream(d));
            start = own(CudaEvent.timing(d));
            stop = own(CudaEvent.timing(d));
            gate = own(new StreamGate());
            check = own(new DeviceCheck(d));
            SuiteKernels.kernel(d, type == DataType.FLOAT32 ? "fillRankF32" : "fillRankBf16")
                    .launch(stream, SuiteKernels.gridFor(d, sendElems, SuiteKernels.BLOCK), SuiteKernels.BLOCK,
                            send, sendElems, Reference.SEED, comm.rank());
            stream.synchronize();
            long wanted = Math.max(4, Math.min(64, TARGET_BATCH_BYTES / Math.max(1, sizeBytes)));
            this.ops = (int) Math.min(wanted, MAX_HELD_OPERATIONS / OPERATIONS_PER_OP - 1);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Throws {@link IllegalArgumentException} naming the problem if {@code ranks} cannot run this shape. */
    public static void requireShape(int ranks, Operation op, DataType type, long sizeBytes) {
        long unit = (op == Operation.ALL_REDUCE ? 1L : ranks) * type.bytes();
        if (sizeBytes <= 0 || sizeBytes % unit != 0) {
            throw new IllegalArgumentException("size " + sizeBytes + " bytes does not split into " + ranks
                    + " equal parts of " + type + " elements for " + op + "; use a multiple of " + unit + " bytes");
        }
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** Timed operations per batch. */
    public int opsPerBatch() {
        return ops;
    }

    private void enqueue() {
        switch (op) {
            case ALL_REDUCE -> comm.allReduce(send, recv, total, type, stream);
            case ALL_GATHER -> comm.allGather(send, recv, perRank, type, stream);
            case REDUCE_SCATTER -> comm.reduceScatter(send, recv, perRank, type, stream);
            case ALL_TO_ALL -> comm.allToAll(send, recv, perRank, type, stream);
            default -> throw new IllegalStateException(op.toString());
        }
    }

    /**
     * One batch: device nanoseconds per operation on this rank, then every output element checked; throws
     * {@link CollectiveMismatchException} when one is wrong.
     */
    public CollectiveTiming batch() {
        Copies.memsetAsync(recv, Pattern.POISON_BYTE, recv.bytes(), stream);
        try {
            gate.hold(stream);
            enqueue(); // warm-up: lines the ranks up on the device
            start.record(stream);
            for (int i = 0; i < ops; i++) {
                enqueue();
            }
            stop.record(stream);
        } finally {
            gate.release(); // throws if the watchdog had to release: the timing is then discarded
        }
        stream.synchronize();
        double nanos = CudaEvent.elapsedMillis(start, stop) * 1e6;
        check.check("NCCL " + op + " rank " + comm.rank() + " of " + comm.size() + " (GPU" + comm.device() + ")",
                recv, recv.bytes() / type.bytes(), type, comm.size(), mode(), perRank, comm.rank(), stream);
        return new CollectiveTiming(nanos / ops, ops, true);
    }

    private DeviceCheck.Mode mode() {
        return switch (op) {
            case ALL_REDUCE -> DeviceCheck.Mode.ALL_REDUCE;
            case REDUCE_SCATTER -> DeviceCheck.Mode.REDUCE_SCATTER;
            case ALL_GATHER -> DeviceCheck.Mode.ALL_GATHER;
            case ALL_TO_ALL -> DeviceCheck.Mode.ALL_TO_ALL;
        };
    }

    /** Bytes of output checked and found right so far. */
    public long bytesVerified() {
        return check.bytesVerified();
    }

    /** Frees this rank's buffers (the communicator stays open); idempotent. */
    @Override
    public void close() {
        Resources.closeReversed(owned);
        owned.clear();
    }
}
