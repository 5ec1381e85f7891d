package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cublas.*;
import static org.bytedeco.cuda.global.cudart.CUDA_R_16BF;

import org.bytedeco.cuda.cublas.cublasContext;
import org.bytedeco.cuda.global.cublas;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;

/**
 * A cuBLAS handle on one GPU, bound to one stream, for bfloat16 GEMMs on the tensor cores
 * ({@code cublasGemmEx}, bf16 inputs and output, {@code CUBLAS_COMPUTE_32F}).
 *
 * <p>The handle gets its own workspace ({@link #WORKSPACE_BYTES}), so that GEMMs enqueued while the
 * stream is being captured into a CUDA graph never ask cuBLAS to allocate. Scalars (alpha 1, beta 0)
 * live in host memory and are read when the call is made, so captured GEMMs keep them.
 */
public final class Cublas implements AutoCloseable {
    /** Workspace given to cuBLAS (what PyTorch gives it on Hopper). */
    public static final long WORKSPACE_BYTES = 32L << 20;

    private final int device;
    private final CudaStream stream;
    private final FloatPointer one = new FloatPointer(1).put(0, 1f);
    private final FloatPointer zero = new FloatPointer(1).put(0, 0f);
    private DeviceBuffer workspace;
    private cublasContext handle;

    /** Creates a handle on {@code stream}'s GPU that enqueues every call on {@code stream}. */
    public Cublas(CudaStream stream) {
        Cuda.require();
        this.stream = stream;
        this.device = stream.device();
        try {
            Loader.load(cublas.class);
        } catch (Throwable t) {
            throw CudaException.notAvailable("cuBLAS is not available: libcublas.so.13 was not found or did not load ("
                    + Cuda.describeLoadFailure(t) + "); add the CUDA 13 lib folder "
                    + "(/usr/local/cuda/targets/x86_64-linux/lib) to LD_LIBRARY_PATH");
        }
        Cuda.setDevice(device);
        cublasContext h = new cublasContext();
        check(cublasCreate_v2(h), "cublasCreate", "device", device);
        this.handle = h;
        try {
            workspace = new DeviceBuffer(device, WORKSPACE_BYTES);
            check(cublasSetStream_v2(h, stream.handle()), "cublasSetStream", "device", device);
            check(cublasSetWorkspace_v2(h, workspace.base(), WORKSPACE_BYTES), "cublasSetWorkspace",
                    "device", device, "bytes", WORKSPACE_BYTES);
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, this);
        }
    }

    static void check(int status, String call, Object... args) {
        if (status != CUBLAS_STATUS_SUCCESS) {
            BytePointer text = cublasGetStatusString(status);
            throw new CudaException(CudaException.Api.CUBLAS, call, Cuda.formatArgs(args), status, "cublasStatus" + status,
                    text == null ? "" : text.getString());
        }
    }

    /** The loaded cuBLAS library's version, e.g. "13.1.0" ({@code cublasGetVersion}, major*10000+minor*100+patch). */
    public String version() {
        int[] v = new int[1];
        check(cublasGetVersion_v2(live(), v), "cublasGetVersion", "device", device);
        return (v[0] / 10000) + "." + (v[0] / 100 % 100) + "." + (v[0] % 100);
    }

    /** The stream every call is enqueued on. */
    public CudaStream stream() {
        return stream;
    }

    /**
     * Enqueues {@code Y[rows x cols] = X[rows x inner] * W[inner x cols]}, all row-major bfloat16
     * (as {@code torch.matmul(X, W)}): in cuBLAS's column-major terms {@code Y^T = W^T X^T}.
     */
    public void matmulBf16(Memory x, Memory w, Memory y, int rows, int inner, int cols) {
        if ((long) rows * inner * 2 > x.bytes() || (long) inner * cols * 2 > w.bytes() || (long) rows * cols * 2 > y.bytes()) {
            throw new IllegalArgumentException("GEMM " + rows + "x" + inner + " * " + inner + "x" + cols
                    + " does not fit its buffers (" + x.bytes() + ", " + w.bytes() + ", " + y.bytes() + " bytes)");
        }
        Cuda.setDevice(device);
        int status = cublasGemmEx(live(), CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, inner, one, w.base(), CUDA_R_16BF, cols,
                x.base(), CUDA_R_16BF, inner, zero, y.base(), CUDA_R_16BF, cols, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        if (status != CUBLAS_STATUS_SUCCESS) {
            check(status, "cublasGemmEx", "device", device, "rows", rows, "inner", inner, "cols", cols);
        }
    }

    /**
     * Enqueues {@code batch} independent GEMMs in one call ({@code cublasGemmStridedBatchedEx}):
     * {@code Y_i = X_i W_i}, each operand of GEMM {@code i} following the previous one's directly in
     * its buffer (X_i at {@code i rows inner} elements, W_i at {@code i inner cols}, Y_i at
     * {@code i rows cols}). A grouped GEMM whose groups all have {@code rows} rows.
     */
    public void matmulBf16Batched(Memory x, Memory w, Memory y, int rows, int inner, int cols, int batch) {
        if (batch < 1 || (long) batch * rows * inner * 2 > x.bytes() || (long) batch * inner * cols * 2 > w.bytes()
                || (long) batch * rows * cols * 2 > y.bytes()) {
            throw new IllegalArgumentException(batch + " GEMMs " + rows + "x" + inner + " * " + inner + "x" + cols
                    + " do not fit their buffers (" + x.bytes() + ", " + w.bytes() + ", " + y.bytes() + " bytes)");
        }
        Cuda.setDevice(device);
        int status = cublasGemmStridedBatchedEx(live(), CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, inner, one, w.base(),
                CUDA_R_16BF, cols, (long) inner * cols, x.base(), CUDA_R_16BF, inner, (long) rows * inner, zero, y.base(),
                CUDA_R_16BF, cols, (long) rows * cols, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        if (status != CUBLAS_STATUS_SUCCESS) {
            check(status, "cublasGemmStridedBatchedEx", "device", device, "rows", rows, "inner", inner, "cols", cols,
                    "batch", batch);
        }
    }

    private cublasContext live() {
        if (handle == null) {
            throw new IllegalStateException("cuBLAS handle on GPU " + device + " is closed");
        }
        return handle;
    }

    @Override
    public void close() {
        try {
            if (handle != null) {
                cublasContext h = handle;
                handle = null;
                Cuda.setDevice(device);
                check(cublasDestroy_v2(h), "cublasDestroy", "device", device);
            }
        } finally {
            if (workspace != null) {
                workspace.close();
                workspace = null;
            }
            one.close();
            zero.close();
        }
    }
}
