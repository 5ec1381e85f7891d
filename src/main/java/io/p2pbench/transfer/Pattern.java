package io.p2pbench.transfer;

import java.nio.ByteBuffer;
import java.util.stream.IntStream;

/**
 * The position-dependent test pattern every transfer carries: 32-bit word {@code i} of a buffer
 * filled with seed {@code s} is a hash of {@code (i, s)}, so a word copied to the wrong place, a
 * stale word from an earlier transfer, or a word never written all fail the check. No pattern word
 * equals {@link #POISON_WORD}, the value destinations are filled with before each transfer.
 *
 * <p>Must stay identical to {@code patternWord} in {@code kernels.cu}; a GPU test compares them.
 */
public final class Pattern {
    /** What destinations hold before a transfer (the byte 0xA5 repeated). */
    public static final int POISON_WORD = 0xA5A5A5A5;
    /** The poison as a byte, for memset. */
    public static final int POISON_BYTE = 0xA5;

    private Pattern() {}

    /** Word {@code index} of the pattern for {@code seed}. */
    public static int word(int seed, long index) {
        int w = fmix32((int) index * 0x9E3779B9 + seed) ^ (int) (index >>> 32);
        return w == POISON_WORD ? ~w : w;
    }

    /** MurmurHash3's 32-bit finaliser: the mixing step of every pattern and collective input. */
    public static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** Fills {@code buffer} (little-endian, from position 0 to its limit) with the pattern. */
    public static void fill(ByteBuffer buffer, int seed) {
        int words = buffer.limit() / 4;
        if (words < PARALLEL_WORDS) {
            fill(buffer, seed, 0, words);
            return;
        }
        // Host buffers reach 1 GiB: on every core (absolute puts on disjoint ranges; no shared position).
        int blocks = (words + PARALLEL_WORDS - 1) / PARALLEL_WORDS;
        IntStream.range(0, blocks).parallel().forEach(b -> fill(buffer, seed,
                b * PARALLEL_WORDS, Math.min(words, (b + 1) * PARALLEL_WORDS)));
    }

    /** Words below which a fill stays on the calling thread (1 MiB). */
    static final int PARALLEL_WORDS = 1 << 18;

    private static void fill(ByteBuffer buffer, int seed, int from, int to) {
        for (int i = from; i < to; i++) {
            buffer.putInt(i * 4, word(seed, i));
        }
    }

    /** Index of the first word of {@code buffer} that differs from the pattern, or -1. */
    public static long firstMismatch(ByteBuffer buffer, int seed) {
        int words = buffer.limit() / 4;
        for (int i = 0; i < words; i++) {
            if (buffer.getInt(i * 4) != word(seed, i)) {
                return i;
            }
        }
        return -1;
    }
}
