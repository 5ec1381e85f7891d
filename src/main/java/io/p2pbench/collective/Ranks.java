package io.p2pbench.collective;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaException;
import io.p2pbench.cuda.CudaGraph;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.PeerAccess;
import io.p2pbench.cuda.StreamGate;
import io.p2pbench.transfer.StagedCopy;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-rank machinery of a collective: three streams per rank (copy: receives chunks; compute:
 * reductions; send: the device-to-host legs of host-staged moves), the links between ranks for the
 * chosen {@link CollectivePath}, a cross-rank barrier, and gated, event-timed batches of operations.
 * Closes everything it made.
 *
 * <p>An operation that puts more on a stream than a held stream takes ({@link #MAX_HELD_OPERATIONS}) is captured once
 * as a CUDA graph, and its batches are graph launches behind the gate: one enqueued call per operation. Enqueued
 * stream by stream instead, ungated, such a batch timed the host: the ring all-reduce of 64 MiB over four ranks of one
 * H100 puts about 550 calls (copies, kernel launches, event records and waits) into one operation, and its busbw
 * followed the host's CPU (rounds of one run 111-143 GB/s; 214.0-214.4 as graph launches on the same host:
 * docs/notes/collectives-as-graphs.md).
 */
final class Ranks implements AutoCloseable {
    /** Operations a held stream may queue (as for transfers). */
    static final int MAX_HELD_OPERATIONS = 192;

    private final Group group;
    private final CollectivePath path;
    private final long stagingChunk;
    private final List<AutoCloseable> owned = new ArrayList<>();
    final CudaStream[] copy;
    final CudaStream[] compute;
    final CudaStream[] send;
    private final CudaEvent[] start;
    private final CudaEvent[] stop;
    private final CudaEvent[] copyJoined;
    private final CudaEvent[] sendJoined;
    private final CudaEvent[] arrived;
    private final CudaEvent[] released;
    private final StagedCopy[][] staged;
    private final StreamGate gate;
    /** Each operation timed as a graph, by identity; null where its capture failed (it is then timed ungated). */
    private final Map<Runnable, CudaGraph> graphs = new IdentityHashMap<>();

    /**
     * @param path how moves travel; null when the ranks never move data themselves (NCCL does)
     */
    Ranks(Group group, CollectivePath path, long stagingChunk) {
        this(group, path, stagingChunk, true);
    }

    /**
     * @param peerAccess whether a P2P path turns peer access on; without it peer copies are staged
     *     by the driver (P2P off)
     */
    Ranks(Group group, CollectivePath path, long stagingChunk, boolean peerAccess) {
        this.group = group;
        this.path = path;
        this.stagingChunk = stagingChunk;
        int n = group.size();
        copy = new CudaStream[n];
        compute = new CudaStream[n];
        send = new CudaStream[n];
        start = new CudaEvent[n];
        stop = new CudaEvent[n];
        copyJoined = new CudaEvent[n];
        sendJoined = new CudaEvent[n];
        arrived = new CudaEvent[n];
        released = new CudaEvent[n];
        staged = new StagedCopy[n][n];
        try {
            if (path == CollectivePath.P2P && peerAccess) {
                int[] devices = group.distinctDevices();
                for (int a : devices) {
                    for (int b : devices) {
                        if (a != b) {
                            owned.add(PeerAccess.enable(a, b));
                        }
                    }
                }
            }
            for (int r = 0; r < n; r++) {
                int d = group.device(r);
                copy[r] = own(new CudaStream(d));
                compute[r] = own(new CudaStream(d));
                send[r] = own(new CudaStream(d));
                start[r] = own(CudaEvent.timing(d));
                stop[r] = own(CudaEvent.timing(d));
                copyJoined[r] = own(CudaEvent.ordering(d));
                sendJoined[r] = own(CudaEvent.ordering(d));
                arrived[r] = own(CudaEvent.ordering(d));
                released[r] = own(CudaEvent.ordering(d));
            }
            if (path == CollectivePath.HOST_STAGED) {
                for (int s = 0; s < n; s++) {
                    for (int r = 0; r < n; r++) {
                        if (s != r) {
                            staged[s][r] = own(new StagedCopy(group.device(s), group.device(r), stagingChunk));
                        }
                    }
                }
            }
            gate = own(new StreamGate());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Registers a resource to close with the ranks (in reverse order). */
    <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    int size() {
        return group.size();
    }

    int device(int rank) {
        return group.device(rank);
    }

    /**
     * Moves {@code bytes} from rank {@code from}'s {@code src} to rank {@code to}'s {@code dst}. The
     * move ends on {@code to}'s copy stream; a host-staged move starts on {@code from}'s send stream.
     */
    void move(int from, Memory src, long srcOffset, int to, Memory dst, long dstOffset, long bytes) {
        if (path == null) {
            throw new IllegalStateException("these ranks were made without links");
        }
        if (path == CollectivePath.P2P || from == to) {
            if (src.device() == dst.device()) {
                Copies.async(dst, dstOffset, src, srcOffset, bytes, copy[to]);
            } else {
                Copies.peerAsync(dst, dstOffset, src, srcOffset, bytes, copy[to]);
            }
        } else {
            staged[from][to].enqueue(src, srcOffset, dst, dstOffset, bytes, send[from], copy[to]);
        }
    }

    /** Whether moves are host-staged (and so also use the senders' send streams). */
    boolean staged() {
        return path == CollectivePath.HOST_STAGED;
    }

    /** Enqueue operations a move of {@code bytes} puts on its busiest stream. */
    int moveOperations(long bytes) {
        return path == CollectivePath.P2P ? 1 : (int) Math.min(1 << 20, 3 * ((bytes + stagingChunk - 1) / stagingChunk));
    }

    /**
     * A device-side barrier: no stream of any rank goes on until every stream of every rank has
     * reached this point. Costs {@link #barrierOperations()} enqueued operations per stream.
     */
    void barrier() {
        int n = size();
        for (int r = 0; r < n; r++) {
            copyJoined[r].record(copy[r]);
            sendJoined[r].record(send[r]);
            compute[r].waitFor(copyJoined[r]);
            compute[r].waitFor(sendJoined[r]);
            arrived[r].record(compute[r]);
        }
        for (int r = 0; r < n; r++) {
            for (int q = 0; q < n; q++) {
                if (q != r) {
                    compute[r].waitFor(arrived[q]);
                }
            }
            released[r].record(compute[r]);
            copy[r].waitFor(released[r]);
            send[r].waitFor(released[r]);
        }
    }

    /** Operations {@link #barrier()} enqueues on a compute stream (the busiest). */
    int barrierOperations() {
        return size() + 3;
    }

    /** As {@link #time(Runnable, Runnable, int, int)} for an operation that keeps no state between operations. */
    Timing time(Runnable op, int operationsPerOp, int ops) {
        return time(op, () -> { }, operationsPerOp, ops);
    }

    /**
     * Times {@code ops} back-to-back operations on the device: every stream is held by the gate
     * while one warm-up operation and the timed ones are enqueued, each followed by a barrier; time
     * is the longest rank's start-to-stop event interval. An operation that does not fit behind the gate is
     * captured as a graph on its first batch ({@link CudaGraph#capture(CudaStream, List, Runnable)}) and timed
     * as launches of it; only where that capture fails is it enqueued ungated. Returns nanoseconds per operation
     * and whether the batch was gated.
     *
     * @param op enqueues one operation; pass the same object every time (its graph is kept by identity)
     * @param forgetFinished makes the operation's owner forget what it keeps from one operation for the next (a
     *     staging slot in use, ...); called with every stream idle, before and after a capture
     * @param operationsPerOp enqueued operations one operation puts on its busiest stream
     */
    Timing time(Runnable op, Runnable forgetFinished, int operationsPerOp, int ops) {
        int perOp = operationsPerOp + barrierOperations();
        int fitting = MAX_HELD_OPERATIONS / perOp - 1;
        if (fitting < 1) {
            CudaGraph graph = graphOf(op, forgetFinished);
            if (graph != null) {
                return timeGraph(graph, ops);
            }
        }
        boolean gated = fitting >= 1;
        int timed = gated ? Math.min(ops, fitting) : ops;
        try {
            if (gated) {
                allStreams().forEach(gate::hold);
            }
            op.run();
            barrier();
            for (int r = 0; r < size(); r++) {
                start[r].record(compute[r]);
            }
            for (int i = 0; i < timed; i++) {
                op.run();
                barrier();
            }
            for (int r = 0; r < size(); r++) {
                stop[r].record(compute[r]);
            }
        } finally {
            if (gated) {
                gate.release();
            }
        }
        synchronize();
        double longest = 0;
        for (int r = 0; r < size(); r++) {
            longest = Math.max(longest, CudaEvent.elapsedMillis(start[r], stop[r]) * 1e6);
        }
        return new Timing(longest / timed, timed, gated);
    }

    /** Launches of a graph a held stream is given in one batch (one enqueued call each). */
    static final int MAX_HELD_GRAPH_LAUNCHES = 32;

    /**
     * The operation's graph, captured on its first call with every stream idle; null (and a line on stderr, once) if
     * CUDA refuses the capture.
     */
    private CudaGraph graphOf(Runnable op, Runnable forgetFinished) {
        if (graphs.containsKey(op)) {
            return graphs.get(op);
        }
        synchronize();
        forgetFinished(forgetFinished);
        CudaGraph graph = null;
        try {
            List<CudaStream> joined = allStreams();
            joined.remove(compute[0]);
            graph = own(CudaGraph.capture(compute[0], joined, op));
        } catch (CudaException e) {
            System.err.println("p2pbench: an operation over group " + group + " could not be captured as a CUDA graph ("
                    + e.getMessage() + "); its batches are enqueued ungated and can time the host");
        }
        graphs.put(op, graph);
        forgetFinished(forgetFinished); // the capture left the state of one operation behind, as if it had run
        return graph;
    }

    private void forgetFinished(Runnable owners) {
        owners.run();
        for (StagedCopy[] from : staged) {
            for (StagedCopy s : from) {
                if (s != null) {
                    s.forgetFinished();
                }
            }
        }
    }

    /**
     * Times {@code ops} launches of {@code graph} on rank 0's compute stream, held by the gate while a warm-up launch
     * and the timed ones are enqueued; the stream first waits for every stream of every rank (a barrier). A launch
     * runs every rank's part and ends when all of it has, so one stream's events time the whole batch.
     */
    private Timing timeGraph(CudaGraph graph, int ops) {
        int timed = Math.min(ops, MAX_HELD_GRAPH_LAUNCHES);
        CudaStream launch = compute[0];
        barrier();
        try {
            gate.hold(launch);
            graph.launch(launch);
            start[0].record(launch);
            for (int i = 0; i < timed; i++) {
                graph.launch(launch);
            }
            stop[0].record(launch);
        } finally {
            gate.release();
        }
        synchronize();
        return new Timing(CudaEvent.elapsedMillis(start[0], stop[0]) * 1e6 / timed, timed, true);
    }

    /** Device time per operation, how many were timed, and whether the streams were held. */
    record Timing(double nanosPerOp, int ops, boolean gated) {}

    /** Every stream of every rank. */
    List<CudaStream> allStreams() {
        List<CudaStream> all = new ArrayList<>();
        for (int r = 0; r < size(); r++) {
            all.add(copy[r]);
            all.add(compute[r]);
            all.add(send[r]);
        }
        return all;
    }

    /** Waits for all streams. */
    void synchronize() {
        for (CudaStream s : allStreams()) {
            s.synchronize();
        }
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
    }
}
