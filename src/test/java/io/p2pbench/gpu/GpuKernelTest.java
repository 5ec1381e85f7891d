package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.transfer.Pattern;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** NVRTC-compiled kernels launch and compute what their Java twins compute. */
@RequiresGpu
class GpuKernelTest {
    @Test
    void patternKernelMatchesTheJavaPatternAndTheCheckFindsOneBadWord() {
        long words = (1 << 20) + 3; // not a multiple of the block size
        long bytes = words * 4;
        int seed = 0x5eed;
        try (DeviceBuffer dev = new DeviceBuffer(0, bytes); PinnedHostBuffer host = new PinnedHostBuffer(bytes);
             DeviceBuffer counters = new DeviceBuffer(0, 16); PinnedHostBuffer result = new PinnedHostBuffer(16);
             CudaStream s = new CudaStream(0)) {
            SuiteKernels.kernel(0, "fillPattern").launch(s, SuiteKernels.gridFor(0, words, 256), 256, dev, words, seed);
            Copies.async(host, 0, dev, 0, bytes, s);
            s.synchronize();
            ByteBuffer view = host.hostView();
            for (long i = 0; i < words; i++) {
                assertEquals(Pattern.word(seed, i), view.getInt((int) (i * 4)), "word " + i);
            }
            // spoil word 777 and check that verifyPattern counts exactly it
            SuiteKernels.kernel(0, "fillWord").launch(s, 1, 32, dev.address() + 777 * 4, 1L, Pattern.POISON_WORD);
            SuiteKernels.kernel(0, "fillWord").launch(s, 1, 32, counters, 2L, 0);
            SuiteKernels.kernel(0, "fillWord").launch(s, 1, 32, counters.address() + 8, 2L, -1);
            SuiteKernels.kernel(0, "verifyPattern").launch(s, SuiteKernels.gridFor(0, words, 256), 256, dev, words,
                    seed, counters);
            Copies.async(result, 0, counters, 0, 16, s);
            s.synchronize();
            assertEquals(1L, result.hostView().getLong(0));
            assertEquals(777L, result.hostView().getLong(8));
        }
    }

    @Test
    void bfloat16SumRoundsToNearestEven() {
        // 1 + 2^-8 is a tie between 1 and 1 + 2^-7 in bfloat16; nearest-even gives 1.
        short one = (short) 0x3F80;
        short tiny = (short) 0x3B80; // 2^-8
        try (PinnedHostBuffer h = new PinnedHostBuffer(8); CudaStream s = new CudaStream(0)) {
            ByteBuffer v = h.hostView();
            v.putShort(0, one).putShort(2, tiny);
            SuiteKernels.kernel(0, "addBf16").launch(s, 1, 32, h.address() + 4, h.address(), h.address() + 2, 1L);
            s.synchronize();
            assertEquals((short) 0x3F80, v.getShort(4));
        }
    }
}
