package io.p2pbench.partition;

import io.p2pbench.collective.Group;
import io.p2pbench.collective.RingAllReduce;
import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.Resources;
import io.p2pbench.settings.Settings;
import io.p2pbench.transfer.Pattern;
import io.p2pbench.transfer.Verifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The check behind {@link PartitionStep#verify}, outside any timed region, on the geometry the step
 * last ran: every GEMM of a layer and the LM head on every rank (the first set of the rotated
 * weights; of a batched expert GEMM the first and the last expert), run on the rank's own cuBLAS
 * handle with its own buffers after the activation operand was refilled with known values:
 * {@link #GEMM_SAMPLES} output elements each against a host reference ({@link GemmSample}); every
 * forward kernel of the rank ({@link KernelChecks}); the PP stage boundaries' copies and the EP
 * dispatch and combine moves by the step's own transport, pattern in, poison out, every word checked
 * on the receiving GPU ({@link Verifier}); the TP ring all-reduce, refilled with its reference
 * inputs, run once and checked element by element. The graphs replay these same calls and are not
 * checked separately.
 */
final class StepVerifier implements AutoCloseable {
    /** Output elements of each GEMM compared with the host reference, per rank and check. */
    static final int GEMM_SAMPLES = 32;
    private static final long READ_PIECE = 32L << 20;
    /** The test hook {@link Verifier} also obeys: every check is first handed a wrong element. */
        private static final int BOUNDARY_SEED = 0x0B0D;
    private static final int GEMM_SEED = 0x7E57;
    private static final int DISPATCH_SEED = 0xD15;
    private static final int COMBINE_SEED = 0xC0B;

    /** One GEMM as the step enqueues it: {@code count} GEMMs of {@code shape}'s rows, operands one after another. */
    private record Gemm(GemmShape shape, DeviceBuffer x, DeviceBuffer w, DeviceBuffer y, Runnable run) {}

    private final PartitionSpec spec;
    private final Group group;
    private final Transport transport;
    private final RankForward[] ranks;
    private final CudaStream[] streams;
    private final Links links;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final Map<String, Verifier> checks = new HashMap<>();

    StepVerifier(PartitionSpec spec, Group group, Transport transport, RankForward[] ranks, CudaStream[] streams,
                 Links links) {
        this.spec = spec;
        this.group = group;
        this.transport = transport;
        this.ranks = ranks;
        this.streams = streams;
        this.links = links;
    }

    /** Runs every check on the step's current geometry ({@code ring}: its TP all-reduce, else null); returns the bytes checked. */
    long verify(RingAllReduce ring) {
        long bytes = 0;
        try (PinnedHostBuffer host = new PinnedHostBuffer(READ_PIECE)) {
            for (int r = 0; r < ranks.length; r++) {
                for (Gemm gemm : gemms(ranks[r])) {
                    bytes += verifyGemm(r, gemm, host);
                }
            }
            for (int r = 0; r < ranks.length; r++) {
                bytes += new KernelChecks(ranks[r], host, "rank " + r + " (GPU" + group.device(r) + ")").run();
                streams[r].synchronize();
            }
        }
        if (spec.plan() == Plan.PP) {
            for (int s = 1; s < ranks.length; s++) {
                bytes += verifyBoundary(s);
            }
        }
        if (spec.plan() == Plan.EP) {
            RankBuffers[] buffers = new RankBuffers[ranks.length];
            for (int r = 0; r < ranks.length; r++) {
                buffers[r] = ranks[r].buffers();
            }
            Links.Exchange e = links.exchange(ranks[0].geometry().tokens, buffers);
            bytes += verifyExchange("dispatch", e.dispatch(), DISPATCH_SEED);
            bytes += verifyExchange("combine", e.combine(), COMBINE_SEED);
        }
        if (ring != null) {
            long before = ring.bytesVerified();
            ring.refill();
            ring.poison();
            ring.runOnce();
            ring.verify();
            bytes += ring.bytesVerified() - before;
        }
        return bytes;
    }

    private List<Gemm> gemms(RankForward f) {
        RankBuffers b = f.buffers();
        StepGeometry g = f.geometry();
        RankBuffers.LayerWeights w = b.weights[0];
        List<Gemm> out = new ArrayList<>();
        for (GemmShape s : spec.layerGemms(g.tokens, g.expertTokens)) {
            out.add(switch (s.name()) {
                case "qkv" -> new Gemm(s, b.nrm, w.qkv(), b.qkv, () -> f.qkvGemm(w));
                case "out" -> new Gemm(s, b.att, w.out(), f.output(), () -> f.outGemm(w));
                case "router" -> new Gemm(s, b.nrm, w.router(), b.routerLogits, () -> f.routerGemm(w));
                case "gate_up" -> plan(f).moe() ? new Gemm(s, b.expertIn, w.gateUp(), b.mid, () -> f.expertGateUpGemm(w))
                        : new Gemm(s, b.nrm, w.gateUp(), b.mid, () -> f.gateUpGemm(w));
                case "down" -> plan(f).moe() ? new Gemm(s, b.act, w.down(), b.expertOut, () -> f.expertDownGemm(w))
                        : new Gemm(s, b.act, w.down(), f.output(), () -> f.downGemm(w));
                default -> throw new IllegalStateException("no operands for GEMM " + s);
            });
        }
        if (f.lastStage()) {
            out.add(new Gemm(new GemmShape("lm_head", g.headRows, spec.model().hidden(), spec.vocabPerRank(), 1),
                    b.headIn, b.head, b.logits, f::headGemm));
        }
        return out;
    }

    private static BufferPlan plan(RankForward f) {
        return f.buffers().plan;
    }

    private long verifyGemm(int r, Gemm gemm, PinnedHostBuffer host) {
        GemmShape s = gemm.shape();
        RankBuffers b = ranks[r].buffers();
        CudaStream stream = streams[r];
        long rowBytes = (long) s.inner() * PartitionSpec.BF16;
        long colsBytes = (long) s.cols() * PartitionSpec.BF16;
        // the step's own activations are whatever the last step left: start from known values
        b.fill(gemm.x(), (long) s.rows() * s.inner() * s.count(), GEMM_SEED + r, 1f);
        Copies.memsetAsync(gemm.y(), Pattern.POISON_BYTE, (long) s.rows() * colsBytes * s.count(), stream);
        gemm.run().run();
        long bytes = 0;
        for (int e : s.count() > 1 ? new int[] {0, s.count() - 1} : new int[] {0}) {
            long xAt = (long) e * s.rows() * rowBytes;
            long wAt = (long) e * s.inner() * colsBytes;
            long yAt = (long) e * s.rows() * colsBytes;
            GemmShape one = new GemmShape(s.name(), s.rows(), s.inner(), s.cols(), 1);
            GemmSample sample = new GemmSample(s.name() + (s.count() > 1 ? " expert " + e : "") + " on rank " + r + " (GPU"
                    + group.device(r) + ")", one, GEMM_SAMPLES);
            if (Settings.current().corruptAll()) {
                Copies.memsetAsync(gemm.y(), yAt + (sample.row(0) * (long) s.cols() + sample.col(0)) * PartitionSpec.BF16,
                        0x7F, PartitionSpec.BF16, stream);
            }
            stream.synchronize();
            ByteBuffer view = host.hostView();
            for (int i = 0; i < sample.samples(); i++) {
                Copies.async(host, 0, gemm.x(), xAt + sample.row(i) * rowBytes, rowBytes, stream);
                stream.synchronize();
                sample.setRow(i, view);
            }
            int rowsPerPiece = (int) Math.max(1, READ_PIECE / colsBytes);
            for (int first = 0; first < s.inner(); first += rowsPerPiece) {
                int count = Math.min(rowsPerPiece, s.inner() - first);
                Copies.async(host, 0, gemm.w(), wAt + first * colsBytes, count * colsBytes, stream);
                stream.synchronize();
                sample.addWeightRows(first, view, count);
            }
            for (int i = 0; i < sample.samples(); i++) {
                Copies.async(host, 0, gemm.y(), yAt + (sample.row(i) * (long) s.cols() + sample.col(i)) * PartitionSpec.BF16,
                        PartitionSpec.BF16, stream);
                stream.synchronize();
                sample.check(i, view.getShort(0));
            }
            bytes += (long) sample.samples() * PartitionSpec.BF16;
        }
        return bytes;
    }

    private long verifyBoundary(int s) {
        RankForward from = ranks[s - 1];
        RankForward to = ranks[s];
        long bytes = (long) to.geometry().tokens * spec.model().hidden() * PartitionSpec.BF16;
        int seed = BOUNDARY_SEED + s;
        Verifier check = checks.computeIfAbsent("pp " + s + " " + bytes, k -> own(new Verifier("PP boundary stage " + (s - 1)
                + " (GPU" + group.device(s - 1) + ") -> stage " + s + " (GPU" + group.device(s) + "), " + transport,
                to.stageInput(), bytes, seed, group.device(s))));
        Verifier.fill(from.stageOutput(), 0, bytes, seed, streams[s - 1]);
        check.poison(streams[s]);
        synchronize();
        links.copyBoundary(s, from.stageOutput(), to.stageInput(), bytes);
        synchronize();
        check.enqueueCheck(streams[s]);
        streams[s].synchronize();
        check.requireIntact(streams[s]);
        return bytes;
    }

    /** Checks one EP exchange: every move's source filled with its pattern, destination poisoned, moved, checked. */
    private long verifyExchange(String what, List<Links.Move> moves, int seed) {
        List<Verifier> list = new ArrayList<>();
        for (int i = 0; i < moves.size(); i++) {
            Links.Move m = moves.get(i);
            int ii = i;
            list.add(checks.computeIfAbsent(what + " " + i + " " + m.dstOffset() + " " + m.bytes(), k -> own(new Verifier(
                    "EP " + what + " rank " + m.from() + " (GPU" + group.device(m.from()) + ") -> rank " + m.to() + " (GPU"
                            + group.device(m.to()) + "), " + transport, m.dst(), m.dstOffset(), m.bytes(), seed + ii,
                    group.device(m.to())))));
        }
        for (int i = 0; i < moves.size(); i++) {
            Links.Move m = moves.get(i);
            Verifier.fill(m.src(), m.srcOffset(), m.bytes(), seed + i, streams[m.from()]);
            list.get(i).poison(streams[m.to()]);
        }
        synchronize();
        for (Links.Move m : moves) {
            links.move(m);
        }
        synchronize();
        for (int i = 0; i < moves.size(); i++) {
            list.get(i).enqueueCheck(streams[moves.get(i).to()]);
        }
        synchronize();
        long bytes = 0;
        for (int i = 0; i < moves.size(); i++) {
            list.get(i).requireIntact(streams[moves.get(i).to()]);
            bytes += moves.get(i).bytes();
        }
        return bytes;
    }

    private void synchronize() {
        for (CudaStream s : streams) {
            s.synchronize();
        }
    }

    private <T extends AutoCloseable> T own(T r) {
        owned.add(r);
        return r;
    }

    @Override
    public void close() {
        Resources.closeReversed(owned);
        checks.clear();
    }
}
