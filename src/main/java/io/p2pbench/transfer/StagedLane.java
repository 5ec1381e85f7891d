package io.p2pbench.transfer;

import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Resources;
import java.util.List;

/**
 * A host-staged GPU-to-GPU transfer ({@link CopyPath#HOST_STAGED}): a {@link StagedCopy} between a
 * stream on the source GPU and one on the destination GPU.
 */
final class StagedLane extends Lane {
    private final Memory src;
    private final Memory dst;
    private final CudaStream srcStream;
    private final CudaStream dstStream;
    private final StagedCopy staged;

    StagedLane(String label, Memory src, Memory dst, long bytes, long chunkBytes, int seed) {
        super(label, bytes, dst.device(), dst.device());
        try {
            this.src = src;
            this.dst = dst;
            this.srcStream = own(new CudaStream(src.device()));
            this.dstStream = own(new CudaStream(dst.device()));
            this.staged = own(new StagedCopy(src.device(), dst.device(), Math.min(chunkBytes, bytes)));
            fillSource(src, seed);
            verifyDestination(dst, seed);
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, this);
        }
    }

    @Override
    List<CudaStream> workStreams() {
        return List.of(srcStream, dstStream);
    }

    @Override
    CudaStream timingStream() {
        return dstStream;
    }

    @Override
    int operationsPerTransfer() {
        return staged.operationsPerStream(bytes());
    }

    @Override
    boolean gateable() {
        return true;
    }

    @Override
    void enqueueTransfer() {
        staged.enqueue(src, 0, dst, 0, bytes(), srcStream, dstStream);
    }
}
