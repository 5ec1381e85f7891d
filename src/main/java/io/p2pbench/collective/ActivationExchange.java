package io.p2pbench.collective;

import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.transfer.Verifier;
import java.util.ArrayList;
import java.util.List;

/**
 * The activation traffic of one training or inference step of a model split across GPUs, moved by
 * the suite's copies (P2P on) or through host memory (P2P off):
 * <ul>
 *   <li>{@link Pattern#PIPELINE}: one micro-batch's [tokens x hidden] activation crosses
 *       {@code boundaries} stage boundaries one after another (rank 0 to 1, then 1 to 2, ...);
 *   <li>{@link Pattern#TENSOR}: the two all-reduces of one transformer layer over [tokens x hidden]
 *       (ring all-reduce, {@link RingAllReduce});
 *   <li>{@link Pattern#EXPERT}: expert-parallel dispatch of routed tokens to their experts' ranks,
 *       then combine back, every pair at once, with {@code skew} of them going to rank 0.
 * </ul>
 * Every moved region carries a pattern that is checked after the step.
 */
public final class ActivationExchange implements CollectiveOperation {
    /** The three ways models split across GPUs exchange activations. */
    public enum Pattern {
        /** Pipeline parallel: stage boundaries, in sequence. */
        PIPELINE,
        /** Tensor parallel: two all-reduces per layer. */
        TENSOR,
        /** Expert parallel: all-to-all dispatch and combine of routed tokens. */
        EXPERT
    }

    private final Pattern pattern;
    private final Group group;
    private final ModelShape model;
    private final Ranks ranks;
    private final List<Move> dispatch = new ArrayList<>();
    private final List<Move> combine = new ArrayList<>();
    private final List<Verifier> checks = new ArrayList<>();
    private final CudaEvent[] arrived;
    private RingAllReduce ring;
    private long bytesPerStep;
    /** One step, the same object for every batch (its CUDA graph is kept by it). */
    private final Runnable oneStep = this::enqueue;

    private record Move(int from, DeviceBuffer src, long srcOffset, int to, DeviceBuffer dst, long dstOffset, long bytes) {}

    /**
     * @param boundaries pipeline boundaries crossed (1 .. ranks-1); ignored by other patterns
     * @param skew fraction of routed tokens sent to rank 0; ignored by other patterns
     */
    public ActivationExchange(Pattern pattern, Group group, ModelShape model, CollectivePath path, int boundaries,
                              double skew, long stagingChunk) {
        Cuda.require();
        requireShape(pattern, group, model, boundaries, skew);
        this.pattern = pattern;
        this.group = group;
        this.model = model;
        int n = group.size();
        this.ranks = new Ranks(group, path, stagingChunk);
        this.arrived = new CudaEvent[n];
        try {
            for (int r = 0; r < n; r++) {
                arrived[r] = ranks.own(CudaEvent.ordering(group.device(r)));
            }
            switch (pattern) {
                case PIPELINE -> setUpPipeline(boundaries);
                case TENSOR -> {
                    ring = new RingAllReduce(group, model.dtype(), model.activationBytes(), path, stagingChunk);
                    ranks.own(ring);
                    bytesPerStep = 2 * model.activationBytes();
                }
                case EXPERT -> setUpExperts(skew);
                default -> throw new IllegalStateException(pattern.toString());
            }
            ranks.synchronize();
        } catch (RuntimeException e) {
            ranks.close();
            throw e;
        }
    }

