package io.p2pbench.collective;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Kernel;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.transfer.Pattern;
import java.util.Arrays;
import java.util.List;

/**
 * A ring all-reduce (sum) built from the suite's peer copies and an NVRTC-compiled add kernel:
 * reduce-scatter then all-gather along {@link RingSchedule}, out of place (inputs stay intact, so
 * every run sums the same data). Each chunk is cut into up to {@link #MAX_PIECES} pieces that
 * flow as a pipeline: while the receiver adds piece p, piece p+1 is already on its way.
 *
 * <p>Per piece and step, on the receiving rank:
 * <pre>
 *   copy stream:     wait(sender's piece ready) wait(staging slot free) copy → slot   [reduce-scatter]
 *   compute stream:  wait(copied) add(out = in + slot) record(slot free, piece ready)
 *   copy stream:     wait(sender's piece ready) copy → out, record(piece ready)     [all-gather]
 * </pre>
 * Chunks move by {@link CollectivePath#P2P} (peer copies, receiver issues) or {@link
 * CollectivePath#HOST_STAGED}. A group that repeats a GPU runs every rank's copies on it: the
 * algorithm and its checks run, but nothing crosses an interconnect.
 */
public final class RingAllReduce implements CollectiveOperation {
    /** Most pieces a chunk is cut into. */
    static final int MAX_PIECES = 4;
    /** Smallest piece worth pipelining. */
    static final long MIN_PIECE_BYTES = 1L << 20;

    private final Group group;
    private final DataType type;
    private final long count;
    private final long chunkElems;
    private final int pieces;
    private final long pieceElems;
    private final Ranks ranks;
    private final DeviceBuffer[] in;
    private final DeviceBuffer[] out;
    private final DeviceBuffer[][] slot;
    private final CudaEvent[][][] ready;
    private final CudaEvent[] copied;
    private final CudaEvent[][] slotFree;
    private final boolean[][] slotUsed;
    private final long[] slotCounter;
    private final Kernel[] add;
    private final DeviceCheck[] checks;
    private final CudaEvent[][] handedOver;
    /** One all-reduce, the same object for every batch (its CUDA graph is kept by it). */
    private final Runnable oneOperation = this::enqueue;

    /**
     * @param sizeBytes bytes of each rank's buffer; must split into one chunk per rank of whole elements
     */
    public RingAllReduce(Group group, DataType type, long sizeBytes, CollectivePath path, long stagingChunk) {
        this(group, type, sizeBytes, path, stagingChunk, true);
    }

    /**
     * @param peerAccess whether the P2P path turns peer access on; false measures P2P off (the
     *     driver stages each peer copy)
     */
    public RingAllReduce(Group group, DataType type, long sizeBytes, CollectivePath path, long stagingChunk,
                         boolean peerAccess) {
        Cuda.require();
        requireShape(group, type, sizeBytes);
        this.group = group;
        this.type = type;
        this.count = sizeBytes / type.bytes();
        int n = group.size();
        this.chunkElems = count / n;
        long chunkBytes = chunkElems * type.bytes();
        this.pieces = (int) Math.max(1, Math.min(MAX_PIECES, chunkBytes / MIN_PIECE_BYTES));
        this.pieceElems = (chunkElems + pieces - 1) / pieces;
        this.ranks = new Ranks(group, path, stagingChunk, peerAccess);
        try {
            handedOver = new CudaEvent[n][3];
            in = new DeviceBuffer[n];
            out = new DeviceBuffer[n];
            slot = new DeviceBuffer[n][2];
            ready = new CudaEvent[n][2][pieces];
            copied = new CudaEvent[n];
            slotFree = new CudaEvent[n][2];
            slotUsed = new boolean[n][2];
            slotCounter = new long[n];
            add = new Kernel[n];
            checks = new DeviceCheck[n];
            for (int r = 0; r < n; r++) {
                int d = group.device(r);
                in[r] = ranks.own(new DeviceBuffer(d, sizeBytes));
                out[r] = ranks.own(new DeviceBuffer(d, sizeBytes));
                for (int k = 0; k < 2; k++) {
                    slot[r][k] = ranks.own(new DeviceBuffer(d, pieceElems * type.bytes()));
                    slotFree[r][k] = ranks.own(CudaEvent.ordering(d));
                    for (int p = 0; p < pieces; p++) {
                        ready[r][k][p] = ranks.own(CudaEvent.ordering(d));
                    }
                }
                copied[r] = ranks.own(CudaEvent.ordering(d));
                for (int k = 0; k < 3; k++) {
                    handedOver[r][k] = ranks.own(CudaEvent.ordering(d));
                }
                checks[r] = ranks.own(new DeviceCheck(d));
                add[r] = SuiteKernels.kernel(d, type == DataType.FLOAT32 ? "addF32" : "addBf16");
                fillInput(r);
            }
            ranks.synchronize();
        } catch (RuntimeException e) {
            ranks.close();
            throw e;
        }
    }

