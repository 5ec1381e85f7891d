package io.p2pbench.cuda;

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

    private final String call;
    private final int code;
    private final String errorName;

    CudaException(String call, String arguments, int code, String errorName, String description) {
        super(call + "(" + arguments + ") failed: " + code + " " + errorName
                + (description == null || description.isBlank() ? "" : " (" + description + ")"));
        this.call = call;
        this.code = code;
        this.errorName = errorName;
    }

    private CudaException(String message) {
        super(message);
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