    /** Throws {@link IllegalArgumentException} naming the problem if the pattern cannot run on the group. */
    public static void requireShape(Pattern pattern, Group group, ModelShape model, int boundaries, double skew) {
        int n = group.size();
        if (n < 2) {
            throw new IllegalArgumentException(pattern + " exchanges need at least 2 ranks; group '" + group + "' has one");
        }
        switch (pattern) {
            case PIPELINE -> {
                if (boundaries < 1 || boundaries > n - 1) {
                    throw new IllegalArgumentException("boundaries " + boundaries + " does not fit group '" + group
                            + "'; use 1.." + (n - 1));
                }
            }
            case TENSOR -> RingAllReduce.requireShape(group, model.dtype(), model.activationBytes());
            case EXPERT -> {
                if (model.experts() == 0) {
                    throw new IllegalArgumentException("model " + model.name() + " has no experts; use MOE_8X_TOP2");
                }
                if (skew < 0 || skew > 1) {
                    throw new IllegalArgumentException("skew " + skew + " is not a fraction between 0 and 1");
                }
            }
            default -> throw new IllegalStateException(pattern.toString());
        }
    }

    private void setUpPipeline(int boundaries) {
        long bytes = model.activationBytes();
        DeviceBuffer[] stage = new DeviceBuffer[boundaries + 1];
        for (int i = 0; i <= boundaries; i++) {
            stage[i] = ranks.own(new DeviceBuffer(group.device(i), bytes));
        }
        int seed = 0x7000;
        Verifier.fill(stage[0], 0, bytes, seed, ranks.compute[0]);
        for (int i = 0; i < boundaries; i++) {
            dispatch.add(new Move(i, stage[i], 0, i + 1, stage[i + 1], 0, bytes));
            checks.add(ranks.own(new Verifier("pipeline stage " + (i + 1), stage[i + 1], bytes, seed,
                    group.device(i + 1))));
        }
        bytesPerStep = bytes * boundaries;
    }

