package io.p2pbench.partition;

import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Cublas;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaGraph;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Resources;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One inference step of a model split over a group of GPUs, doing each rank's real work as a
 * serving engine's forward pass does it ({@link RankForward}: fused add-and-RMSNorm, QKV GEMM, rotary
 * and KV-cache write, flash-decoding or causal flash attention, output GEMM, SiLU-gated MLP or
 * router and batched expert GEMMs, final norm and LM head), the plan's exchanges at their
 * boundaries (TP: the suite's ring all-reduce twice per layer; PP: the residual stream copied across
 * each stage boundary, peer copy or host-staged; EP: a dispatch and a combine exchange per layer,
 * {@link Links}) and the synchronisation a framework needs (a consumer's stream waits on its
 * producer's event).
 *
 * <p>EP (expert parallel over n ranks, mixtures of experts only): attention is data parallel, as
 * serving engines run it: each rank holds every attention weight and runs attention on its share of
 * the sequences; each rank holds experts/n experts. Per layer: the rank's attention, router and
 * gather of its routed tokens into the send buffer; the dispatch, in which every rank's routed tokens
 * go to the ranks holding their experts; the rank's batched expert GEMMs on what arrived; the
 * combine, which sends the same counts back; the weighted sum of each token's experts. Both exchanges
 * start when every rank's producer is done (the wait) and move each pair's tokens by the step's
 * transport, one pair after another in a fixed order. Tokens routed to their own rank do not move.
 *
 * <p>Shapes: the step is built for a {@link StepCapacity} and runs any {@link StepBatch} within it
 * ({@link #deviceMicros}); the spec's own batch is its default ({@link #deviceMicrosPerStep},
 * {@link #breakdown}, {@link #verify}). With {@code graph}, each rank's compute between two
 * exchanges is captured once as a CUDA graph and launched as one call (SINGLE and PP: a stage's
 * whole stack of layers; TP: the attention and MLP halves of a layer; EP: the attention-and-router
 * and expert halves), for the default batch and for every decode batch size in {@code
 * decodeBuckets} (pure decode steps are padded up to the next one, as engines pad to their captured
 * sizes); other steps, the exchanges and the few per-layer pieces that differ from layer to layer
 * (embedding, EP combine, first norm of a TP or EP layer, LM head) are enqueued eagerly.
 *
 * <p>The timed steps check nothing; {@link #verify}, called between timed iterations, checks every
 * GEMM, forward kernel, boundary copy, EP move and all-reduce of the step ({@link StepVerifier}).
 */
public final class PartitionStep implements AutoCloseable {
    /** Output elements of each GEMM compared with the host reference, per rank and {@link #verify}. */
    public static final int GEMM_SAMPLES = StepVerifier.GEMM_SAMPLES;

    private final PartitionSpec spec;
    private final Group group;
    private final boolean graph;
    private final int n;
    private final BufferPlan plan;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final CudaStream[] main;
    private final RankForward[] forward;
    private final KernelTimer[] timers;
    private final StepSchedule schedule;
    private final CudaEvent start;
    private final CudaEvent stop;
    private final Links links;
    private final StepVerifier verifier;
    private final TreeMap<Integer, RingAllReduce> rings = new TreeMap<>();
    /** Graphs [rank][piece] per decode-row count of a captured decode batch. */
    private final Map<Integer, CudaGraph[][]> decodeGraphs = new HashMap<>();
    private final TreeMap<Integer, Integer> buckets = new TreeMap<>();
    private CudaGraph[][] defaultGraphs;
    private final StepGeometry defaultGeometry;
    private StepGeometry current;
    private long bytesVerified;

    /**
     * A step sized for exactly {@code spec}'s batch: allocates and fills every rank's buffers, turns
     * peer access on or off as {@code transport} says, and captures the graphs when {@code graph}.
     * The plan must divide the model.
     *
     * @param group the GPUs of the ranks; SINGLE uses its first GPU only
     */
    public PartitionStep(PartitionSpec spec, Group group, Transport transport, boolean graph, long stagingChunk) {
        this(spec, StepCapacity.of(spec), group, transport, graph, stagingChunk, new int[0], StepBatch.of(spec));
    }

    /**
     * A step for any batch within whole-step limits (a serving engine's): KV for {@code
     * maxSequences} sequences of {@code maxContext} tokens, at most {@code maxStepTokens} tokens a
     * step; with {@code graph}, decode graphs captured up front for every decode batch size in
     * {@code decodeBuckets}. Its default batch, which {@link #verify} checks, decodes and prefills a
     * chunk with cached context at once where the limits allow.
     */
    public static PartitionStep forLimits(PartitionSpec spec, int maxSequences, int maxStepTokens, int maxContext,
                                          Group group, Transport transport, boolean graph, long stagingChunk,
                                          int[] decodeBuckets) {
        StepCapacity capacity = StepCapacity.forLimits(spec, maxSequences, maxStepTokens, maxContext);
        return new PartitionStep(spec, capacity, group, transport, graph, stagingChunk, decodeBuckets,
                checkBatch(maxSequences, maxStepTokens, maxContext));
    }

    /** A small step that has decode sequences and a prefill chunk with cached context, where the limits allow. */
    static StepBatch checkBatch(int maxSequences, int maxStepTokens, int maxContext) {
        int decode = Math.min(2, Math.min(maxSequences - 1, maxStepTokens - 1));
        int chunk = Math.max(1, Math.min(Math.min(200, maxStepTokens - decode), maxContext));
        long cached = Math.min(100, maxContext - chunk);
        long decodeContext = (long) decode * Math.min(300, maxContext);
        return new StepBatch(decode, decodeContext, 1, chunk, cached);
    }

    private PartitionStep(PartitionSpec spec, StepCapacity capacity, Group group, Transport transport, boolean graph,
                          long stagingChunk, int[] decodeBuckets, StepBatch defaultBatch) {
        Cuda.require();
        spec.requireDivides();
        Group used = spec.plan() == Plan.SINGLE ? new Group(List.of(group.device(0))) : group;
        if (used.size() != spec.ranks()) {
            throw new IllegalArgumentException("plan " + spec.plan() + " over " + spec.ranks() + " ranks does not match group '"
                    + group + "' of " + group.size());
        }
        this.spec = spec;
        this.group = used;
        this.graph = graph;
        this.n = used.size();
        this.plan = BufferPlan.of(spec, capacity);
        main = new CudaStream[n];
        forward = new RankForward[n];
        timers = new KernelTimer[n];
        try {
            for (int r = 0; r < n; r++) {
                int d = used.device(r);
                main[r] = own(new CudaStream(d));
                timers[r] = own(new KernelTimer(d));
            }
            start = own(CudaEvent.timing(used.device(0)));
            stop = own(CudaEvent.timing(used.device(0)));
            links = own(new Links(spec, used, transport, main, stagingChunk));
            for (int r = 0; r < n; r++) {
                boolean firstStage = spec.plan() != Plan.PP || r == 0;
                boolean lastStage = spec.plan() != Plan.PP || r == n - 1;
                int layers = spec.layersOfStage(spec.plan() == Plan.PP ? r : 0);
                RankBuffers b = own(new RankBuffers(plan, r, used.device(r), main[r], firstStage, lastStage, layers));
                Cublas blas = own(new Cublas(main[r]));
                forward[r] = own(new RankForward(plan, b, blas, timers[r], firstStage, lastStage));
            }
            verifier = own(new StepVerifier(spec, used, transport, forward, main, links));
            schedule = own(new StepSchedule(spec, used, main, forward, links));
            if (spec.plan() == Plan.TP && n > 1) {
                CollectivePath path = transport == Transport.HOST_STAGED ? CollectivePath.HOST_STAGED : CollectivePath.P2P;
                for (int rows : ringRows(capacity, decodeBuckets.length == 0 && defaultBatch.equals(StepBatch.of(spec)))) {
                    rings.put(rows, own(new RingAllReduce(used, spec.model().dtype(),
                            (long) rows * spec.model().hidden() * PartitionSpec.BF16, path, stagingChunk,
                            transport == Transport.P2P)));
                }
            }
            defaultGeometry = geometry(defaultBatch, false);
            for (int b : decodeBuckets) {
                if (b < 1 || b > capacity.maxSequences() * spec.ep()) {
                    throw new IllegalArgumentException("decode bucket " + b + " outside 1.." + capacity.maxSequences() * spec.ep());
                }
                buckets.put(b, b);
            }
            if (graph) {
                if (decodeBuckets.length == 0) {
                    use(defaultGeometry);
                    defaultGraphs = schedule.capture();
                }
                for (int b : buckets.keySet()) {
                    StepGeometry g = geometry(new StepBatch(b, b, 0, 0, 0), true);
                    use(g);
                    decodeGraphs.put(g.decodeRows, schedule.capture());
                }
            }
            use(defaultGeometry);
            synchronize();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Row counts of the TP all-reduces: the default step's, or powers of two up to the capacity. */
    private static List<Integer> ringRows(StepCapacity capacity, boolean exact) {
        List<Integer> rows = new ArrayList<>();
        if (exact) {
            rows.add(capacity.maxTokens());
            return rows;
        }
        for (int r = 1; ; r *= 2) {
            rows.add(r);
            if (r >= capacity.maxTokens()) {
                return rows;
            }
        }
    }

    /** The geometry of {@code batch}; a pure decode batch padded to the next captured bucket when {@code pad}. */
    private StepGeometry geometry(StepBatch batch, boolean pad) {
        return StepGeometry.of(plan, pad ? buckets.navigableKeySet() : Collections.emptyNavigableSet(), batch);
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** Makes {@code g} the geometry of the next steps: its metadata uploaded, every rank's launches set. */
    private void use(StepGeometry g) {
        if (!g.sameAs(current)) {
            RingAllReduce ring = ringFor(g);
            for (int r = 0; r < n; r++) {
                forward[r].buffers().upload(g);
                forward[r].use(g, ring == null ? null : ring.input(r), ring == null ? null : ring.output(r));
            }
        }
        current = g;
    }

    private RingAllReduce ringFor(StepGeometry g) {
        if (rings.isEmpty()) {
            return null;
        }
        var e = rings.ceilingEntry(g.tokens);
        if (e == null) {
            throw new IllegalStateException("no all-reduce for " + g.tokens + " rows");
        }
        return e.getValue();
    }

    /** The graphs for {@code g}, or null when it runs eagerly. */
    private CudaGraph[][] graphsFor(StepGeometry g, boolean eager) {
        if (!graph || eager) {
            return null;
        }
        if (g == defaultGeometry) {
            return defaultGraphs;
        }
        return g.decodeOnly() ? decodeGraphs.get(g.decodeRows) : null;
    }

    private void enqueueStep(boolean eager) {
        schedule.enqueue(graphsFor(current, eager), current, ringFor(current));
    }

    /** Device time of {@code steps} back-to-back steps of the default batch, per step, in microseconds. */
    public double deviceMicrosPerStep(int steps) {
        use(defaultGeometry);
        start.record(main[0]);
        for (int i = 0; i < steps; i++) {
            enqueueStep(false);
        }
        stop.record(main[0]);
        stop.synchronize();
        synchronize();
        return CudaEvent.elapsedMillis(start, stop) * 1000.0 / steps;
    }

    /**
     * Device time of one step of {@code batch} (whole-step counts), in microseconds: a pure decode
     * batch runs as the graph of the next captured decode size when there is one, padded to it;
     * any other step eagerly. The step's metadata is uploaded before the timed region.
     *
     * @throws IllegalArgumentException when the batch exceeds the step's capacity
     */
    public double deviceMicros(StepBatch batch) {
        use(geometry(batch, true));
        start.record(main[0]);
        enqueueStep(false);
        stop.record(main[0]);
        stop.synchronize();
        synchronize();
        return CudaEvent.elapsedMillis(start, stop) * 1000.0;
    }

    /** One step of the default batch, enqueued and waited for by the host; returns host nanoseconds. */
    public long hostNanosPerStep() {
        use(defaultGeometry);
        long t0 = System.nanoTime();
        enqueueStep(false);
        main[0].synchronize();
        return System.nanoTime() - t0;
    }

    /** One instrumented step of the default batch and where its time went (the marks' own cost is inside it). */
    public StepBreakdown breakdown() {
        return breakdown(defaultGeometry);
    }

    /** One instrumented step of {@code batch}, run eagerly, and where its time went. */
    public StepBreakdown breakdown(StepBatch batch) {
        return breakdown(geometry(batch, false));
    }

    private StepBreakdown breakdown(StepGeometry g) {
        use(g);
        schedule.instrument(true);
        try {
            start.record(main[0]);
            enqueueStep(false);
            stop.record(main[0]);
            stop.synchronize();
            synchronize();
        } finally {
            schedule.instrument(false);
        }
        double step = CudaEvent.elapsedMillis(start, stop) * 1000.0;
        double[] best = null;
        int critical = 0;
        for (int r = 0; r < n; r++) {
            double[] sums = schedule.sums(r);
            if (best == null || sums[0] + sums[1] + sums[2] > best[0] + best[1] + best[2]) {
                best = sums;
                critical = r;
            }
        }
        double accounted = best[0] + best[1] + best[2];
        return new StepBreakdown(step, best[0], best[2], best[1], step - accounted, critical);
    }

    /**
     * One eager step of the default batch with every kernel and GEMM timed on the device ({@link
     * KernelTimer}): microseconds per kind, per rank. Eager even when the step runs graphs, so the
     * figures carry no graph savings; host gaps between pieces are not counted.
     */
    public List<Map<StepKernel, Double>> kernelMicros() {
        use(defaultGeometry);
        for (KernelTimer t : timers) {
            t.start();
        }
        try {
            enqueueStep(true);
            synchronize();
        } finally {
            for (KernelTimer t : timers) {
                t.stop();
            }
        }
        List<Map<StepKernel, Double>> out = new ArrayList<>();
        for (KernelTimer t : timers) {
            out.add(t.micros());
        }
        return out;
    }

    /**
     * Checks what the step computes and moves on its default batch, outside any timed region (the
     * streams are synchronised first), and returns the bytes checked and found right by this call
     * ({@link StepVerifier}). The step's buffers hold the checks' values afterwards; its timing does
     * not depend on them.
     *
     * @throws GemmMismatchException if a GEMM output is wrong
     * @throws KernelMismatchException if a forward kernel's output is wrong
     * @throws io.p2pbench.transfer.DataMismatchException if a boundary copy or EP move is wrong
     * @throws io.p2pbench.collective.CollectiveMismatchException if an all-reduce is wrong
     */
    public long verify() {
        synchronize();
        use(defaultGeometry);
        synchronize();
        long bytes = verifier.verify(ringFor(defaultGeometry));
        synchronize();
        bytesVerified += bytes;
        return bytes;
    }

    /** Bytes checked and found right over every {@link #verify} so far. */
    public long bytesVerified() {
        return bytesVerified;
    }

    /** The plan this step runs. */
    public PartitionSpec spec() {
        return spec;
    }

    /** The decode batch sizes captured as graphs (empty without graphs). */
    public List<Integer> decodeBuckets() {
        return graph ? List.copyOf(buckets.keySet()) : List.of();
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
