package io.p2pbench.partition;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaGraph;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * The order of one step's work over the ranks: each rank's forward pieces ({@link RankForward}),
 * eagerly or as captured CUDA graphs, with the plan's exchanges between them and the waits a
 * framework needs. With {@link #instrument} on, every interval of a rank's stream is marked with a
 * timing event as compute, exposed communication or wait (the step's {@link StepBreakdown}).
 */
final class StepSchedule implements AutoCloseable {
    /** Kinds of the intervals of an instrumented step. */
    enum Kind { COMPUTE, WAIT, COMM }

    private final PartitionSpec spec;
    private final Group group;
    private final int n;
    private final CudaStream[] main;
    private final RankForward[] forward;
    private final Links links;
    private final CudaEvent[] handoff;
    private final CudaEvent[] done;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final List<List<CudaEvent>> marks = new ArrayList<>();
    private final List<List<Kind>> kinds = new ArrayList<>();
    private boolean instrumented;
    private StepGeometry current;
    private RingAllReduce ring;

    StepSchedule(PartitionSpec spec, Group group, CudaStream[] main, RankForward[] forward, Links links) {
        this.spec = spec;
        this.group = group;
        this.n = group.size();
        this.main = main;
        this.forward = forward;
        this.links = links;
        handoff = new CudaEvent[n];
        done = new CudaEvent[n];
        try {
            for (int r = 0; r < n; r++) {
                handoff[r] = own(CudaEvent.ordering(group.device(r)));
                done[r] = own(CudaEvent.ordering(group.device(r)));
                marks.add(new ArrayList<>());
                kinds.add(new ArrayList<>());
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** Marks the intervals of the next steps (or stops marking). */
    void instrument(boolean on) {
        instrumented = on;
    }

    /**
     * Captures rank by rank what a step of the geometry the ranks {@link RankForward#use} runs
     * between exchanges: SINGLE and PP a stage's whole stack; TP and EP one graph per half-layer
     * and rotation slot, so graphs cycle through weights and KV as eager steps do.
     */
    CudaGraph[][] capture() {
        CudaGraph[][] out = new CudaGraph[n][];
        for (int r = 0; r < n; r++) {
            RankForward f = forward[r];
            if (spec.plan() == Plan.TP || spec.plan() == Plan.EP) {
                // one graph per half-layer and rotation slot, so graphs cycle through weights and KV as eager steps do
                int slots = rotation(r);
                out[r] = new CudaGraph[2 * slots];
                for (int l = 0; l < slots; l++) {
                    int ll = l;
                    out[r][2 * l] = own(CudaGraph.capture(main[r], () -> firstHalf(f, ll)));
                    out[r][2 * l + 1] = own(CudaGraph.capture(main[r], () -> secondHalf(f, ll)));
                }
            } else {
                int layers = layers(r);
                out[r] = new CudaGraph[] {own(CudaGraph.capture(main[r], () -> wholeStage(f, layers)))};
            }
        }
        return out;
    }

    private int layers(int r) {
        return spec.layersOfStage(spec.plan() == Plan.PP ? r : 0);
    }

    private int rotation(int r) {
        RankBuffers b = forward[r].buffers();
        return Math.min(layers(r), Math.max(b.weights.length, b.kv.length));
    }

    private static void wholeStage(RankForward f, int layers) {
        for (int l = 0; l < layers; l++) {
            f.entry(l);
            f.attention(l);
            f.mlp(l);
        }
        f.exit();
    }

    private void firstHalf(RankForward f, int layer) {
        f.attention(layer);
        if (spec.plan() == Plan.EP) {
            f.mlp(layer);
        }
    }

    private void secondHalf(RankForward f, int layer) {
        if (spec.plan() == Plan.EP) {
            f.experts(layer);
        } else {
            f.mlp(layer);
        }
    }

    // ---------------------------------------------------------------- the step

    void mark(int r, Kind kind) {
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

    /**
     * Enqueues one step of geometry {@code g} on every rank, from {@code graphs} where not null;
     * every rank starts when rank 0 does, and rank 0's stream ends when every rank is done.
     */
    void enqueue(CudaGraph[][] graphs, StepGeometry g, RingAllReduce ring) {
        current = g;
        this.ring = ring;
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
            case SINGLE, PP -> enqueueStages(graphs);
            case TP, EP -> enqueueLayerByLayer(graphs);
            default -> throw new IllegalStateException(spec.plan().toString());
        }
        for (int r = 1; r < n; r++) {
            done[r].record(main[r]);
            main[0].waitFor(done[r]);
        }
    }

    private void enqueueStages(CudaGraph[][] graphs) {
        long bytes = (long) current.tokens * spec.model().hidden() * PartitionSpec.BF16;
        for (int s = 0; s < n; s++) {
            if (s > 0) {
                main[s].waitFor(handoff[s - 1]); // the stage consumes what its producer made
                mark(s, Kind.WAIT);
                if (links.copyBoundary(s, forward[s - 1].stageOutput(), forward[s].stageInput(), bytes)) {
                    mark(s - 1, Kind.COMM);
                }
                mark(s, Kind.COMM);
            }
            if (graphs != null) {
                graphs[s][0].launch(main[s]);
            } else {
                wholeStage(forward[s], layers(s));
            }
            mark(s, Kind.COMPUTE);
            handoff[s].record(main[s]);
        }
    }

    /** TP and EP: per layer, the first half, an exchange (all-reduce or dispatch), the second half, an exchange (all-reduce or combine). */
    private void enqueueLayerByLayer(CudaGraph[][] graphs) {
        RankBuffers[] buffers = new RankBuffers[n];
        for (int r = 0; r < n; r++) {
            buffers[r] = forward[r].buffers();
        }
        Links.Exchange exchange = spec.plan() == Plan.EP && n > 1 ? links.exchange(current.tokens, buffers) : null;
        for (int l = 0; l < spec.model().layers(); l++) {
            for (int half = 0; half < 2; half++) {
                for (int r = 0; r < n; r++) {
                    if (half == 0) {
                        forward[r].entry(l);
                    }
                    if (graphs != null) {
                        graphs[r][2 * (l % rotation(r)) + half].launch(main[r]);
                    } else if (half == 0) {
                        firstHalf(forward[r], l);
                    } else {
                        secondHalf(forward[r], l);
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
                    for (Links.Move m : half == 0 ? exchange.dispatch() : exchange.combine()) {
                        links.move(m);
                    }
                    for (int r = 0; r < n; r++) {
                        mark(r, Kind.COMM);
                    }
                }
            }
        }
        for (int r = 0; r < n; r++) {
            forward[r].exit();
            mark(r, Kind.COMPUTE);
        }
    }

    /**
     * Sums of rank {@code r}'s marked intervals of the last instrumented step, microseconds,
     * indexed by {@link Kind#ordinal()}.
     */
    double[] sums(int r) {
        double[] sums = new double[Kind.values().length];
        List<CudaEvent> m = marks.get(r);
        List<Kind> k = kinds.get(r);
        for (int i = 1; i < k.size(); i++) {
            sums[k.get(i).ordinal()] += CudaEvent.elapsedMillis(m.get(i - 1), m.get(i)) * 1000.0;
        }
        return sums;
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
    }
}