    private void fillInput(int r) {
        int d = group.device(r);
        SuiteKernels.kernel(d, type == DataType.FLOAT32 ? "fillRankF32" : "fillRankBf16")
                .launch(ranks.compute[r], SuiteKernels.gridFor(d, count, SuiteKernels.BLOCK), SuiteKernels.BLOCK,
                        in[r], count, Reference.SEED, r);
    }

    /**
     * Writes the reference inputs again, for a caller whose own work wrote into {@link #input} (a
     * partition step), so that {@link #poison}, {@link #runOnce} and {@link #verify} check a fresh
     * all-reduce. The caller's streams must be idle.
     */
    public void refill() {
        for (int r = 0; r < group.size(); r++) {
            fillInput(r);
        }
        ranks.synchronize();
    }

    /** Throws {@link IllegalArgumentException} naming the problem if the shape does not fit a ring. */
    public static void requireShape(Group group, DataType type, long sizeBytes) {
        int n = group.size();
        if (n < 2) {
            throw new IllegalArgumentException("a ring all-reduce needs at least 2 ranks; group '" + group
                    + "' has one (repeat a GPU, e.g. 0,0, to run it on one GPU)");
        }
        if (sizeBytes % ((long) n * type.bytes()) != 0) {
            throw new IllegalArgumentException("size " + sizeBytes + " bytes does not split into " + n + " chunks of whole "
                    + type + " elements; use a multiple of " + (long) n * type.bytes() + " bytes");
        }
    }

    /** Enqueue operations one all-reduce puts on its busiest stream (without barriers). */
    int operationsPerOp() {
        int steps = 2 * (group.size() - 1);
        long pieceBytes = pieceElems * type.bytes();
        return steps * pieces * (3 + ranks.moveOperations(pieceBytes));
    }

    /** Enqueues one all-reduce on every rank. */
    void enqueue() {
        int n = group.size();
        List<RingSchedule.Step> steps = RingSchedule.steps(n);
        for (RingSchedule.Step step : steps) {
            int t = step.index();
            for (int p = 0; p < pieces; p++) {
                long first = p * pieceElems;
                long len = Math.min(pieceElems, chunkElems - first);
                if (len <= 0) {
                    continue;
                }
                for (RingSchedule.Transfer x : step.transfers()) {
                    enqueuePiece(step.phase(), t, p, x, x.chunk() * chunkElems + first, len);
                }
            }
        }
    }

    private void enqueuePiece(RingSchedule.Phase phase, int t, int p, RingSchedule.Transfer x, long elem, long len) {
        int s = x.sender();
        int r = x.receiver();
        long off = elem * type.bytes();
        long bytes = len * type.bytes();
        if (t > 0) {
            // the sender's piece was produced by its previous step (a reduction or a received copy)
            ranks.copy[r].waitFor(ready[s][(t - 1) & 1][p]);
            if (ranks.staged()) {
                ranks.send[s].waitFor(ready[s][(t - 1) & 1][p]); // staged moves read on the sender's stream
            }
        }
        DeviceBuffer src = t == 0 ? in[s] : out[s];
        if (phase == RingSchedule.Phase.REDUCE_SCATTER) {
            int k = (int) (slotCounter[r]++ & 1);
            if (slotUsed[r][k]) {
                ranks.copy[r].waitFor(slotFree[r][k]);
            }
            ranks.move(s, src, off, r, slot[r][k], 0, bytes);
            copied[r].record(ranks.copy[r]);
            ranks.compute[r].waitFor(copied[r]);
            add[r].launch(ranks.compute[r], SuiteKernels.gridFor(group.device(r), len, SuiteKernels.BLOCK),
                    SuiteKernels.BLOCK, out[r].address() + off, in[r].address() + off, slot[r][k].address(), len);
            slotFree[r][k].record(ranks.compute[r]);
            ready[r][t & 1][p].record(ranks.compute[r]);
            slotUsed[r][k] = true;
        } else {
            ranks.move(s, src, off, r, out[r], off, bytes);
            ready[r][t & 1][p].record(ranks.copy[r]);
        }
    }

