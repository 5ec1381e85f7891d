package io.p2pbench.cuda;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one exception type of the CUDA layer. It carries the failed call, its arguments, the status
 * code and the library's own name and description of that code, so that a message reads like
 * {@code cudaMemcpyPeerAsync(dst=1, src=0, bytes=1048576) failed: 217 cudaErrorPeerAccessUnsupported
 * (peer access is not supported between these two devices)}.
 *
 * <p>{@link #code()} is {@link #NOT_AVAILABLE} when CUDA itself could not be loaded or used (no
 * driver, no visible device, runtime newer than the driver); the message then says why in one line.
 */
public final class CudaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Code used when the failure is not a status returned by a call (CUDA not loadable, no device). */
    public static final int NOT_AVAILABLE = -1;

    /**
     * Status codes after which the process's CUDA context is unusable until the process ends ("sticky" errors:
     * every later call fails with the same code): 214 ECC uncorrectable, 700 illegal address, 702 launch timeout,
     * 714 hardware stack error, 715 illegal instruction, 716 misaligned address, 717 invalid address space,
     * 718 invalid PC, 719 launch failure. The runtime and the driver API share these numbers; NCCL's and cuBLAS's
     * status codes are all below 20.
     */
    private static final Set<Integer> STICKY_CODES = Set.of(214, 700, 702, 714, 715, 716, 717, 718, 719);
    private static final AtomicReference<CudaException> FIRST_STICKY = new AtomicReference<>();

    /** Which library's status the code is: their numbers overlap (NCCL's 2 is a system error, CUDA's no memory). */
    public enum Api {
        /** The CUDA runtime or driver API (they share their error numbers). */
        CUDA,
        /** NCCL's ncclResult_t. */
        NCCL,
        /** NVRTC's nvrtcResult. */
        NVRTC,
        /** cuBLAS's cublasStatus_t. */
        CUBLAS,
        /** NVML's nvmlReturn_t. */
        NVML,
        /** No library call: CUDA could not be used at all. */
        NONE
    }

    /** cudaErrorMemoryAllocation, CUDA_ERROR_OUT_OF_MEMORY. */
    private static final int OUT_OF_MEMORY = 2;
    /** cudaErrorPeerAccessUnsupported, CUDA_ERROR_PEER_ACCESS_UNSUPPORTED. */
    private static final int PEER_ACCESS_UNSUPPORTED = 217;

    private final Api api;
    private final String call;
    private final int code;
    private final String errorName;

    /** A failed CUDA runtime or driver call. */
    CudaException(String call, String arguments, int code, String errorName, String description) {
        this(Api.CUDA, call, arguments, code, errorName, description);
    }

    /** A failed call of {@code api}. */
    CudaException(Api api, String call, String arguments, int code, String errorName, String description) {
        super(call + "(" + arguments + ") failed: " + code + " " + errorName
                + (description == null || description.isBlank() ? "" : " (" + description + ")"));
        this.api = api;
        this.call = call;
        this.code = code;
        this.errorName = errorName;
        if (sticky()) {
            FIRST_STICKY.compareAndSet(null, this);
        }
    }

    private CudaException(String message) {
        super(message);
        this.api = Api.NONE;
        this.call = "";
        this.code = NOT_AVAILABLE;
        this.errorName = "notAvailable";
    }

    /** CUDA cannot be used on this machine; {@code reason} is one line a user can act on. */
    public static CudaException notAvailable(String reason) {
        return new CudaException(reason);
    }

    /**
     * A host allocation ({@code call}: malloc) of {@code bytes} that failed: the same error name as
     * a failed cudaMalloc ({@code cudaErrorMemoryAllocation}), so callers treat both alike.
     */
    public static CudaException hostOutOfMemory(String call, long bytes) {
        return new CudaException(call, "bytes=" + bytes, 2, "cudaErrorMemoryAllocation",
                "the host has too little free memory");
    }

    /** Which library failed. */
    public Api api() {
        return api;
    }

    /** Whether a CUDA allocation (device or pinned host, or a host malloc through {@link #hostOutOfMemory}) failed. */
    public boolean outOfMemory() {
        return api == Api.CUDA && code == OUT_OF_MEMORY;
    }

    /** Whether the driver refused peer access between the two GPUs. */
    public boolean peerAccessUnsupported() {
        return api == Api.CUDA && code == PEER_ACCESS_UNSUPPORTED;
    }

    /** Whether this failure left the process's CUDA context unusable (a sticky error, {@link #STICKY_CODES}). */
    public boolean sticky() {
        return api == Api.CUDA && STICKY_CODES.contains(code);
    }

    /**
     * The first sticky failure raised in this JVM, if any, caught or not: after it, every CUDA call of the process
     * fails, so a fork group's JVM ({@code ForkGroupMain}) ends and its parent runs the rest in a new one.
     */
    public static Optional<CudaException> firstStickyInThisJvm() {
        return Optional.ofNullable(FIRST_STICKY.get());
    }

    /** The API call that failed, e.g. {@code cudaMemcpyPeerAsync}; empty for {@link #notAvailable}. */
    public String call() {
        return call;
    }

    /** The status code the call returned, or {@link #NOT_AVAILABLE}. */
    public int code() {
        return code;
    }

    /** The library's name for the code, e.g. {@code cudaErrorPeerAccessUnsupported}. */
    public String errorName() {
        return errorName;
    }
}
