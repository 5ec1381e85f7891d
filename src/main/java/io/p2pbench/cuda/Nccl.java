package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.nccl.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.PointerPointer;

/**
 * NCCL communicators for one process driving several GPUs (ncclCommInitAll): one communicator per
 * GPU of the group, destroyed together on close.
 *
 * <p>NVLink SHARP (multicast) must stay off where GPUs are shared: the launcher sets
 * NCCL_NVLS_ENABLE=0, and {@link #open} refuses to start if it is set to anything else.
 */
public final class Nccl implements AutoCloseable {
    /** Communicator sets kept for reuse ({@link #keepCommunicators}), per list of GPUs. */
    private static final KeptHandles<List<Integer>, ncclComm[]> KEPT = new KeptHandles<>("NCCL communicator set",
            (devices, comms) -> destroy(devices.stream().mapToInt(Integer::intValue).toArray(), comms));

    private final int[] devices;
    private final ncclComm[] comms;
    private final KeptHandles.Slot<ncclComm[]> kept;
    private boolean closed;

    private Nccl(int[] devices, ncclComm[] comms, KeptHandles.Slot<ncclComm[]> kept) {
        this.devices = devices;
        this.comms = comms;
        this.kept = kept;
    }

    /**
     * Turns keeping communicators on or off. While on, closing an {@link Nccl} keeps its communicators,
     * and the next {@link #open} of the same GPUs gets them back instead of initialising new ones (0.65 s
     * each time on the H200 node); NCCL's own streams, made when they were initialised, are then the same
     * too. A fork group's JVM keeps them, as it keeps its streams ({@link CudaStream#reuseStreams}).
     * Turning it off destroys the kept communicators that are not open.
     */
    public static void keepCommunicators(boolean on) {
        KEPT.turn(on);
    }

    /** How many communicator sets are kept, open or not. */
    public static int keptSets() {
        return KEPT.count();
    }

    /**
     * Destroys the kept communicator sets that are not open (before a context reset).
     *
     * @throws IllegalStateException if one is still open (it stays kept)
     */
    static void destroyKept() {
        KEPT.destroyIdle();
    }

    static void check(int result, String call, Object... args) {
        if (result != ncclSuccess) {
            BytePointer text = ncclGetErrorString(result);
            throw new CudaException(CudaException.Api.NCCL, call, Cuda.formatArgs(args), result, "ncclResult" + result,
                    text == null ? "" : text.getString());
        }
    }

    /** Why NCCL cannot be loaded here, or null when it can. */
    public static String unavailable() {
        try {
            Loader.load(nccl.class);
            try (IntPointer v = new IntPointer(1)) {
                check(ncclGetVersion(v), "ncclGetVersion");
                return null;
            }
        } catch (Throwable t) {
            return Cuda.describeLoadFailure(t);
        }
    }

    /** NCCL's version code (e.g. 22803 for 2.28.3), or a reason it cannot be loaded. */
    public static String version() {
        try {
            Loader.load(nccl.class);
            try (IntPointer v = new IntPointer(1)) {
                check(ncclGetVersion(v), "ncclGetVersion");
                int code = v.get();
                return (code / 10000) + "." + (code / 100) % 100 + "." + code % 100;
            }
        } catch (Throwable t) {
            return "unavailable (" + Cuda.describeLoadFailure(t) + ")";
        }
    }

    /** Opens one communicator per GPU in {@code devices} (distinct GPUs; NCCL refuses repeats). */
    public static Nccl open(int... devices) {
        Cuda.require();
        String nvls = System.getenv("NCCL_NVLS_ENABLE");
        if (nvls == null || !nvls.equals("0")) {
            throw CudaException.notAvailable("NCCL_NVLS_ENABLE must be 0 (NVLink multicast off) for p2pbench's "
                    + "NCCL runs; it is " + (nvls == null ? "unset" : nvls) + ". bin/p2pbench sets it");
        }
        if (Arrays.stream(devices).distinct().count() != devices.length) {
            throw new IllegalArgumentException("NCCL needs distinct GPUs, got " + Arrays.toString(devices));
        }
        List<Integer> key = Arrays.stream(devices).boxed().toList();
        KeptHandles.Slot<ncclComm[]> slot = KEPT.take(key);
        if (slot != null) {
            return new Nccl(devices.clone(), slot.handle, slot);
        }
        Loader.load(nccl.class);
        PointerPointer<ncclComm> out = new PointerPointer<>(devices.length);
        try (IntPointer list = new IntPointer(devices)) {
            check(ncclCommInitAll(out, devices.length, list), "ncclCommInitAll",
                    "devices", Arrays.toString(devices));
        } finally {
            Cuda.forgetCurrentDevice(); // NCCL switches devices while it sets up
        }
        ncclComm[] comms = new ncclComm[devices.length];
        for (int i = 0; i < devices.length; i++) {
            comms[i] = out.get(ncclComm.class, i);
        }
        out.close();
        return new Nccl(devices.clone(), comms, KEPT.keep(key, comms));
    }