    private void setUpExperts(double skew) {
        int n = group.size();
        long[][] tokens = model.routedTokens(n, skew);
        long tb = model.tokenBytes();
        long[] sendBytes = new long[n];
        long[] recvBytes = new long[n];
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < n; d++) {
                if (s != d) {
                    sendBytes[s] += tokens[s][d] * tb;
                    recvBytes[d] += tokens[s][d] * tb;
                }
            }
        }
        DeviceBuffer[] send = new DeviceBuffer[n];
        DeviceBuffer[] recv = new DeviceBuffer[n];
        DeviceBuffer[] back = new DeviceBuffer[n];
        for (int r = 0; r < n; r++) {
            int dev = group.device(r);
            send[r] = ranks.own(new DeviceBuffer(dev, Math.max(4, sendBytes[r])));
            back[r] = ranks.own(new DeviceBuffer(dev, Math.max(4, sendBytes[r])));
            recv[r] = ranks.own(new DeviceBuffer(dev, Math.max(4, recvBytes[r])));
        }
        long[] sendOff = new long[n];
        long[] recvOff = new long[n];
        for (int s = 0; s < n; s++) {
            for (int d = 0; d < n; d++) {
                long bytes = tokens[s][d] * tb;
                if (s == d || bytes == 0) {
                    continue;
                }
                int seed = 0x8000 + s * 64 + d;
                Verifier.fill(send[s], sendOff[s], bytes, seed, ranks.compute[s]);
                dispatch.add(new Move(s, send[s], sendOff[s], d, recv[d], recvOff[d], bytes));
                combine.add(new Move(d, recv[d], recvOff[d], s, back[s], sendOff[s], bytes));
                checks.add(ranks.own(new Verifier("dispatch " + s + "->" + d, recv[d], recvOff[d], bytes, seed,
                        group.device(d))));
                checks.add(ranks.own(new Verifier("combine " + d + "->" + s, back[s], sendOff[s], bytes, seed,
                        group.device(s))));
                bytesPerStep += 2 * bytes;
                sendOff[s] += bytes;
                recvOff[d] += bytes;
            }
        }
    }

    /** Bytes that cross between ranks in one step (local tokens excluded). */
    public long bytesPerStep() {
        return bytesPerStep;
    }

    private void enqueue() {
        switch (pattern) {
            case PIPELINE -> {
                for (Move m : dispatch) {
                    if (m.from() > 0) {
                        // a stage forwards what it received
                        ranks.copy[m.to()].waitFor(arrived[m.from()]);
                        if (ranks.staged()) {
                            ranks.send[m.from()].waitFor(arrived[m.from()]);
                        }
                    }
                    ranks.move(m.from(), m.src(), m.srcOffset(), m.to(), m.dst(), m.dstOffset(), m.bytes());
                    arrived[m.to()].record(ranks.copy[m.to()]);
                }
            }
            case EXPERT -> {
                for (Move m : dispatch) {
                    ranks.move(m.from(), m.src(), m.srcOffset(), m.to(), m.dst(), m.dstOffset(), m.bytes());
                }
                ranks.barrier(); // combine sends back what dispatch delivered
                for (Move m : combine) {
                    ranks.move(m.from(), m.src(), m.srcOffset(), m.to(), m.dst(), m.dstOffset(), m.bytes());
                }
            }
            default -> throw new IllegalStateException("tensor steps are enqueued by their ring");
        }
    }

    private int operationsPerStep() {
        long biggest = dispatch.stream().mapToLong(Move::bytes).max().orElse(0);
        return switch (pattern) {
            case PIPELINE -> 3 + ranks.moveOperations(biggest);
            case TENSOR -> throw new IllegalStateException("tensor steps are timed by their ring");
            case EXPERT -> 2 * (group.size() - 1) * ranks.moveOperations(biggest) + ranks.barrierOperations();
        };
    }

    /** Device time of {@code steps} back-to-back steps (gated when they fit), per step. */
    @Override
    public CollectiveTiming time(int steps) {
        if (ring != null) {
            CollectiveTiming t = ring.time(2 * steps); // a layer is two all-reduces, back to back
            return new CollectiveTiming(2 * t.nanosPerOp(), Math.max(1, t.ops() / 2), t.gated());
        }
        Ranks.Timing t = ranks.time(oneStep, operationsPerStep(), steps);
        return new CollectiveTiming(t.nanosPerOp(), t.ops(), t.gated());
    }

    /** One step, enqueued and waited for by the host. */
    @Override
    public void runOnce() {
        if (ring != null) {
            ring.runOnce();
            ring.runOnce();
            return;
        }
        enqueue();
        ranks.barrier();
        ranks.synchronize();
    }

    /** Poisons every destination region. */
    @Override
    public void poison() {
        if (ring != null) {
            ring.poison();
            return;
        }
        for (int i = 0; i < checks.size(); i++) {
            checks.get(i).poison(ranks.copy[checkRank(i)]);
        }
        ranks.barrier();
        ranks.synchronize();
    }

    /** Checks every destination region (or the all-reduce result); throws on any wrong byte. */
    @Override
    public void verify() {
        if (ring != null) {
            ring.verify();
            return;
        }
        for (int i = 0; i < checks.size(); i++) {
            checks.get(i).enqueueCheck(ranks.copy[checkRank(i)]);
        }
        ranks.synchronize();
        for (int i = 0; i < checks.size(); i++) {
            checks.get(i).requireIntact(ranks.copy[checkRank(i)]);
        }
    }

    /** The all-reduce's CPU reference for tensor exchanges; the pattern checks of the others are already complete. */
    @Override
    public void verifyOnHost() {
        if (ring != null) {
            ring.verifyOnHost();
        }
    }

    private int checkRank(int i) {
        return switch (pattern) {
            case PIPELINE -> i + 1;
            case EXPERT -> {
                Move m = i % 2 == 0 ? dispatch.get(i / 2) : combine.get(i / 2);
                yield m.to();
            }
            case TENSOR -> 0;
        };
    }

    @Override
    public long bytesVerified() {
        if (ring != null) {
            return ring.bytesVerified();
        }
        return checks.stream().mapToLong(Verifier::bytesChecked).sum();
    }

    @Override
    public void close() {
        ranks.close();
    }
}
