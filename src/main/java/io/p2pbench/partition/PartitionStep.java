package io.p2pbench.partition;

import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.Cublas;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaGraph;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Kernel;
import io.p2pbench.cuda.PeerAccess;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.transfer.Pattern;
import io.p2pbench.transfer.StagedCopy;
import io.p2pbench.transfer.Verifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One inference step of a model split over a group of GPUs, doing each rank's real work: its share
 * of every layer's GEMMs through cuBLAS (bf16, tensor cores), the attention stand-in reading its KV
 * bytes, the plan's exchanges at their boundaries (TP: the suite's ring all-reduce twice per layer;
 * PP: the activation copied across each stage boundary, peer copy or host-staged; EP: a dispatch and
 * a combine exchange per layer) and the synchronisation a framework needs (a consumer's stream waits
 * on its producer's event).
 *
 * <p>EP (expert parallel over n ranks, mixtures of experts only): attention is data parallel, as
 * serving engines run it: each rank holds every attention weight and runs attention on its
 * 1/n share of the batch ({@link PartitionSpec#rankTokens()}, KV for {@link
 * PartitionSpec#rankSequences()} sequences). Each rank holds experts/n experts. Per layer: the
 * rank's attention; the dispatch, in which every rank's routed tokens ({@code rankTokens x topK},
 * spread uniformly over the ranks by the activation exchange's routing, {@link
 * PartitionSpec#routedTokens()}) go to the ranks holding their experts; the rank's expert GEMMs
 * ({@link PartitionSpec#tokensPerExpert()} rows per local expert); the combine, which sends the same
 * counts back. Both exchanges start when every rank's producer is done (the wait) and move each
 * pair's tokens by the step's transport: peer copies with peer access on or off, or through pinned
 * host memory ({@link StagedCopy}), one pair after another in a fixed order. Tokens routed to their
 * own rank do not move. Not run, as small elementwise kernels: the router, the permutation of
 * tokens into the send buffer, and the top-k weighted sum after combine; every local expert's GEMMs
 * read the first rows of the receive buffer.
 *
 * <p>Weights are not the whole model: each rank cycles through a few copies of one layer's weights
 * (enough that consecutive layers never find them in L2, at least 256 MiB or every layer), and
 * likewise for the KV cache, so a step's time does not depend on the model fitting on the GPU.
 * With {@code graph}, each rank's compute between two exchanges is captured once as a CUDA graph
 * and launched as one call (SINGLE and PP: a stage's whole stack of layers; TP: the attention and
 * MLP halves of a layer; EP: the attention and expert halves); the exchanges themselves stay
 * eagerly enqueued (the ring's multi-stream, multi-GPU schedule is not captured).
 *
 * <p>The timed steps check nothing; {@link #verify}, called between timed iterations, checks the
 * step's GEMMs against a host reference, its PP boundary copies and EP dispatch and combine copies
 * word by word, and its ring all-reduce element by element.
 */
public final class PartitionStep implements AutoCloseable {
    private static final long ROTATION_BYTES = 256L << 20;
    /** Kinds of the intervals of an instrumented step. */
    private enum Kind { COMPUTE, WAIT, COMM }

    private final PartitionSpec spec;
    private final Group group;
    private final Transport transport;
    private final boolean graph;
    private final int n;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final CudaStream[] main;
    private final Cublas[] blas;
    private final Rank[] rank;
    private final CudaEvent[] handoff;
    private final CudaEvent[] done;
    private final CudaEvent start;
    private final CudaEvent stop;
    private final StagedCopy[] staged;
    /** EP, host-staged: one staged copy per ordered pair of ranks, [from][to]. */
    private final StagedCopy[][] pairs;
    /** EP: the moves of one dispatch and of one combine, in the order they are enqueued. */
    private final List<Move> dispatch = new ArrayList<>();
    private final List<Move> combine = new ArrayList<>();
    private RingAllReduce ring;
    private final List<List<CudaEvent>> marks = new ArrayList<>();
    private final List<List<Kind>> kinds = new ArrayList<>();
    private final CudaGraph[][] graphs;
    private boolean instrumented;

    /** One pair's share of an EP exchange: {@code bytes} from rank {@code from}'s {@code src} to rank {@code to}'s {@code dst}. */
    private record Move(int from, DeviceBuffer src, long srcOffset, int to, DeviceBuffer dst, long dstOffset, long bytes) {}

    /** A rank's buffers. */
    private final class Rank {
        final int index;
        final int device;
        final int layers;
        final DeviceBuffer x;
        final DeviceBuffer y;
        final DeviceBuffer qkv;
        final DeviceBuffer attn;
        final DeviceBuffer mid;
        final DeviceBuffer scores;
        final DeviceBuffer kT;
        final DeviceBuffer v;
        /** EP: routed tokens to dispatch, and what combine brings back ([rankTokens x topK] rows each). */
        final DeviceBuffer send;
        final DeviceBuffer back;
        /** EP: tokens dispatched to this rank's experts, and its experts' outputs ({@link PartitionSpec#receiveRows()} rows each). */
        final DeviceBuffer recv;
        final DeviceBuffer expertOut;
        final DeviceBuffer[][][] weights; // [set][gemm][expert]
        final Kernel.Launch[] kvRead;

        Rank(int r) {
            index = r;
            device = group.device(r);
            layers = spec.layersOfStage(spec.plan() == Plan.PP ? r : 0);
            List<GemmShape> gemms = spec.layerGemms();
            long h = spec.model().hidden();
            int rows = spec.rankTokens();
            long xRows = Math.max(rows, spec.model().experts() == 0 ? 0 : spec.tokensPerExpert());
            x = buffer(xRows * h);
            y = buffer(xRows * h);
            GemmShape qkvShape = find(gemms, "qkv");
            qkv = buffer((long) rows * qkvShape.cols());
            attn = buffer(xRows * h);
            GemmShape up = find(gemms, "gate_up");
            mid = buffer((long) up.rows() * up.cols());
            if (spec.phase() == Phase.PREFILL) {
                GemmShape s = find(gemms, "scores");
                scores = buffer((long) s.rows() * s.cols());
                kT = buffer((long) s.inner() * s.cols());
                GemmShape c = find(gemms, "context");
                v = buffer((long) c.inner() * c.cols());
            } else {
                scores = null;
                kT = null;
                v = null;
            }
            if (spec.plan() == Plan.EP) {
                long sendRows = (long) rows * spec.model().topK();
                send = buffer(sendRows * h);
                back = buffer(sendRows * h);
                recv = buffer(spec.receiveRows() * h);
                expertOut = buffer(spec.receiveRows() * h);
            } else {
                send = null;
                back = null;
                recv = null;
                expertOut = null;
            }
            int sets = (int) Math.max(1, Math.min(layers, PartitionSpec.ceilDiv(ROTATION_BYTES, spec.weightBytesPerLayer())));
            weights = new DeviceBuffer[sets][gemms.size()][];
            for (int s = 0; s < sets; s++) {
                for (int g = 0; g < gemms.size(); g++) {
                    GemmShape shape = gemms.get(g);
                    boolean weight = !shape.name().equals("scores") && !shape.name().equals("context");
                    weights[s][g] = new DeviceBuffer[weight ? shape.count() : 0];
                    for (int e = 0; e < weights[s][g].length; e++) {
                        weights[s][g][e] = buffer((long) shape.inner() * shape.cols());
                    }
                }
            }
            long kvBytes = Math.max(16, spec.kvBytesPerLayer() / 16 * 16);
            int kvSets = (int) Math.max(1, Math.min(layers, PartitionSpec.ceilDiv(ROTATION_BYTES, kvBytes)));
            DeviceBuffer sink = own(new DeviceBuffer(device, 4));
            kvRead = new Kernel.Launch[kvSets];
            Kernel read = SuiteKernels.kernel(device, "readAll16");
            for (int s = 0; s < kvSets; s++) {
                DeviceBuffer kv = own(new DeviceBuffer(device, kvBytes));
                fill(kv, kvBytes / 2, r);
                long vectors = kvBytes / 16;
                kvRead[s] = own(read.prepare(SuiteKernels.gridFor(device, vectors, SuiteKernels.BLOCK),
                        SuiteKernels.BLOCK, kv, vectors, sink, 0x9E3779B9));
            }
        }

        private DeviceBuffer buffer(long elements) {
            DeviceBuffer b = own(new DeviceBuffer(device, Math.max(2, elements) * PartitionSpec.BF16));
            fill(b, Math.max(2, elements), device);
            return b;
        }

        private void fill(DeviceBuffer b, long elements, int seed) {
            SuiteKernels.kernel(device, "fillRankBf16").launch(main[index], SuiteKernels.gridFor(device, elements,
                    SuiteKernels.BLOCK), SuiteKernels.BLOCK, b, elements, 0x5EED + seed, index);
        }
    }

    private static GemmShape find(List<GemmShape> gemms, String name) {
        return gemms.stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Allocates and fills every rank's buffers, turns peer access on or off as {@code transport}
     * says, and captures the graphs when {@code graph}. The plan must divide the model.
     *
     * @param group the GPUs of the ranks; SINGLE uses its first GPU only
     */
    public PartitionStep(PartitionSpec spec, Group group, Transport transport, boolean graph, long stagingChunk) {
        Cuda.require();
        spec.requireDivides();
        Group used = spec.plan() == Plan.SINGLE ? new Group(List.of(group.device(0))) : group;
        if (used.size() != spec.ranks()) {
            throw new IllegalArgumentException("plan " + spec.plan() + " over " + spec.ranks() + " ranks does not match group '"
                    + group + "' of " + group.size());
        }
        this.spec = spec;
        this.group = used;
        this.transport = transport;
        this.graph = graph;
        this.n = used.size();
        main = new CudaStream[n];
        blas = new Cublas[n];
        rank = new Rank[n];
        handoff = new CudaEvent[n];
        done = new CudaEvent[n];
        staged = new StagedCopy[n];
        pairs = new StagedCopy[n][n];
        graphs = new CudaGraph[n][];
        try {
            for (int r = 0; r < n; r++) {
                int d = used.device(r);
                main[r] = own(new CudaStream(d));
                blas[r] = own(new Cublas(main[r]));
                handoff[r] = own(CudaEvent.ordering(d));
                done[r] = own(CudaEvent.ordering(d));
                marks.add(new ArrayList<>());
                kinds.add(new ArrayList<>());
            }
            start = own(CudaEvent.timing(used.device(0)));
            stop = own(CudaEvent.timing(used.device(0)));
            setUpLinks(stagingChunk);
            for (int r = 0; r < n; r++) {
                rank[r] = new Rank(r);
            }
            if (spec.plan() == Plan.EP) {
                setUpExpertMoves();
            }
            if (spec.plan() == Plan.TP && n > 1) {
                CollectivePath path = transport == Transport.HOST_STAGED ? CollectivePath.HOST_STAGED : CollectivePath.P2P;
                ring = own(new RingAllReduce(used, spec.model().dtype(), spec.activationBytes(), path, stagingChunk,
                        transport == Transport.P2P));
            }
            if (graph) {
                captureGraphs();
            }
            synchronize();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void setUpLinks(long stagingChunk) {
        int[] devices = group.distinctDevices();
        for (int a : devices) {
            for (int b : devices) {
                if (a == b) {
                    continue;
                }
                if (transport == Transport.P2P) {
                    own(PeerAccess.enable(a, b));
                } else if (transport == Transport.P2P_OFF) {
                    PeerAccess.ensureDisabled(a, b);
                }
            }
        }
        if (spec.plan() == Plan.PP && transport == Transport.HOST_STAGED) {
            for (int s = 1; s < n; s++) {
                staged[s] = own(new StagedCopy(group.device(s - 1), group.device(s), stagingChunk));
            }
        }
        if (spec.plan() == Plan.EP && transport == Transport.HOST_STAGED) {
            for (int from = 0; from < n; from++) {
                for (int to = 0; to < n; to++) {
                    if (from != to) {
                        pairs[from][to] = own(new StagedCopy(group.device(from), group.device(to), stagingChunk));
                    }
                }
            }
        }
    }

    /**
     * Lays out the EP exchanges: rank s's send buffer holds its routed tokens grouped by destination
     * rank, rank d's receive buffer holds what it receives grouped by source rank; combine moves each
     * region back from the expert outputs (same layout as the receive buffer) into the sender's back
     * buffer (same layout as its send buffer). Regions of tokens that stay on their rank are reserved
     * but not moved.
     */
    private void setUpExpertMoves() {
        long[][] counts = spec.routedTokens();
        long tokenBytes = (long) spec.model().hidden() * PartitionSpec.BF16;
        long[][] sendAt = new long[n][n];
        long[][] recvAt = new long[n][n];
        for (int s = 0; s < n; s++) {
            long off = 0;
            for (int d = 0; d < n; d++) {
                sendAt[s][d] = off;
                off += counts[s][d] * tokenBytes;
            }
        }
        for (int d = 0; d < n; d++) {
            long off = 0;
            for (int s = 0; s < n; s++) {
                recvAt[s][d] = off;
                off += counts[s][d] * tokenBytes;
            }
        }
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < n; d++) {
                long bytes = counts[s][d] * tokenBytes;
                if (s == d || bytes == 0) {
                    continue;
                }
                dispatch.add(new Move(s, rank[s].send, sendAt[s][d], d, rank[d].recv, recvAt[s][d], bytes));
                combine.add(new Move(d, rank[d].expertOut, recvAt[s][d], s, rank[s].back, sendAt[s][d], bytes));
            }
        }
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    private void captureGraphs() {
        for (int r = 0; r < n; r++) {
            int rr = r;
            if (spec.plan() == Plan.TP || spec.plan() == Plan.EP) {
                // one graph per half-layer and rotation slot, so graphs cycle through weights and KV as eager steps do
                int slots = rotation(r);
                graphs[r] = new CudaGraph[2 * slots];
                for (int l = 0; l < slots; l++) {
                    int ll = l;
                    graphs[r][2 * l] = own(CudaGraph.capture(main[r], () -> attention(rr, ll)));
                    graphs[r][2 * l + 1] = own(CudaGraph.capture(main[r], () -> mlp(rr, ll)));
                }
            } else {
                graphs[r] = new CudaGraph[] {own(CudaGraph.capture(main[r], () -> {
                    for (int l = 0; l < rank[rr].layers; l++) {
                        attention(rr, l);
                        mlp(rr, l);
                    }
                }))};
            }
        }
    }

    private int rotation(int r) {
        return Math.min(rank[r].layers, Math.max(rank[r].weights.length, rank[r].kvRead.length));
    }

    // ---------------------------------------------------------------- the work of one layer

    private void attention(int r, int layer) {
        Rank k = rank[r];
        List<GemmShape> gemms = spec.layerGemms();
        DeviceBuffer[][] w = k.weights[layer % k.weights.length];
        int g = 0;
        GemmShape qkv = gemms.get(g);
        blas[r].matmulBf16(k.x, w[g][0], k.qkv, qkv.rows(), qkv.inner(), qkv.cols());
        g++;
        k.kvRead[layer % k.kvRead.length].enqueue(main[r]);
        if (spec.phase() == Phase.PREFILL) {
            GemmShape s = gemms.get(g++);
            blas[r].matmulBf16(k.qkv, k.kT, k.scores, s.rows(), s.inner(), s.cols());
            GemmShape c = gemms.get(g++);
            blas[r].matmulBf16(k.scores, k.v, k.attn, c.rows(), c.inner(), c.cols());
        }
        GemmShape out = gemms.get(g);
        blas[r].matmulBf16(k.attn, w[g][0], ring != null ? ring.input(r) : k.y, out.rows(), out.inner(), out.cols());
    }

    private void mlp(int r, int layer) {
        Rank k = rank[r];
        List<GemmShape> gemms = spec.layerGemms();
        DeviceBuffer[][] w = k.weights[layer % k.weights.length];
        int g = gemms.size() - 2;
        GemmShape up = gemms.get(g);
        GemmShape down = gemms.get(g + 1);
        DeviceBuffer in = mlpIn(r);
        DeviceBuffer out = mlpOut(r);
        for (int e = 0; e < up.count(); e++) {
            blas[r].matmulBf16(in, w[g][e], k.mid, up.rows(), up.inner(), up.cols());
            blas[r].matmulBf16(k.mid, w[g + 1][e], out, down.rows(), down.inner(), down.cols());
        }
    }

    /** The MLP's input: the all-reduced attention output (TP), the dispatched tokens (EP), else the attention output. */
    private DeviceBuffer mlpIn(int r) {
        return ring != null ? ring.output(r) : spec.plan() == Plan.EP ? rank[r].recv : rank[r].y;
    }

    /** The MLP's output: the next all-reduce's input (TP), what combine sends back (EP), else the next layer's input. */
    private DeviceBuffer mlpOut(int r) {
        return ring != null ? ring.input(r) : spec.plan() == Plan.EP ? rank[r].expertOut : rank[r].x;
    }

    // ---------------------------------------------------------------- the step

    private void mark(int r, Kind kind) {
        if (!instrumented) {
            return;
        }
        List<CudaEvent> m = marks.get(r);
        int i = kinds.get(r).size();
        if (i == m.size()) {
            m.add(own(CudaEvent.timing(group.device(r))));
        }
        m.get(i).record(main[r]);
        kinds.get(r).add(kind);
    }

    private void compute(int r, int which) {
        if (graph) {
            graphs[r][which].launch(main[r]);
        }
    }

    /** Enqueues one step on every rank; {@code start} and {@code stop} bracket it on rank 0's GPU. */
    private void enqueueStep() {
        for (int r = 0; r < n; r++) {
            kinds.get(r).clear();
            if (r > 0) {
                main[r].waitFor(done[0]); // every rank begins when rank 0 does
            } else {
                done[0].record(main[0]);
            }
            mark(r, null);
        }
        switch (spec.plan()) {
            case SINGLE, PP -> enqueueStages();
            case TP, EP -> enqueueLayerByLayer();
            default -> throw new IllegalStateException(spec.plan().toString());
        }
        for (int r = 1; r < n; r++) {
            done[r].record(main[r]);
            main[0].waitFor(done[r]);
        }
    }

    private void enqueueStages() {
        for (int s = 0; s < n; s++) {
            if (s > 0) {
                main[s].waitFor(handoff[s - 1]); // the stage consumes what its producer made
                mark(s, Kind.WAIT);
                copyBoundary(s);
                mark(s, Kind.COMM);
            }
            if (graph) {
                compute(s, 0);
            } else {
                for (int l = 0; l < rank[s].layers; l++) {
                    attention(s, l);
                    mlp(s, l);
                }
            }
            mark(s, Kind.COMPUTE);
            handoff[s].record(main[s]);
        }
    }

    /** Copies stage {@code s - 1}'s output into stage {@code s}'s input, as the transport says. */
    private void copyBoundary(int s) {
        long bytes = spec.activationBytes();
        if (transport == Transport.HOST_STAGED && group.device(s - 1) != group.device(s)) {
            staged[s].enqueue(rank[s - 1].y, 0, rank[s].x, 0, bytes, main[s - 1], main[s]);
            mark(s - 1, Kind.COMM);
        } else if (transport == Transport.HOST_STAGED) {
            // one GPU: the same round trip through pinned memory, on the receiving stream
            staged[s].enqueue(rank[s - 1].y, 0, rank[s].x, 0, bytes, main[s], main[s]);
        } else if (group.device(s - 1) == group.device(s)) {
            Copies.async(rank[s].x, 0, rank[s - 1].y, 0, bytes, main[s]);
        } else {
            Copies.peerAsync(rank[s].x, 0, rank[s - 1].y, 0, bytes, main[s]);
        }
    }

    /** TP and EP: per layer, attention, an exchange (all-reduce or dispatch), the MLP, an exchange (all-reduce or combine). */
    private void enqueueLayerByLayer() {
        for (int l = 0; l < spec.model().layers(); l++) {
            for (int half = 0; half < 2; half++) {
                for (int r = 0; r < n; r++) {
                    if (graph) {
                        compute(r, 2 * (l % rotation(r)) + half);
                    } else if (half == 0) {
                        attention(r, l);
                    } else {
                        mlp(r, l);
                    }
                    mark(r, Kind.COMPUTE);
                    handoff[r].record(main[r]);
                }
                if (n == 1) {
                    continue; // one rank: nothing to exchange
                }
                for (int r = 0; r < n; r++) {
                    for (int q = 0; q < n; q++) {
                        if (q != r) {
                            main[r].waitFor(handoff[q]); // the collective starts when the slowest rank is ready
                        }
                    }
                    mark(r, Kind.WAIT);
                }
                if (ring != null) {
                    ring.enqueueAfter(handoff);
                    for (int r = 0; r < n; r++) {
                        ring.waitForResult(r, main[r]);
                        mark(r, Kind.COMM);
                    }
                } else {
                    for (Move m : half == 0 ? dispatch : combine) {
                        move(m);
                    }
                    for (int r = 0; r < n; r++) {
                        mark(r, Kind.COMM);
                    }
                }
            }
        }
    }

    /**
     * Enqueues one EP move by the step's transport, ending on the receiver's stream. Host-staged, the
     * device-to-host legs run on the sender's stream (the receiver's on one GPU, as a PP boundary
     * there). Moves are enqueued one whole move after another in one order on every stream, so the
     * staged copies' cross-stream waits cannot form a cycle.
     */
    private void move(Move m) {
        int from = m.from();
        int to = m.to();
        boolean oneGpu = group.device(from) == group.device(to);
        if (transport == Transport.HOST_STAGED) {
            pairs[from][to].enqueue(m.src(), m.srcOffset(), m.dst(), m.dstOffset(), m.bytes(),
                    oneGpu ? main[to] : main[from], main[to]);
        } else if (oneGpu) {
            Copies.async(m.dst(), m.dstOffset(), m.src(), m.srcOffset(), m.bytes(), main[to]);
        } else {
            Copies.peerAsync(m.dst(), m.dstOffset(), m.src(), m.srcOffset(), m.bytes(), main[to]);
        }
    }

    /** Device time of {@code steps} back-to-back steps, per step, in microseconds. */
    public double deviceMicrosPerStep(int steps) {
        instrumented = false;
        start.record(main[0]);
        for (int i = 0; i < steps; i++) {
            enqueueStep();
        }
        stop.record(main[0]);
        stop.synchronize();
        synchronize();
        return CudaEvent.elapsedMillis(start, stop) * 1000.0 / steps;
    }

    /** One step, enqueued and waited for by the host; returns host nanoseconds. */
    public long hostNanosPerStep() {
        instrumented = false;
        long t0 = System.nanoTime();
        enqueueStep();
        main[0].synchronize();
        return System.nanoTime() - t0;
    }

    /** One instrumented step and where its time went (the marks' own cost is inside it). */
    public StepBreakdown breakdown() {
        instrumented = true;
        try {
            start.record(main[0]);
            enqueueStep();
            stop.record(main[0]);
            stop.synchronize();
            synchronize();
        } finally {
            instrumented = false;
        }
        double step = CudaEvent.elapsedMillis(start, stop) * 1000.0;
        double[] best = null;
        int critical = 0;
        for (int r = 0; r < n; r++) {
            double[] sums = new double[3];
            List<CudaEvent> m = marks.get(r);
            List<Kind> k = kinds.get(r);
            for (int i = 1; i < k.size(); i++) {
                sums[k.get(i).ordinal()] += CudaEvent.elapsedMillis(m.get(i - 1), m.get(i)) * 1000.0;
            }
            if (best == null || sums[0] + sums[1] + sums[2] > best[0] + best[1] + best[2]) {
                best = sums;
                critical = r;
            }
        }
        double accounted = best[0] + best[1] + best[2];
        return new StepBreakdown(step, best[0], best[2], best[1], step - accounted, critical);
    }

    // ---------------------------------------------------------------- verification

    /** Output elements of each GEMM compared with the host reference, per rank and {@link #verify}. */
    public static final int GEMM_SAMPLES = 32;
    private static final long READ_PIECE = 32L << 20;
    /** The test hook {@link Verifier} also obeys: every check is first handed a wrong element. */
    private static final String CORRUPT_PROPERTY = "p2pbench.test.corrupt";
    private static final int BOUNDARY_SEED = 0x0B0D;
    private static final int GEMM_SEED = 0x7E57;
    private static final int DISPATCH_SEED = 0xD15;
    private static final int COMBINE_SEED = 0xC0B;
    private final Map<Integer, Verifier> boundaryCheck = new HashMap<>();
    private final List<Verifier> dispatchChecks = new ArrayList<>();
    private final List<Verifier> combineChecks = new ArrayList<>();
    private long bytesVerified;

    /** The three operands of one GEMM of a rank's layer, as the step passes them to cuBLAS. */
    private record Operands(GemmShape shape, DeviceBuffer x, DeviceBuffer w, DeviceBuffer y) {}

    /**
     * Checks what the step computes and moves, outside any timed region (the streams are
     * synchronised first), and returns the bytes checked and found right by this call:
     * <ul>
     *   <li>every GEMM of a layer on every rank (expert 0 of a mixture, the first set of the rotated
     *       weights), run eagerly on the rank's own cuBLAS handle with its own buffers after the
     *       activation operand is refilled with known values: {@link #GEMM_SAMPLES} output elements
     *       each against a host reference from the bf16 operands read back ({@link GemmSample}
     *       states the tolerance); the graphs replay these same calls and are not checked
     *       separately;
     *   <li>PP: every stage boundary's copy by the step's own transport, pattern in, poison out,
     *       every word checked on the receiving GPU ({@link Verifier});
     *   <li>EP: every pair's region of the dispatch and of the combine, moved by the step's own
     *       transport, pattern in, poison out, every word checked on the receiving GPU;
     *   <li>TP: the step's ring all-reduce, refilled with its reference inputs, outputs poisoned,
     *       run once and checked element by element on each GPU.
     * </ul>
     * The step's buffers hold the checks' values afterwards; its timing does not depend on them.
     *
     * @throws GemmMismatchException if a GEMM output is wrong
     * @throws io.p2pbench.transfer.DataMismatchException if a boundary copy is wrong
     * @throws io.p2pbench.collective.CollectiveMismatchException if an all-reduce is wrong
     */
    public long verify() {
        synchronize();
        long before = bytesVerified;
        try (PinnedHostBuffer host = new PinnedHostBuffer(READ_PIECE)) {
            for (int r = 0; r < n; r++) {
                for (Operands o : operands(r)) {
                    verifyGemm(r, o, host);
                }
            }
        }
        if (spec.plan() == Plan.PP) {
            for (int s = 1; s < n; s++) {
                verifyBoundary(s);
            }
        }
        if (spec.plan() == Plan.EP) {
            verifyExchange("dispatch", dispatch, dispatchChecks, DISPATCH_SEED);
            verifyExchange("combine", combine, combineChecks, COMBINE_SEED);
        }
        if (ring != null) {
            long ringBefore = ring.bytesVerified();
            ring.refill();
            ring.poison();
            ring.runOnce();
            ring.verify();
            bytesVerified += ring.bytesVerified() - ringBefore;
        }
        synchronize();
        return bytesVerified - before;
    }

    /** Bytes checked and found right over every {@link #verify} so far. */
    public long bytesVerified() {
        return bytesVerified;
    }

    private List<Operands> operands(int r) {
        Rank k = rank[r];
        List<GemmShape> gemms = spec.layerGemms();
        DeviceBuffer[][] w = k.weights[0];
        DeviceBuffer attentionOut = ring != null ? ring.input(r) : k.y;
        DeviceBuffer mlpIn = mlpIn(r);
        DeviceBuffer mlpOut = mlpOut(r);
        List<Operands> out = new ArrayList<>();
        for (int g = 0; g < gemms.size(); g++) {
            GemmShape shape = gemms.get(g);
            out.add(switch (shape.name()) {
                case "qkv" -> new Operands(shape, k.x, w[g][0], k.qkv);
                case "scores" -> new Operands(shape, k.qkv, k.kT, k.scores);
                case "context" -> new Operands(shape, k.scores, k.v, k.attn);
                case "out" -> new Operands(shape, k.attn, w[g][0], attentionOut);
                case "gate_up" -> new Operands(shape, mlpIn, w[g][0], k.mid);
                case "down" -> new Operands(shape, k.mid, w[g][0], mlpOut);
                default -> throw new IllegalStateException("no operands for GEMM " + shape);
            });
        }
        return out;
    }

    private void verifyGemm(int r, Operands o, PinnedHostBuffer host) {
        GemmShape s = o.shape();
        CudaStream stream = main[r];
        long rowBytes = (long) s.inner() * PartitionSpec.BF16;
        long colsBytes = (long) s.cols() * PartitionSpec.BF16;
        // the step's own outputs are unbounded after many layers (no normalisation): start from known values
        rank[r].fill(o.x(), (long) s.rows() * s.inner(), GEMM_SEED + r);
        Copies.memsetAsync(o.y(), Pattern.POISON_BYTE, s.rows() * colsBytes, stream);
        blas[r].matmulBf16(o.x(), o.w(), o.y(), s.rows(), s.inner(), s.cols());
        GemmSample sample = new GemmSample(s.name() + " on rank " + r + " (GPU" + group.device(r) + ")", s, GEMM_SAMPLES);
        if (Boolean.getBoolean(CORRUPT_PROPERTY)) {
            Copies.memsetAsync(o.y(), (sample.row(0) * (long) s.cols() + sample.col(0)) * PartitionSpec.BF16, 0x7F,
                    PartitionSpec.BF16, stream);
        }
        stream.synchronize();
        ByteBuffer view = host.hostView();
        for (int i = 0; i < sample.samples(); i++) {
            Copies.async(host, 0, o.x(), sample.row(i) * rowBytes, rowBytes, stream);
            stream.synchronize();
            sample.setRow(i, view);
        }
        int rowsPerPiece = (int) Math.max(1, READ_PIECE / colsBytes);
        for (int first = 0; first < s.inner(); first += rowsPerPiece) {
            int count = Math.min(rowsPerPiece, s.inner() - first);
            Copies.async(host, 0, o.w(), first * colsBytes, count * colsBytes, stream);
            stream.synchronize();
            sample.addWeightRows(first, view, count);
        }
        for (int i = 0; i < sample.samples(); i++) {
            Copies.async(host, 0, o.y(), (sample.row(i) * (long) s.cols() + sample.col(i)) * PartitionSpec.BF16,
                    PartitionSpec.BF16, stream);
            stream.synchronize();
            sample.check(i, view.getShort(0));
        }
        bytesVerified += (long) sample.samples() * PartitionSpec.BF16;
    }

    private void verifyBoundary(int s) {
        long bytes = spec.activationBytes();
        int seed = BOUNDARY_SEED + s;
        Verifier check = boundaryCheck.computeIfAbsent(s, stage -> own(new Verifier("PP boundary stage " + (s - 1) + " (GPU" + group.device(s - 1)
                    + ") -> stage " + s + " (GPU" + group.device(s) + "), " + transport, rank[s].x, bytes, seed,
                    group.device(s))));
        Verifier.fill(rank[s - 1].y, 0, bytes, seed, main[s - 1]);
        check.poison(main[s]);
        synchronize();
        copyBoundary(s);
        synchronize();
        check.enqueueCheck(main[s]);
        main[s].synchronize();
        check.requireIntact(main[s]);
        bytesVerified += bytes;
    }

    /** Checks one EP exchange: every move's source filled with its pattern, destination poisoned, moved, checked. */
    private void verifyExchange(String what, List<Move> moves, List<Verifier> checks, int seed) {
        for (int i = checks.size(); i < moves.size(); i++) {
            Move m = moves.get(i);
            checks.add(own(new Verifier("EP " + what + " rank " + m.from() + " (GPU" + group.device(m.from())
                    + ") -> rank " + m.to() + " (GPU" + group.device(m.to()) + "), " + transport, m.dst(),
                    m.dstOffset(), m.bytes(), seed + i, group.device(m.to()))));
        }
        for (int i = 0; i < moves.size(); i++) {
            Move m = moves.get(i);
            Verifier.fill(m.src(), m.srcOffset(), m.bytes(), seed + i, main[m.from()]);
            checks.get(i).poison(main[m.to()]);
        }
        synchronize();
        for (Move m : moves) {
            move(m);
        }
        synchronize();
        for (int i = 0; i < moves.size(); i++) {
            checks.get(i).enqueueCheck(main[moves.get(i).to()]);
        }
        synchronize();
        for (int i = 0; i < moves.size(); i++) {
            checks.get(i).requireIntact(main[moves.get(i).to()]);
            bytesVerified += moves.get(i).bytes();
        }
    }

    /** The plan this step runs. */
    public PartitionSpec spec() {
        return spec;
    }

    /** Exchanged bytes per step times the collective's bus factor (2(n-1)/n for the all-reduces), for bus bandwidth. */
    public double busBytesPerStep() {
        double factor = spec.plan() == Plan.TP ? 2.0 * (n - 1) / n : 1.0;
        return spec.boundariesPerStep() * spec.bytesPerBoundary() * factor;
    }

    private void synchronize() {
        for (CudaStream s : main) {
            if (s != null) {
                s.synchronize();
            }
        }
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
    }
}