    /** Number of ranks. */
    public int size() {
        return devices.length;
    }

    /** GPU of rank {@code rank}. */
    public int device(int rank) {
        return devices[rank];
    }

    /** The communicator of rank {@code rank}, for calls in this package. */
    ncclComm comm(int rank) {
        if (closed) {
            throw new IllegalStateException("NCCL communicators are closed");
        }
        return comms[rank];
    }

    /** Element types the suite's collectives use. */
    public enum DataType {
        /** 32-bit float. */
        FLOAT32(4),
        /** bfloat16. */
        BFLOAT16(2);

        private final int bytes;

        DataType(int bytes) {
            this.bytes = bytes;
        }

        /** Bytes per element. */
        public int bytes() {
            return bytes;
        }

        int nccl() {
            return this == FLOAT32 ? ncclFloat32 : ncclBfloat16;
        }
    }

    /** Enqueues rank {@code rank}'s part of a sum all-reduce of {@code count} elements. */
    public void allReduce(int rank, Memory send, Memory recv, long count, DataType type, CudaStream stream) {
        check(ncclAllReduce(send.base(), recv.base(), count, type.nccl(), ncclSum, comm(rank), stream.handle()),
                "ncclAllReduce", "rank", rank, "count", count);
    }

    /** Enqueues rank {@code rank}'s part of an all-gather: {@code count} elements from each rank. */
    public void allGather(int rank, Memory send, Memory recv, long count, DataType type, CudaStream stream) {
        check(ncclAllGather(send.base(), recv.base(), count, type.nccl(), comm(rank), stream.handle()),
                "ncclAllGather", "rank", rank, "count", count);
    }

    /** Enqueues rank {@code rank}'s part of a sum reduce-scatter: {@code count} result elements per rank. */
    public void reduceScatter(int rank, Memory send, Memory recv, long count, DataType type, CudaStream stream) {
        check(ncclReduceScatter(send.base(), recv.base(), count, type.nccl(), ncclSum, comm(rank), stream.handle()),
                "ncclReduceScatter", "rank", rank, "count", count);
    }

    /** Enqueues rank {@code rank}'s part of an all-to-all: {@code count} elements to and from each rank. */
    public void allToAll(int rank, Memory send, Memory recv, long count, DataType type, CudaStream stream) {
        check(ncclAlltoAll(send.base(), recv.base(), count, type.nccl(), comm(rank), stream.handle()),
                "ncclAlltoAll", "rank", rank, "count", count);
    }

    /** Opens an NCCL group (operations of several ranks issued from one thread). */
    public static void groupStart() {
        check(ncclGroupStart(), "ncclGroupStart");
    }

    /** Closes the NCCL group, launching its operations. */
    public static void groupEnd() {
        int result = ncclGroupEnd();
        Cuda.forgetCurrentDevice();
        check(result, "ncclGroupEnd");
    }

    /**
     * Destroys the communicators, or, for kept ones, waits until their GPUs are idle and hands them back for
     * the next {@link #open} of the same GPUs (destroying them if keeping was turned off meanwhile).
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (kept != null) {
                List<Integer> key = Arrays.stream(devices).boxed().toList();
                try {
                    for (int d : devices) {
                        Cuda.synchronize(d);
                    }
                } catch (RuntimeException e) {
                    KEPT.giveBack(key, kept, false);
                    try {
                        destroy(devices, comms);
                    } catch (RuntimeException destroying) {
                        e.addSuppressed(destroying);
                    }
                    throw e;
                }
                if (KEPT.giveBack(key, kept, true)) {
                    return;
                }
            }
            destroy(devices, comms);
        }
    }

    private static void destroy(int[] devices, ncclComm[] comms) {
        // Every communicator is destroyed even when an earlier one fails; the first failure is
        // thrown with the others suppressed on it.
        List<AutoCloseable> ranks = new ArrayList<>();
        for (int i = 0; i < comms.length; i++) {
            int rank = i;
            ranks.add(() -> {
                Cuda.setDevice(devices[rank]);
                int result = ncclCommDestroy(comms[rank]);
                Cuda.forgetCurrentDevice();
                check(result, "ncclCommDestroy", "rank", rank);
            });
        }
        Resources.closeEach(ranks);
    }
}
