package io.p2pbench.run;

import io.p2pbench.settings.Settings;
import io.p2pbench.spec.Combination;
import java.util.List;

/**
 * One round of a run. A run measures every transfer, collective and exchange in {@code count} rounds, one after
 * another over the whole run (round 1 of every combination, then round 2 of every combination, ...), each round
 * in JVMs of its own: fresh CUDA contexts, streams, allocations and JIT. A drift of the machine during the run
 * therefore reaches every row alike, and the spread of a row's rounds is evidence of the run-to-run noise of that
 * row on this machine, from the run itself ({@code docs/compare.md}). The preset's measurement time is shared
 * out over the rounds, so a run measures as long as a run of one round did.
 *
 * <p>Rows whose figure is drawn at a level of the CUDA context ({@link ForkGroups#drawsContextLevel}) and peer copies
 * staged through host memory up to 16 MiB are measured in more rounds than the rest ({@link ForkGroups#roundFactor}:
 * twice, small device copies four times): after round {@code count}, the later rounds measure them alone, in JVMs of
 * their own. The partition study's decode steps and requests are measured in rounds 1 to
 * {@link ForkGroups#PARTITION_DECODE_ROUNDS}, each round the preset's whole iteration time ({@link
 * ForkGroups#timeShares}); its other configurations and serving sweeps once.
 *
 * @param index 0-based, below {@link #steps(int)}
 * @param count the rounds of the run (1: a run as before rounds, with unchanged file names)
 */
public record Round(int index, int count) {
    /** Rounds of a run unless told ({@code --rounds}). */
    public static final int DEFAULT_COUNT = 4;
    /** Most rounds a run may take. */
    public static final int MAX_COUNT = 16;
    /** The round of a run without rounds. */
    public static final Round ONLY = new Round(0, 1);

    public Round {
        if (count < 1 || index < 0 || index >= steps(count)) {
            throw new IllegalArgumentException("round " + (index + 1) + " of " + count);
        }
    }

    /**
     * How many rounds a run of {@code count} rounds goes through: {@code count} times the largest {@link
     * ForkGroups#roundFactor}; the rounds after {@code count} measure only the rows that take more.
     */
    public static int steps(int count) {
        return count > 1 ? ForkGroups.MAX_ROUND_FACTOR * count : count;
    }

    /** The timing of one round: the preset's warm-up, and its measurement time divided by the rounds. */
    public static Preset.Timing timing(Preset.Timing full, int rounds) {
        return new Preset.Timing(full.warmupIterations(), full.warmupMillis(),
                (int) Math.max(1, Math.ceil(full.measurementMillis() / (double) rounds)));
    }

    /** This round's timing of a combination: its share of the preset's measurement time ({@link ForkGroups#timeShares}). */
    Preset.Timing timing(Preset.Timing full, Combination c) {
        return timing(full, ForkGroups.timeShares(c, count));
    }

    /** Whether the combination is measured in this round. */
    boolean measures(Combination c) {
        return index < ForkGroups.roundsOf(c, count);
    }

    /**
     * What the files of a combination measured in several rounds carry after their stem ({@code .r2}); nothing in a
     * run of one round, or for a combination measured once.
     */
    String suffix(Combination c) {
        return ForkGroups.roundsOf(c, count) > 1 ? ".r" + (index + 1) : "";
    }

    /**
     * JVM options of this round's benchmark JVMs: after the first round, collectives skip the CPU reference check
     * at the end of each trial (every iteration's result is still checked on the GPU, element by element, by the
     * check the first round's CPU reference has confirmed); it costs 0.2-0.5 s a combination and round.
     */
    List<String> jvmArgs() {
        return index == 0 ? List.of() : List.of("-D" + Settings.HOST_CHECK + "=false");
    }

    /** The round as a progress line names it ({@code  r2/4}), nothing where the combination has one round. */
    String label(Combination c) {
        int n = ForkGroups.roundsOf(c, count);
        return n > 1 ? " r" + (index + 1) + "/" + n : "";
    }
}
