package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.util.Arrays;
import org.bytedeco.cuda.cudart.cudaIpcMemHandle_t;

/**
 * The 64-byte handle {@code cudaIpcGetMemHandle} gives for a device allocation, so that another process on the
 * same host can map it ({@link IpcMappedBuffer}). A value, not a native resource: nothing is released when it is
 * dropped; the exporting process keeps the allocation alive (and frees it) itself, and must not free it while a
 * peer has it mapped.
 */
public final class IpcMemHandle {
    /** Bytes of a handle (CUDA_IPC_HANDLE_SIZE). */
    public static final int BYTES = 64;

    private final byte[] bytes;

    private IpcMemHandle(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The handle of {@code buffer}'s allocation (cudaIpcGetMemHandle on its GPU). */
    public static IpcMemHandle export(DeviceBuffer buffer) {
        Cuda.require();
        Cuda.setDevice(buffer.device());
        try (cudaIpcMemHandle_t h = new cudaIpcMemHandle_t()) {
            Cuda.check(cudaIpcGetMemHandle(h, buffer.base()), "cudaIpcGetMemHandle", "device", buffer.device(),
                    "bytes", buffer.bytes());
            byte[] out = new byte[BYTES];
            h.reserved().get(out, 0, BYTES);
            return new IpcMemHandle(out);
        }
    }

    /**
     * A handle received from another process (a file of the job folder, say): exactly {@link #BYTES} bytes.
     *
     * @throws IllegalArgumentException naming the length when it is not 64
     */
    public static IpcMemHandle of(byte[] bytes) {
        if (bytes == null || bytes.length != BYTES) {
            throw new IllegalArgumentException("a CUDA IPC memory handle has " + BYTES + " bytes, got "
                    + (bytes == null ? "none" : bytes.length));
        }
        return new IpcMemHandle(bytes.clone());
    }

    /** The handle's bytes (a copy), as they travel between processes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The native struct, for {@link IpcMappedBuffer}; the caller closes it. */
    cudaIpcMemHandle_t toNative() {
        cudaIpcMemHandle_t h = new cudaIpcMemHandle_t();
        h.reserved().put(bytes, 0, BYTES);
        return h;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpcMemHandle other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }
}
