package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.nccl.*;

import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclUniqueId;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.PointerPointer;

/**
 * This process's rank of an NCCL communicator that spans processes (one GPU per process, ranks on any host), as
 * training and inference engines run NCCL: {@code ncclCommInitRank} on every rank.
 *
 * <p>Bootstrap is NCCL's own {@code NCCL_COMM_ID} mechanism, no rendezvous of ours: with {@code NCCL_COMM_ID}
 * set to rank 0's {@code host:port} in every rank's environment, {@code ncclGetUniqueId} builds the same id in
 * every process (the address and a fixed magic, NCCL 2.28 bootstrap.cc), and rank 0's {@code ncclCommInitRank}
 * starts the bootstrap root listening there. Sub-communicators (the ranks of one host) come from {@code
 * ncclCommSplit} on it. NCCL refuses two ranks of one communicator on one GPU ({@code ncclInvalidUsage},
 * "Duplicate GPU detected", init.cc); {@link #join} reports that as a {@link CudaException} with error name
 * {@code ncclInvalidUsage} and NCCL's own text.
 *
 * <p>NVLink multicast must stay off, as for {@link Nccl}: {@link #join} refuses to start unless
 * NCCL_NVLS_ENABLE=0.
 */
public final class NcclRank implements AutoCloseable {
    /** The environment variable NCCL bootstraps from. */
    public static final String COMM_ID = "NCCL_COMM_ID";

    private final int device;
    private final int size;
    private final int rank;
    private ncclComm comm;

    private NcclRank(int device, int size, int rank, ncclComm comm) {
        this.device = device;
        this.size = size;
        this.rank = rank;
        this.comm = comm;
    }

    /**
     * Joins the communicator of {@code ranks} processes as rank {@code rank} on GPU {@code device}; blocks until
     * every rank has joined (NCCL's bootstrap has no timeout of its own: callers bound it).
     *
     * @throws CudaException naming the call, NCCL's error name and its last error text
     */
    public static NcclRank join(int device, int ranks, int rank) {
        Cuda.require();
        String nvls = System.getenv("NCCL_NVLS_ENABLE");
        if (nvls == null || !nvls.equals("0")) {
            throw CudaException.notAvailable("NCCL_NVLS_ENABLE must be 0 (NVLink multicast off) for p2pbench's "
                    + "NCCL runs; it is " + (nvls == null ? "unset" : nvls) + ". bin/p2pbench sets it");
        }
        String commId = System.getenv(COMM_ID);
        if (commId == null || commId.isBlank()) {
            throw CudaException.notAvailable(COMM_ID + " is not set; set it to rank 0's host:port in every rank's "
                    + "environment (docs/multiprocess.md)");
        }
        Loader.load(nccl.class);
        Cuda.setDevice(device);
        try (ncclUniqueId id = new ncclUniqueId(); PointerPointer<ncclComm> out = new PointerPointer<>(1)) {
            check(ncclGetUniqueId(id), "ncclGetUniqueId", COMM_ID, commId);
            int result = ncclCommInitRank(out, ranks, id, rank);
            Cuda.forgetCurrentDevice();
            check(result, "ncclCommInitRank", "ranks", ranks, "rank", rank, "device", device, COMM_ID, commId);
            return new NcclRank(device, ranks, rank, out.get(ncclComm.class, 0));
        }
    }

    /**
     * The ranks of this communicator with the same {@code color}, ordered by {@code key}, as a new communicator
     * (ncclCommSplit; every rank must call it). The new rank's GPU is this one's.
     */
    public NcclRank split(int color, int key) {
        Cuda.setDevice(device);
        try (PointerPointer<ncclComm> out = new PointerPointer<>(1)) {
            int result = ncclCommSplit(comm(), color, key, out, null);
            Cuda.forgetCurrentDevice();
            check(result, "ncclCommSplit", "rank", rank, "color", color, "key", key);
            ncclComm sub = out.get(ncclComm.class, 0);
            int[] count = {0};
            int[] user = {0};
            int asked = ncclCommCount(sub, count);
            if (asked == ncclSuccess) {
                asked = ncclCommUserRank(sub, user);
            }
            if (asked != ncclSuccess) {
                CudaException failure = error(asked, "ncclCommCount/ncclCommUserRank", "rank", rank, "color", color);
                Cuda.setDevice(device);
                int destroyed = ncclCommDestroy(sub);
                Cuda.forgetCurrentDevice();
                if (destroyed != ncclSuccess) {
                    failure.addSuppressed(error(destroyed, "ncclCommDestroy", "rank", rank, "color", color));
                }
                throw failure;
            }
            return new NcclRank(device, count[0], user[0], sub);
        }
    }

