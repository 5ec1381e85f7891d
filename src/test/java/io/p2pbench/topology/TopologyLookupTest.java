package io.p2pbench.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Pair and GPU lookups answer the same whatever order a topology lists them in; in the probe's order
 * (source-major, GPUs by index) they are the direct entries, which is what keeps planning a large
 * machine linear in its pairs (issue 25: 1000 GPUs never finished planning).
 */
class TopologyLookupTest {
    @Test
    void everyPairAndGpuIsFoundInTheProbesOrderAndInAnyOther() {
        Topology t = SyntheticTopologies.nvswitch8();
        List<PairInfo> shuffled = new ArrayList<>(t.pairs());
        Collections.shuffle(shuffled, new Random(25));
        List<GpuInfo> gpus = new ArrayList<>(t.gpus());
        Collections.reverse(gpus);
        Topology other = new Topology(t.suiteVersion(), t.capturedAt(), t.host(), gpus, shuffled, t.fingerprint(),
                t.notes());
        for (int src = 0; src < t.gpuCount(); src++) {
            assertSame(t.gpus().get(src), t.gpu(src), "direct in index order");
            assertEquals(t.gpu(src), other.gpu(src));
            for (int dst = 0; dst < t.gpuCount(); dst++) {
                PairInfo p = t.pair(src, dst).orElseThrow();
                assertSame(t.pairs().get(src * t.gpuCount() + dst), p, "direct in source-major order");
                assertEquals(src, p.src());
                assertEquals(dst, p.dst());
                assertEquals(p, other.pair(src, dst).orElseThrow());
            }
        }
        assertTrue(t.pair(0, 8).isEmpty());
        assertTrue(t.pair(-1, 0).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> t.gpu(8));
    }
}
