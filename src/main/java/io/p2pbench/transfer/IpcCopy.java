package io.p2pbench.transfer;

import io.p2pbench.cuda.Binding;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.IpcMappedBuffer;
import io.p2pbench.cuda.IpcMemHandle;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.StreamGate;
import java.util.ArrayList;
import java.util.List;

/**
 * A copy from another process's GPU memory into this process's, through CUDA IPC, measured as the in-process
 * peer copy is ({@link TransferFixture}, path CE_P2P_READ): the reading GPU's copy engine pulls the bytes
 * ({@code cudaMemcpyAsync} from the mapped pointer), timed on the device with CUDA events while the stream is held
 * by a {@link StreamGate}, every batch's destination poisoned before and checked word by word after against the
 * {@link Pattern}. This is how vLLM's custom all-reduce and PyTorch's CUDA IPC tensors move data between worker
 * processes.
 *
 * <p>Before anything is timed, the mapped source itself is checked against the pattern the exporting process
 * wrote ({@link IpcExport}): the bytes of the other process arrived, not a fill of ours. The source is then only
 * read. Excluded from the figure: opening the handle (cudaIpcOpenMemHandle, lazy peer access), the check.
 *
 * <p>Run under {@code p2pbench run} started by a launcher (docs/multiprocess.md); on one host only.
 */
public final class IpcCopy implements AutoCloseable {
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final CopyEngineLane lane;
    private final BandwidthProbe probe;
    private final long sourceBytesVerified;

    /**
     * Maps the peer's buffer on {@code device} and sets up the copy into a buffer of this process.
     *
     * @param label how errors and results name the copy, e.g. {@code rank0->rank1}
     * @param seed the pattern seed the exporter filled with
     */
    public IpcCopy(String label, int device, IpcMemHandle handle, long bytes, int seed) {
        try {
            IpcMappedBuffer peer = own(new IpcMappedBuffer(device, handle, bytes));
            try (Verifier source = new Verifier(label + " (the exporting process's buffer, read through CUDA IPC)",
                    peer, bytes, seed, device); CudaStream s = new CudaStream(device)) {
                source.enqueueCheck(s);
                s.synchronize();
                source.requireIntact(s);
                sourceBytesVerified = source.bytesChecked();
            }
            DeviceBuffer local = own(new DeviceBuffer(device, bytes));
            lane = own(new CopyEngineLane(label, peer, local, bytes, device, device, seed,
                    Binding.JAVACPP_RUNTIME, false));
            probe = new BandwidthProbe(List.of(lane), own(new StreamGate()));
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, owned);
        }
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** Copies per batch. */
    public int copiesPerBatch() {
        return probe.copies();
    }

    /** One device-timed, verified batch. */
    public BandwidthProbe.Batch measureBatch() {
        return probe.run();
    }

    /** Bytes checked and found right: the source once, every batch's destination. */
    public long bytesVerified() {
        return sourceBytesVerified + lane.bytesVerified();
    }

    /** Unmaps the peer's buffer and frees this side's; idempotent. */
    @Override
    public void close() {
        Resources.closeReversed(owned);
        owned.clear();
    }
}
