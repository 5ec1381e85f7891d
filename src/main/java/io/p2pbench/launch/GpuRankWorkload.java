package io.p2pbench.launch;

import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.collective.BusBandwidth.Operation;
import io.p2pbench.collective.CollectiveTiming;
import io.p2pbench.collective.ProcessCollective;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.IpcMemHandle;
import io.p2pbench.cuda.Nccl.DataType;
import io.p2pbench.cuda.Nccl;
import io.p2pbench.cuda.NcclRank;
import io.p2pbench.cuda.Resources;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyProbe;
import io.p2pbench.transfer.BandwidthProbe;
import io.p2pbench.transfer.IpcCopy;
import io.p2pbench.transfer.IpcExport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A rank's measurements on its GPU: CUDA IPC copies ({@link IpcCopy}) and NCCL collectives ({@link ProcessCollective}). */
final class GpuRankWorkload implements RankWorkload {
    private final Map<String, IpcExport> exports = new HashMap<>();
    private Topology topology;
    private NcclRank world;
    private NcclRank host;

    GpuRankWorkload() {
        Cuda.require();
    }

    @Override
    public String label() {
        return "CUDA IPC and NCCL";
    }

    @Override
    public boolean testOnly() {
        return false;
    }

    @Override
    public synchronized Topology topology() {
        if (topology == null) {
            topology = TopologyProbe.probe();
        }
        return topology;
    }

    @Override
    public String ncclUnavailable() {
        String why = Nccl.unavailable();
        return why == null ? null : "NCCL is unavailable (" + why + ")";
    }

    @Override
    public byte[] export(String step, int device, long bytes, int seed) {
        IpcExport e = new IpcExport(device, bytes, seed);
        exports.put(step, e);
        return e.handle().bytes();
    }

    @Override
    public void unexport(String step) {
        IpcExport e = exports.remove(step);
        if (e != null) {
            e.close();
        }
    }

    @Override
    public Measured copyFrom(String step, String label, int device, byte[] handle, long bytes, int seed, int warmup,
                             int batches) {
        try (IpcCopy copy = new IpcCopy(label, device, IpcMemHandle.of(handle), bytes, seed)) {
            for (int i = 0; i < warmup; i++) {
                copy.measureBatch();
            }
            List<BatchSamples.Batch> out = new ArrayList<>();
            for (int i = 0; i < batches; i++) {
                BandwidthProbe.Batch b = copy.measureBatch();
                out.add(new BatchSamples.Batch(b.gated(), List.of(b.gbps(0))));
            }
            return new Measured(List.of(label), bytes, copy.copiesPerBatch(), out, copy.bytesVerified(),
                    String.format(Locale.ROOT, "%.2f GB/s (device, median)", median(out, 0)));
        }
    }

    @Override
    public void joinWorld(int device, int worldSize, int rank) {
        world = NcclRank.join(device, worldSize, rank);
    }

    @Override
    public void joinHost(int color, int key) {
        host = world().split(color, key);
    }

    private NcclRank world() {
        if (world == null) {
            throw new IllegalStateException("the NCCL communicator of the job is not open");
        }
        return world;
    }

    @Override
    public Measured collective(JobPlan.Scope scope, Operation op, DataType type, long sizeBytes, int warmup,
                               int batches) {
        NcclRank comm = scope == JobPlan.Scope.WORLD ? world() : host;
        if (comm == null) {
            throw new IllegalStateException("the NCCL communicator of this host's ranks is not open");
        }
        try (ProcessCollective c = new ProcessCollective(comm, op, type, sizeBytes)) {
            for (int i = 0; i < warmup; i++) {
                c.batch();
            }
            List<BatchSamples.Batch> out = new ArrayList<>();
            for (int i = 0; i < batches; i++) {
                CollectiveTiming t = c.batch();
                out.add(new BatchSamples.Batch(t.gated(), List.of(BusBandwidth.algGbps(sizeBytes, t.nanosPerOp()),
                        BusBandwidth.busGbps(op, comm.size(), sizeBytes, t.nanosPerOp()))));
            }
            return new Measured(List.of("algbw", "busbw"), sizeBytes, c.opsPerBatch(), out, c.bytesVerified(),
                    String.format(Locale.ROOT, "busbw %.2f GB/s, algbw %.2f GB/s (device, median, this rank)",
                            median(out, 1), median(out, 0)));
        }
    }

    static double median(List<BatchSamples.Batch> batches, int lane) {
        double[] v = batches.stream().mapToDouble(b -> b.laneGBps().get(lane)).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(exports.values());
        exports.clear();
        if (host != null) {
            all.add(host);
        }
        if (world != null) {
            all.add(world);
        }
        host = null;
        world = null;
        Resources.closeEach(all);
    }
}
