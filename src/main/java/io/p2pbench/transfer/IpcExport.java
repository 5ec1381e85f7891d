package io.p2pbench.transfer;

import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.IpcMemHandle;

/**
 * The exporting side of a copy between processes through CUDA IPC: a device buffer on this process's GPU, filled
 * with the {@link Pattern} for a seed both processes know, and its IPC handle for the importing process
 * ({@link IpcCopy}). The buffer must outlive the peer's mapping: close it only once the peer says it has unmapped.
 */
public final class IpcExport implements AutoCloseable {
    private final DeviceBuffer buffer;
    private final IpcMemHandle handle;

    /** Allocates {@code bytes} on {@code device}, fills them with the pattern for {@code seed}, and exports them. */
    public IpcExport(int device, long bytes, int seed) {
        if (bytes % 4 != 0) {
            throw new IllegalArgumentException("an IPC copy moves whole 32-bit pattern words; " + bytes
                    + " bytes is not a multiple of 4");
        }
        this.buffer = new DeviceBuffer(device, bytes);
        try (CudaStream s = new CudaStream(device)) {
            Verifier.fill(buffer, 0, bytes, seed, s);
            s.synchronize(); // the peer may read as soon as it has the handle
            this.handle = IpcMemHandle.export(buffer);
        } catch (RuntimeException e) {
            throw Resources.closeAfterFailure(e, buffer);
        }
    }

    /** The handle the importing process maps. */
    public IpcMemHandle handle() {
        return handle;
    }

    /** Bytes exported. */
    public long bytes() {
        return buffer.bytes();
    }

    /** Frees the buffer; idempotent. */
    @Override
    public void close() {
        buffer.close();
    }
}
