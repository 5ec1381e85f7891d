package io.p2pbench.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lending of kept handles behind stream reuse and kept NCCL communicators, with stand-in handles. */
class KeptHandlesTest {
    private final List<String> destroyed = new ArrayList<>();
    private final KeptHandles<Integer, String> kept = new KeptHandles<>("stand-in", (k, h) -> destroyed.add(k + ":" + h));

    @Test
    void offKeepsNothing() {
        assertNull(kept.take(0));
        assertNull(kept.keep(0, "a"));
        assertEquals(0, kept.count());
    }

    @Test
    void handlesComeBackInTheOrderTheyWereMadePerKey() {
        kept.turn(true);
        KeptHandles.Slot<String> a = kept.keep(0, "a");
        KeptHandles.Slot<String> b = kept.keep(0, "b");
        KeptHandles.Slot<String> c = kept.keep(1, "c");
        assertNull(kept.take(0), "both of key 0 are lent out");
        assertTrue(kept.giveBack(0, b, true));
        assertTrue(kept.giveBack(0, a, true));
        assertTrue(kept.giveBack(1, c, true));
        // A later owner asking twice for key 0 gets a then b, as the first owner made them.
        assertSame(a, kept.take(0));
        assertSame(b, kept.take(0));
        assertNull(kept.take(0));
        assertSame(c, kept.take(1));
        assertEquals(2, kept.count(0));
        assertEquals(3, kept.count());
        assertTrue(destroyed.isEmpty());
    }

    @Test
    void anUnhealthyHandleIsForgottenForItsOwnerToDestroy() {
        kept.turn(true);
        KeptHandles.Slot<String> a = kept.keep(0, "a");
        assertFalse(kept.giveBack(0, a, false));
        assertEquals(0, kept.count());
        assertNull(kept.take(0));
    }

    @Test
    void destroyingIdleHandlesLeavesLentOnesAndSaysSo() {
        kept.turn(true);
        KeptHandles.Slot<String> a = kept.keep(0, "a");
        kept.keep(0, "b");
        kept.giveBack(0, a, true);
        IllegalStateException e = assertThrows(IllegalStateException.class, kept::destroyIdle);
        assertTrue(e.getMessage().contains("1 kept stand-in(s) still open"), e.getMessage());
        assertEquals(List.of("0:a"), destroyed);
        assertEquals(1, kept.count());
    }

    @Test
    void turningOffDestroysIdleHandlesAndLentOnesAreNotKeptWhenTheyComeBack() {
        kept.turn(true);
        KeptHandles.Slot<String> a = kept.keep(0, "a");
        KeptHandles.Slot<String> b = kept.keep(0, "b");
        kept.giveBack(0, a, true);
        assertThrows(IllegalStateException.class, () -> kept.turn(false));
        assertEquals(List.of("0:a"), destroyed);
        assertFalse(kept.giveBack(0, b, true), "keeping is off: the owner destroys it");
        assertEquals(0, kept.count());
    }

    @Test
    void everyIdleHandleIsDestroyedEvenWhenOneFails() {
        List<String> tried = new ArrayList<>();
        KeptHandles<Integer, String> failing = new KeptHandles<>("stand-in", (k, h) -> {
            tried.add(h);
            if (h.equals("a")) {
                throw new IllegalStateException("destroy failed");
            }
        });
        failing.turn(true);
        failing.giveBack(0, failing.keep(0, "a"), true);
        failing.giveBack(0, failing.keep(0, "b"), true);
        assertThrows(IllegalStateException.class, failing::destroyIdle);
        assertEquals(List.of("a", "b"), tried);
        assertEquals(0, failing.count());
    }
}
