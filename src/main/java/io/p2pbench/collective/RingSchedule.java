package io.p2pbench.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * The ring all-reduce schedule: a reduce-scatter of n-1 steps, then an all-gather of n-1 steps.
 * The buffer is cut into n chunks. In reduce-scatter step s, rank r sends chunk (r - s) mod n to
 * rank r+1, which adds it to its own copy; after n-1 steps rank r holds the complete sum of chunk
 * (r + 1) mod n. In all-gather step s, rank r passes chunk (r + 1 - s) mod n on to rank r+1, which
 * stores it. Every rank sends 2(n-1)/n of the buffer: the factor nccl-tests' busbw uses.
 */
public final class RingSchedule {
    private RingSchedule() {}

    /** Reduce-scatter (add into the receiver's chunk) or all-gather (store into it). */
    public enum Phase {
        /** The receiver adds the incoming chunk to its own. */
        REDUCE_SCATTER,
        /** The receiver stores the incoming, complete chunk. */
        ALL_GATHER
    }

    /** One chunk moving from {@code sender} to {@code (sender + 1) mod n} in a step. */
    public record Transfer(int sender, int receiver, int chunk) {}

    /**
     * One step of the ring: every rank sends one chunk at once.
     *
     * @param index the step's position in the whole schedule, 0 .. 2(n-1)-1
     */
    public record Step(Phase phase, int index, List<Transfer> transfers) {}

    /** The 2(n-1) steps for n ranks. */
    public static List<Step> steps(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("a ring needs at least 2 ranks, got " + n);
        }
        List<Step> steps = new ArrayList<>();
        for (int s = 0; s < n - 1; s++) {
            List<Transfer> t = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                t.add(new Transfer(r, (r + 1) % n, Math.floorMod(r - s, n)));
            }
            steps.add(new Step(Phase.REDUCE_SCATTER, s, t));
        }
        for (int s = 0; s < n - 1; s++) {
            List<Transfer> t = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                t.add(new Transfer(r, (r + 1) % n, Math.floorMod(r + 1 - s, n)));
            }
            steps.add(new Step(Phase.ALL_GATHER, n - 1 + s, t));
        }
        return steps;
    }

    /** The chunk rank {@code r} owns completely after the reduce-scatter. */
    public static int ownedAfterReduceScatter(int r, int n) {
        return (r + 1) % n;
    }
}
