package io.p2pbench.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BatchMediansTest {
    @Test
    void medianIsTheMiddleValueOrTheMeanOfTheTwoMiddleValuesPerSeries() {
        BatchMedians m = new BatchMedians(2);
        m.add(5, 50);
        m.add(1, 10);
        m.add(3, 30);
        assertEquals(3, m.median(0));
        assertEquals(30, m.median(1));
        m.add(10, 100);
        assertEquals(4, m.median(0), "(3 + 5) / 2");
        assertEquals(1, m.min(0));
        assertEquals(100, m.max(1));
        assertEquals(4, m.count());
    }

    @Test
    void clearForgetsAndEmptyIsNaN() {
        BatchMedians m = new BatchMedians(1);
        m.add(7);
        m.clear();
        assertEquals(0, m.count());
        assertTrue(Double.isNaN(m.median(0)));
        assertTrue(Double.isNaN(m.min(0)));
        assertTrue(Double.isNaN(m.max(0)));
    }

    @Test
    void growsPastItsInitialCapacity() {
        BatchMedians m = new BatchMedians(1);
        for (int i = 1; i <= 1001; i++) {
            m.add(i);
        }
        assertEquals(1001, m.count());
        assertEquals(501, m.median(0));
        assertEquals(1001, m.max(0));
    }

    @Test
    void aBatchWithTheWrongNumberOfValuesIsRefused() {
        BatchMedians m = new BatchMedians(3);
        assertThrows(IllegalArgumentException.class, () -> m.add(1, 2));
        assertThrows(IllegalArgumentException.class, () -> new BatchMedians(0));
    }
}
