package io.p2pbench.gpu;

import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.StreamGate;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The suite holds at most 192 operations behind the gate per stream (transfers and collectives).
 * This checks that the driver lets the host enqueue at least that many small copies onto a held
 * stream without blocking: if it did not, gated batches would end in the watchdog.
 */
@RequiresGpu
class GpuQueueDepthTest {
    @Test
    void aHeldStreamTakesAtLeast256CopiesWithoutBlockingTheHost() {
        try (DeviceBuffer a = new DeviceBuffer(0, 4096); DeviceBuffer b = new DeviceBuffer(0, 4096);
             CudaStream s = new CudaStream(0); StreamGate gate = new StreamGate(Duration.ofSeconds(5))) {
            gate.hold(s);
            for (int i = 0; i < 256; i++) {
                Copies.async(b, 0, a, 0, 4096, s);
            }
            // Throws if the watchdog had to release: an enqueue blocked the host until then. No clock is read.
            gate.release();
            s.synchronize();
        }
    }
}
