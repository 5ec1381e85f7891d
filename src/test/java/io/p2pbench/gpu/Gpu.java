package io.p2pbench.gpu;

import io.p2pbench.cuda.Cuda;

/** Shared set-up of the GPU tests: they skip, with the reason, where CUDA cannot be used. */
final class Gpu {
    private Gpu() {}

    /** Free device memory of GPU {@code device}, in bytes. */
    static long free(int device) {
        Cuda.synchronize(device);
        return Cuda.memInfo(device)[0];
    }
}