    /** Ranks in the communicator. */
    public int size() {
        return size;
    }

    /** This process's rank in it. */
    public int rank() {
        return rank;
    }

    /** The GPU of this rank. */
    public int device() {
        return device;
    }

    private ncclComm comm() {
        if (comm == null) {
            throw new IllegalStateException("NCCL rank " + rank + " of " + size + " is closed");
        }
        return comm;
    }

    /** Enqueues this rank's part of a sum all-reduce of {@code count} elements. */
    public void allReduce(Memory send, Memory recv, long count, Nccl.DataType type, CudaStream stream) {
        check(ncclAllReduce(send.base(), recv.base(), count, type.nccl(), ncclSum, comm(), stream.handle()),
                "ncclAllReduce", "rank", rank, "count", count);
    }

    /** Enqueues this rank's part of an all-gather: {@code count} elements from each rank. */
    public void allGather(Memory send, Memory recv, long count, Nccl.DataType type, CudaStream stream) {
        check(ncclAllGather(send.base(), recv.base(), count, type.nccl(), comm(), stream.handle()),
                "ncclAllGather", "rank", rank, "count", count);
    }

    /** Enqueues this rank's part of a sum reduce-scatter: {@code count} result elements per rank. */
    public void reduceScatter(Memory send, Memory recv, long count, Nccl.DataType type, CudaStream stream) {
        check(ncclReduceScatter(send.base(), recv.base(), count, type.nccl(), ncclSum, comm(), stream.handle()),
                "ncclReduceScatter", "rank", rank, "count", count);
    }

    /** Enqueues this rank's part of an all-to-all: {@code count} elements to and from each rank. */
    public void allToAll(Memory send, Memory recv, long count, Nccl.DataType type, CudaStream stream) {
        check(ncclAlltoAll(send.base(), recv.base(), count, type.nccl(), comm(), stream.handle()),
                "ncclAlltoAll", "rank", rank, "count", count);
    }

    /**
     * Whether {@code e} is NCCL's {@code ncclInvalidUsage} (as when two ranks of one communicator share a GPU): the
     * exception carries NCCL's result code under the name {@link #resultName} gave it.
     */
    public static boolean invalidUsage(CudaException e) {
        return e.api() == CudaException.Api.NCCL && e.code() == ncclInvalidUsage;
    }

    /** NCCL's name of a result code, e.g. {@code ncclInvalidUsage}. */
    public static String resultName(int result) {
        return switch (result) {
            case ncclSuccess -> "ncclSuccess";
            case ncclUnhandledCudaError -> "ncclUnhandledCudaError";
            case ncclSystemError -> "ncclSystemError";
            case ncclInternalError -> "ncclInternalError";
            case ncclInvalidArgument -> "ncclInvalidArgument";
            case ncclInvalidUsage -> "ncclInvalidUsage";
            case ncclRemoteError -> "ncclRemoteError";
            case ncclInProgress -> "ncclInProgress";
            default -> "ncclResult" + result;
        };
    }

    private static void check(int result, String call, Object... args) {
        if (result != ncclSuccess) {
            throw error(result, call, args);
        }
    }

    /** The exception of a failed call: NCCL's name and text of the result, and its last error message. */
    private static CudaException error(int result, String call, Object... args) {
        BytePointer text = ncclGetErrorString(result);
        BytePointer last = ncclGetLastError(null);
        String lastText = last == null ? "" : last.getString().strip();
        String description = (text == null ? "" : text.getString()) + (lastText.isEmpty() ? "" : "; NCCL: " + lastText);
        return new CudaException(CudaException.Api.NCCL, call, Cuda.formatArgs(args), result, resultName(result),
                description);
    }

    /** Destroys the communicator; idempotent. */
    @Override
    public void close() {
        if (comm != null) {
            ncclComm c = comm;
            comm = null;
            Cuda.setDevice(device);
            int result = ncclCommDestroy(c);
            Cuda.forgetCurrentDevice();
            check(result, "ncclCommDestroy", "rank", rank);
        }
    }
}
