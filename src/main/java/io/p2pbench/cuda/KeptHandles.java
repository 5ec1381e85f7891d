package io.p2pbench.cuda;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Native handles a fork group's JVM keeps between its combinations instead of destroying them (streams,
 * NCCL communicators): per key (a GPU, a GPU list), in the order they were made, each lent to one owner at
 * a time. A later combination that asks for handles in the same order as the first gets the same ones
 * back, and with them the first combination's hardware queues (docs/notes/run-overhead.md).
 *
 * <p>Off by default: then {@link #take} finds nothing and {@link #giveBack} keeps nothing, and owners make
 * and destroy their handles as before.
 *
 * @param <K> what a handle is made for
 * @param <H> the handle
 */
final class KeptHandles<K, H> {
    /** One kept handle and whether it is lent out. */
    static final class Slot<H> {
        final H handle;
        boolean inUse;

        Slot(H handle) {
            this.handle = handle;
        }
    }

    private final String what;
    private final BiConsumer<K, H> destroy;
    private final Map<K, List<Slot<H>>> byKey = new HashMap<>();
    private volatile boolean on;

    /**
     * @param what what the handles are, for messages ("CUDA stream")
     * @param destroy destroys one handle made for a key (throws on failure)
     */
    KeptHandles(String what, BiConsumer<K, H> destroy) {
        this.what = what;
        this.destroy = destroy;
    }

    /** Turns keeping on or off; off destroys the idle kept handles (lent ones when they come back). */
    void turn(boolean keep) {
        on = keep;
        if (!keep) {
            destroyIdle();
        }
    }

    /** The first idle kept handle for {@code key}, now lent out, or null (none, or keeping is off). */
    synchronized Slot<H> take(K key) {
        if (!on) {
            return null;
        }
        for (Slot<H> s : byKey.getOrDefault(key, List.of())) {
            if (!s.inUse) {
                s.inUse = true;
                return s;
            }
        }
        return null;
    }

    /** Keeps a handle just made for {@code key}, lent out to its maker; null where keeping is off. */
    synchronized Slot<H> keep(K key, H handle) {
        if (!on) {
            return null;
        }
        Slot<H> s = new Slot<>(handle);
        s.inUse = true;
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
        return s;
    }

    /**
     * Hands a lent handle back. Returns false, and forgets it, where keeping was turned off meanwhile or the
     * handle is not {@code healthy}: the caller then destroys it.
     */
    synchronized boolean giveBack(K key, Slot<H> slot, boolean healthy) {
        slot.inUse = false;
        if (on && healthy) {
            return true;
        }
        List<Slot<H>> list = byKey.get(key);
        if (list != null) {
            list.remove(slot);
        }
        return false;
    }

    /** How many handles are kept for {@code key}, lent out or not. */
    synchronized int count(K key) {
        return byKey.getOrDefault(key, List.of()).size();
    }

    /** How many handles are kept, lent out or not. */
    synchronized int count() {
        return byKey.values().stream().mapToInt(List::size).sum();
    }

    /**
     * Destroys every idle kept handle (before a context reset, which would invalidate them), each even when
     * an earlier one fails.
     *
     * @throws IllegalStateException if a kept handle is still lent out (it stays kept)
     */
    void destroyIdle() {
        List<AutoCloseable> idle = new ArrayList<>();
        int lent = 0;
        synchronized (this) {
            for (Map.Entry<K, List<Slot<H>>> e : byKey.entrySet()) {
                for (Iterator<Slot<H>> it = e.getValue().iterator(); it.hasNext(); ) {
                    Slot<H> s = it.next();
                    if (s.inUse) {
                        lent++;
                    } else {
                        K key = e.getKey();
                        idle.add(() -> destroy.accept(key, s.handle));
                        it.remove();
                    }
                }
            }
        }
        Resources.closeEach(idle);
        if (lent > 0) {
            throw new IllegalStateException(lent + " kept " + what + "(s) still open");
        }
    }
}
