package io.p2pbench.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CollectiveFiguresTest {
    @Test
    void aBatchHasBusBandwidthsAlgbwAndBusbwAndMicroseconds() {
        CollectiveFigures f = new CollectiveFigures();
        long bytes = 64L << 20;
        double nanos = 500_000;
        CollectiveFigures.Batch b = f.add(nanos, bytes, BusBandwidth.Operation.ALL_REDUCE.factor(8));
        assertEquals(BusBandwidth.algGbps(bytes, nanos), b.algGbps(), 1e-12);
        assertEquals(BusBandwidth.busGbps(BusBandwidth.Operation.ALL_REDUCE, 8, bytes, nanos), b.busGbps(), 1e-12);
        assertEquals(134.217728, b.algGbps(), 1e-9, "64 MiB in 500 us, decimal GB/s");
        assertEquals(134.217728 * 1.75, b.busGbps(), 1e-9, "2(n-1)/n for 8 ranks");
        assertEquals(500.0, b.timeUs(), 1e-12);
    }

    @Test
    void figuresAreMediansOverTheIterationsBatches() {
        CollectiveFigures f = new CollectiveFigures();
        f.add(1000, 1000, 1.0);
        f.add(4000, 1000, 1.0);
        f.add(2000, 1000, 1.0);
        assertEquals(3, f.count());
        assertEquals(0.5, f.algGbps(), 1e-12);
        assertEquals(2.0, f.timeUs(), 1e-12);
        f.clear();
        assertEquals(0, f.count());
        assertEquals(Double.NaN, f.busGbps());
    }

    @Test
    void modelPresetsNameTheirShapesAndRefuseUnknownNames() {
        assertEquals(ModelShape.DENSE_70B, ModelPreset.named("dense_70b").shape());
        for (ModelPreset m : ModelPreset.values()) {
            assertEquals(m.name(), m.shape().name());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelPreset.named("GPT5"));
        assertEquals("unknown model preset 'GPT5'; use DENSE_8B, DENSE_70B or MOE_8X_TOP2", e.getMessage());
    }
}
