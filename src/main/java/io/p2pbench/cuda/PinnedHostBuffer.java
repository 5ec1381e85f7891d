package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.util.Arrays;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * Page-locked host memory from cudaHostAlloc, freed with cudaFreeHost; copy engines reach it by DMA.
 * With unified addressing (every 64-bit Linux system the suite supports) it is portable and mapped
 * whatever the flags: every context sees it pinned and kernels on any GPU address it in place, which
 * the verification kernels rely on. The flags are therefore a choice, not a need, and transfer
 * buffers take none, as a plain C program would: on our H200 node a 4-byte device-to-host copy into
 * memory allocated portable|mapped took about 0.8 us longer, host-observed, than into memory
 * allocated without flags (docs/notes/pinned-flags-and-d2h-latency.md).
 */
public final class PinnedHostBuffer extends Allocation {
    /** cudaHostAlloc flags. */
    public enum Flag {
        /** cudaHostAllocPortable: pinned for every CUDA context. */
        PORTABLE(cudaHostAllocPortable),
        /** cudaHostAllocMapped: mapped into the device address space. */
        MAPPED(cudaHostAllocMapped),
        /** cudaHostAllocWriteCombined: fast for the device to read, slow for the host to read. */
        WRITE_COMBINED(cudaHostAllocWriteCombined);

        private final int bits;

        Flag(int bits) {
            this.bits = bits;
        }
    }

    /** Allocates {@code bytes} of pinned memory with the given flags (none: cudaHostAllocDefault). */
    public PinnedHostBuffer(long bytes, Flag... flags) {
        super(Kind.PINNED_HOST, -1, bytes);
        int bits = cudaHostAllocDefault;
        for (Flag f : flags) {
            bits |= f.bits;
        }
        BytePointer p = new BytePointer();
        Cuda.check(cudaHostAlloc(p, bytes, bits), "cudaHostAlloc", "bytes", bytes, "flags",
                flags.length == 0 ? "default" : Arrays.toString(flags));
        own(p);
    }

    @Override
    void free(Pointer allocated) {
        Cuda.check(cudaFreeHost(allocated), "cudaFreeHost", "bytes", bytes());
    }

    @Override
    String describe() {
        return "pinned host buffer";
    }
}
