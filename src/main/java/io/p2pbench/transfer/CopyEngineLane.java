package io.p2pbench.transfer;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
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

    /**
     * @param issuer the GPU whose stream (and copy engine) issues the copy
     * @param verifyDevice the GPU that checks the destination
     */
    CopyEngineLane(String label, Memory src, Memory dst, long bytes, int issuer, int verifyDevice, int seed) {
        super(label, bytes, issuer, verifyDevice);
        try {
            this.src = src;
            this.dst = dst;
            this.stream = own(new CudaStream(issuer));
            this.peer = src.kind() == Memory.Kind.DEVICE && dst.kind() == Memory.Kind.DEVICE
                    && src.device() != dst.device();
            fillSource(src, seed);
            verifyDestination(dst, seed);
        } catch (RuntimeException e) {
            close();
            throw e;
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
        if (peer) {
            Copies.peerAsync(dst, 0, src, 0, bytes(), stream);
        } else {
            Copies.async(dst, 0, src, 0, bytes(), stream);
        }
    }
}
