package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import io.p2pbench.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/** Device memory from cudaMalloc on one GPU, freed with cudaFree. */
public final class DeviceBuffer extends Allocation {
    /**
     * Experiment (docs/notes/run-overhead.md): with {@code -Dp2pbench.deviceAllocRound=N} every allocation is
     * rounded up to a multiple of N bytes, so that small buffers do not share the driver's sub-allocated pages
     * with what an earlier trial in the same process left; 0 (the default) allocates exactly.
     */
    static final long ROUND = Settings.current().deviceAllocRoundBytes();
    /** Experiment: with {@code -Dp2pbench.debug.pointers=FILE} each allocation appends its size and address. */
    private static final Path POINTER_LOG = Settings.current().pointerLog();

    /** Allocates {@code bytes} on {@code device}. */
    public DeviceBuffer(int device, long bytes) {
        super(Kind.DEVICE, device, bytes);
        Cuda.setDevice(device);
        BytePointer p = new BytePointer();
        long allocated = ROUND > 0 ? (bytes + ROUND - 1) / ROUND * ROUND : bytes;
        Cuda.check(cudaMalloc(p, allocated), "cudaMalloc", "device", device, "bytes", allocated);
        own(p);
        if (POINTER_LOG != null) {
            logPointer(device, bytes, allocated, p.address());
        }
    }

    private static void logPointer(int device, long bytes, long allocated, long address) {
        String line = String.format(Locale.ROOT, "pid %d device %d bytes %d allocated %d address 0x%x "
                        + "offset-in-2MiB %d%n", ProcessHandle.current().pid(), device, bytes, allocated, address,
                address % (2L << 20));
        try {
            Files.writeString(POINTER_LOG, line,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    void free(Pointer allocated) {
        Cuda.setDevice(device());
        Cuda.check(cudaFree(allocated), "cudaFree", "device", device(), "bytes", bytes());
    }

    @Override
    String describe() {
        return "device buffer on GPU " + device();
    }
}
