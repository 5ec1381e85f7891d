package io.p2pbench.transfer;

import io.p2pbench.cuda.Binding;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaException;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.PageableHostBuffer;
import io.p2pbench.cuda.PeerAccess;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.StreamGate;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.topology.GpuPair;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one transfer benchmark needs, set up once per trial: buffers, peer access, lanes,
 * the stream gate. Two measurements on top:
 * <ul>
 *   <li>{@link #measureBatch()}: device-timed bandwidth of a gated batch (see {@link BandwidthProbe});
 *   <li>{@link #transferOnce()}: one transfer per lane, enqueued and waited for by the host: the
 *       host-observed latency JMH samples.
 * </ul>
 * Verification: every batch is checked; for latency sampling, {@link #poison()} before and
 * {@link #verify()} after each iteration check the bytes of its last transfer.
 */
public final class TransferFixture implements AutoCloseable {
    /** Staging chunk for {@link CopyPath#HOST_STAGED} unless a run sets another ({@code --staging-chunk}). */
    public static final long DEFAULT_STAGING_CHUNK = 4L << 20;

    private final List<AutoCloseable> owned = new ArrayList<>();
    private final List<Lane> lanes = new ArrayList<>();
    private StreamGate gate;
    private BandwidthProbe probe;

    private TransferFixture() {}

    /**
     * A GPU-to-GPU fixture: {@code path} from {@code pair.src()} to {@code pair.dst()}, and with
     * {@code bidirectional} also the reverse at the same time, on separate streams.
     */
    public static TransferFixture peer(CopyPath path, GpuPair pair, long bytes, boolean bidirectional,
                                       long stagingChunk) {
        return peer(path, pair, bytes, bidirectional, stagingChunk, Binding.JAVACPP_RUNTIME);
    }

    /**
     * As {@link #peer(CopyPath, GpuPair, long, boolean, long)}, with the copies enqueued and waited
     * for through {@code binding}; JCuda covers the copy-engine paths only (the others are skipped).
     */
    public static TransferFixture peer(CopyPath path, GpuPair pair, long bytes, boolean bidirectional,
                                       long stagingChunk, Binding binding) {
        if (binding != Binding.JAVACPP_RUNTIME && !path.copyEngine()) {
            throw new BenchmarkSkipped(SkipCause.NOT_APPLICABLE, path + " has no " + binding.label() + " variant: the binding comparison covers "
                    + "copy-engine copies (CE_P2P_READ, CE_P2P_WRITE, CE_NO_P2P) and host-device copies");
        }
        Cuda.require();
        checkGpus(pair.src(), pair.dst());
        TransferFixture f = new TransferFixture();
        try {
            if (!pair.sameGpu()) {
                if (path.needsPeerAccess()) {
                    f.owned.add(PeerAccess.enable(pair.src(), pair.dst()));
                    f.owned.add(PeerAccess.enable(pair.dst(), pair.src()));
                } else if (path == CopyPath.CE_NO_P2P) {
                    PeerAccess.ensureDisabled(pair.src(), pair.dst());
                    PeerAccess.ensureDisabled(pair.dst(), pair.src());
                }
            }
            f.lanes.add(f.peerLane(path, pair, bytes, stagingChunk, 0x1000 + pair.src() * 16 + pair.dst(), binding));
            if (bidirectional) {
                GpuPair back = pair.reversed();
                f.lanes.add(f.peerLane(path, back, bytes, stagingChunk, 0x2000 + back.src() * 16 + back.dst(),
                        binding));
            }
            f.finish();
            return f;
        } catch (RuntimeException e) {
            throw translate(Resources.closeAfterFailure(e, f), bytes);
        }
    }

    /**
     * A host-device fixture on {@code device}: the given directions at once (one lane each), from or
     * to host memory of the given kind.
     */
    public static TransferFixture hostDevice(int device, List<HostDirection> directions, HostMemory memory,
                                             long bytes) {
        return hostDevice(device, directions, memory, bytes, Binding.JAVACPP_RUNTIME);
    }

    /** As {@link #hostDevice(int, List, HostMemory, long)}, the copies through {@code binding} (pinned memory only for JCuda). */
    public static TransferFixture hostDevice(int device, List<HostDirection> directions, HostMemory memory,
                                             long bytes, Binding binding) {
        if (binding != Binding.JAVACPP_RUNTIME && memory != HostMemory.PINNED) {
            throw new BenchmarkSkipped(SkipCause.NOT_APPLICABLE, memory + " host memory has no " + binding.label() + " variant: the binding "
                    + "comparison covers pinned host memory");
        }
        Cuda.require();
        checkGpus(device, device);
        TransferFixture f = new TransferFixture();
        try {
            for (HostDirection d : directions) {
                Memory host = f.own(memory == HostMemory.PINNED ? new PinnedHostBuffer(bytes)
                        : new PageableHostBuffer(bytes));
                Memory dev = f.own(new DeviceBuffer(device, bytes));
                int seed = d == HostDirection.H2D ? 0x3000 + device : 0x4000 + device;
                String label = d == HostDirection.H2D ? "host->GPU" + device : "GPU" + device + "->host";
                f.lanes.add(d == HostDirection.H2D
                        ? new CopyEngineLane(label, host, dev, bytes, device, device, seed, binding)
                        : new CopyEngineLane(label, dev, host, bytes, device, device, seed, binding));
            }
            f.finish();
            return f;
        } catch (RuntimeException e) {
            throw translate(Resources.closeAfterFailure(e, f), bytes);
        }
    }

    private static void checkGpus(int... gpus) {
        int count = Cuda.availability().deviceCount();
        for (int g : gpus) {
            if (g >= count) {
                throw new IllegalArgumentException("GPU " + g + " does not exist; this machine has GPUs 0.."
                        + (count - 1));
            }
        }
    }

    private static RuntimeException translate(RuntimeException e, long bytes) {
        if (e instanceof CudaException ce && ce.outOfMemory()) {
            return new BenchmarkSkipped(SkipCause.DOES_NOT_FIT, "too little memory for " + Sizes.format(bytes) + " transfers: " + ce.getMessage());
        }
        if (e instanceof CudaException ce && ce.peerAccessUnsupported()) {
            return new BenchmarkSkipped(SkipCause.NO_PEER_ACCESS, "peer access refused by the driver: " + ce.getMessage());
        }
        return e;
    }

    private Lane peerLane(CopyPath path, GpuPair p, long bytes, long stagingChunk, int seed, Binding binding) {
        Memory src = own(new DeviceBuffer(p.src(), bytes));
        Memory dst = own(new DeviceBuffer(p.dst(), bytes));
        String label = "GPU" + p.src() + "->GPU" + p.dst();
        int issuer = path.issuingDevice(p.src(), p.dst());
        return switch (path) {
            case CE_P2P_READ, CE_P2P_WRITE, CE_NO_P2P ->
                new CopyEngineLane(label, src, dst, bytes, issuer, p.dst(), seed, binding);
            case SM_P2P_READ, SM_P2P_WRITE -> new SmCopyLane(label, src, dst, bytes, issuer, p.dst(), seed);
            case HOST_STAGED -> new StagedLane(label, src, dst, bytes, stagingChunk, seed);
        };
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    private void finish() {
        gate = new StreamGate();
        probe = new BandwidthProbe(lanes, gate);
    }

    /** Labels of the lanes, e.g. {@code [GPU0->GPU1, GPU1->GPU0]}. */
    public List<String> laneLabels() {
        return lanes.stream().map(Lane::label).toList();
    }

    /** Transfers per lane per bandwidth batch. */
    public int copiesPerBatch() {
        return probe.copies();
    }

    /** One device-timed, verified batch. */
    public BandwidthProbe.Batch measureBatch() {
        return probe.run();
    }

    /** One transfer per lane, enqueued and waited for: what a host-observed latency sample times. */
    public void transferOnce() {
        for (int i = 0; i < lanes.size(); i++) {
            lanes.get(i).enqueueTransfer();
        }
        for (int i = 0; i < lanes.size(); i++) {
            lanes.get(i).synchronizeWork();
        }
    }

    /** Poisons every destination and waits, so the next transfers are the ones {@link #verify()} sees. */
    public void poison() {
        for (Lane lane : lanes) {
            lane.poison();
        }
        for (Lane lane : lanes) {
            lane.synchronize();
        }
    }

    /** Checks every destination; throws {@link DataMismatchException} on any wrong byte. */
    public void verify() {
        for (Lane lane : lanes) {
            lane.enqueueCheck();
        }
        for (Lane lane : lanes) {
            lane.synchronize();
            lane.requireIntact();
        }
    }

    /** Bytes checked and found intact, over all lanes. */
    public long bytesVerified() {
        return lanes.stream().mapToLong(Lane::bytesVerified).sum();
    }

    /** Releases everything, gate first (so no stream stays held), then lanes, then buffers. */
    @Override
    public void close() {
        List<AutoCloseable> order = new ArrayList<>(owned); // closed last: buffers, then peer access
        order.addAll(lanes);
        if (gate != null) {
            order.add(gate); // closed first, so no stream stays held
        }
        gate = null;
        lanes.clear();
        owned.clear();
        Resources.closeReversed(order);
    }
}