    /** Rank {@code r}'s input: what a step's producer writes before {@link #enqueueAfter}. */
    public DeviceBuffer input(int r) {
        return in[r];
    }

    /** Rank {@code r}'s result. */
    public DeviceBuffer output(int r) {
        return out[r];
    }

    /**
     * Enqueues one all-reduce inside a larger step: every stream of every rank first waits for every
     * rank's {@code inputsReady} event (recorded after its producer wrote {@link #input}); then
     * {@link #waitForResult} makes a consumer wait for a rank's result. Nothing is checked here.
     */
    public void enqueueAfter(CudaEvent[] inputsReady) {
        for (int r = 0; r < group.size(); r++) {
            for (CudaEvent e : inputsReady) {
                ranks.copy[r].waitFor(e);
                ranks.compute[r].waitFor(e);
                if (ranks.staged()) {
                    ranks.send[r].waitFor(e);
                }
            }
        }
        enqueue();
        for (int r = 0; r < group.size(); r++) {
            handedOver[r][0].record(ranks.copy[r]);
            handedOver[r][1].record(ranks.compute[r]);
            handedOver[r][2].record(ranks.send[r]);
        }
    }

    /** Makes {@code consumer} (on rank {@code r}'s GPU) wait for rank {@code r}'s result of the last {@link #enqueueAfter}. */
    public void waitForResult(int r, CudaStream consumer) {
        for (CudaEvent e : handedOver[r]) {
            consumer.waitFor(e);
        }
    }

    /** Device time of {@code ops} back-to-back all-reduces (gated when they fit), per operation. */
    @Override
    public CollectiveTiming time(int ops) {
        Ranks.Timing t = ranks.time(oneOperation, this::forgetFinished, operationsPerOp(), ops);
        return new CollectiveTiming(t.nanosPerOp(), t.ops(), t.gated());
    }

    /** With every stream idle: no staging slot is still in use by an earlier all-reduce. */
    private void forgetFinished() {
        for (boolean[] used : slotUsed) {
            Arrays.fill(used, false);
        }
    }

    /** One all-reduce, enqueued and waited for by the host. */
    @Override
    public void runOnce() {
        enqueue();
        ranks.barrier();
        ranks.synchronize();
    }

    /** Fills every output with poison, so the check sees only what later all-reduces wrote. */
    @Override
    public void poison() {
        for (int r = 0; r < group.size(); r++) {
            Copies.memsetAsync(out[r], Pattern.POISON_BYTE, count * type.bytes(), ranks.compute[r]);
        }
        ranks.barrier();
        ranks.synchronize();
    }

    /** Checks every rank's output on its GPU; throws {@link CollectiveMismatchException}. */
    @Override
    public void verify() {
        for (int r = 0; r < group.size(); r++) {
            checks[r].check("ring all-reduce rank " + r + " (GPU" + group.device(r) + ")", out[r], count, type,
                    group.size(), DeviceCheck.Mode.ALL_REDUCE, 0, r, ranks.compute[r]);
        }
    }

    /** Compares every rank's output with the CPU reference; throws {@link CollectiveMismatchException}. */
    @Override
    public void verifyOnHost() {
        ResultCheck.check("ring all-reduce over " + group, Arrays.asList(out),
                Arrays.asList(ranks.compute), count, type, ResultCheck.sum(type, group.size(), 0));
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
