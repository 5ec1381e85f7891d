package io.p2pbench.transfer;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.Binding;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.JCudaCopy;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Resources;
import java.util.List;

/**
 * A copy-engine transfer: one cudaMemcpyPeerAsync (between two GPUs) or cudaMemcpyAsync (within a
 * GPU, or between host and device) on a stream of the issuing GPU.
 */
final class CopyEngineLane extends Lane {
    private final Memory src;
    private final Memory dst;
    private final CudaStream stream;
    private final boolean peer;
    private final JCudaCopy jcuda;

    /**
     * @param issuer the GPU whose stream (and copy engine) issues the copy
     * @param verifyDevice the GPU that checks the destination
     */
    CopyEngineLane(String label, Memory src, Memory dst, long bytes, int issuer, int verifyDevice, int seed) {
        this(label, src, dst, bytes, issuer, verifyDevice, seed, Binding.JAVACPP_RUNTIME);
    }

    /**
     * @param binding which Java binding enqueues the copy and waits for it; buffers, stream, gate
     *     and checks are the same for both
     */
    CopyEngineLane(String label, Memory src, Memory dst, long bytes, int issuer, int verifyDevice, int seed,
                   Binding binding) {
        this(label, src, dst, bytes, issuer, verifyDevice, seed, binding, true);
    }

    /**
     * @param fillSource false where the source already holds the pattern for {@code seed} and is not this lane's
     *     to write (another process's memory, mapped through CUDA IPC: {@link IpcCopy})
     */
    CopyEngineLane(String label, Memory src, Memory dst, long bytes, int issuer, int verifyDevice, int seed,
                   Binding binding, boolean fillSource) {
        super(label, bytes, issuer, verifyDevice);
        try {
            this.src = src;
            this.dst = dst;
            this.stream = own(new CudaStream(issuer));
            this.peer = src.kind() == Memory.Kind.DEVICE && dst.kind() == Memory.Kind.DEVICE
                    && src.device() != dst.device();
            this.jcuda = binding == Binding.JCUDA_DRIVER ? own(new JCudaCopy(dst, src, bytes, stream)) : null;
            if (fillSource) {
                fillSource(src, seed);
            }
            verifyDestination(dst, seed);
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, this);
        }
    }

    @Override
    List<CudaStream> workStreams() {
        return List.of(stream);
    }

    @Override
    CudaStream timingStream() {
        return stream;
    }

    @Override
    int operationsPerTransfer() {
        return 1;
    }

    @Override
    boolean gateable() {
        return src.kind() != Memory.Kind.PAGEABLE_HOST && dst.kind() != Memory.Kind.PAGEABLE_HOST;
    }

    @Override
    void enqueueTransfer() {
        if (jcuda != null) {
            jcuda.enqueue();
        } else if (peer) {
            Copies.peerAsync(dst, 0, src, 0, bytes(), stream);
        } else {
            Copies.async(dst, 0, src, 0, bytes(), stream);
        }
    }

    @Override
    void synchronizeWork() {
        if (jcuda != null) {
            jcuda.synchronize(); // cuStreamSynchronize through JCuda, on the same stream
        } else {
            stream.synchronize();
        }
    }
}
