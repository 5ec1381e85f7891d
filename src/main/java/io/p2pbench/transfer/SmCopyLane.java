package io.p2pbench.transfer;

import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.Kernel;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.SuiteKernels;
import java.util.List;

/**
 * An SM transfer: a kernel on one GPU copies with 16-byte loads and stores. Where source and
 * destination are on different GPUs, one side of every access crosses the link (peer access must
 * be on for the kernel's GPU). This is how fused communication kernels (NCCL's, for one) move data.
 */
final class SmCopyLane extends Lane {
    /** Threads per block of the copy kernel. */
    static final int BLOCK = 512;
    private final CudaStream stream;
    private final Kernel.Launch launch;

    SmCopyLane(String label, Memory src, Memory dst, long bytes, int kernelDevice, int verifyDevice, int seed) {
        super(label, bytes, kernelDevice, verifyDevice);
        try {
            this.stream = own(new CudaStream(kernelDevice));
            long vectors = bytes / 16;
            int tailWords = (int) ((bytes % 16) / 4);
            long tailOffset = vectors * 16;
            int grid = (int) Math.max(1, Math.min(SuiteKernels.smCount(kernelDevice) * 4L,
                    (Math.max(vectors, tailWords) + BLOCK - 1) / BLOCK));
            this.launch = own(SuiteKernels.kernel(kernelDevice, "copy16").prepare(grid, BLOCK, dst, src, vectors,
                    dst.address() + tailOffset, src.address() + tailOffset, tailWords));
            fillSource(src, seed);
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
        return true;
    }

    @Override
    void enqueueTransfer() {
        launch.enqueue(stream);
    }
}
