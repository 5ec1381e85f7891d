package io.p2pbench.serving;

import java.util.SplittableRandom;

/**
 * Token counts of requests: fixed ({@code min == max}, written {@code 512}) or uniform over the whole
 * numbers {@code min..max} (written {@code 256..768}).
 *
 * @param min fewest tokens, at least 1
 * @param max most tokens, at most {@link #MAX_TOKENS}
 */
public record LengthRange(int min, int max) {
    /** Most tokens one prompt or one output may have. */
    public static final int MAX_TOKENS = 1 << 20;

    /** Checks the bounds. */
    public LengthRange {
        if (min < 1 || max < min || max > MAX_TOKENS) {
            throw new IllegalArgumentException("token range " + min + ".." + max + " is not 1 <= min <= max <= "
                    + MAX_TOKENS);
        }
    }

    /** A fixed length. */
    public static LengthRange fixed(int tokens) {
        return new LengthRange(tokens, tokens);
    }

    /** One draw. */
    public int draw(SplittableRandom random) {
        return min == max ? min : min + random.nextInt(max - min + 1);
    }

    /** The mean of a draw. */
    public double mean() {
        return (min + (double) max) / 2;
    }

    /** Parses {@code 512} or {@code 256..768}; throws naming the text and the accepted forms. */
    public static LengthRange parse(String text) {
        String t = text == null ? "" : text.strip();
        try {
            int dots = t.indexOf("..");
            if (dots < 0) {
                return fixed(Integer.parseInt(t));
            }
            return new LengthRange(Integer.parseInt(t.substring(0, dots).strip()),
                    Integer.parseInt(t.substring(dots + 2).strip()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("token range '" + text + "' is not N or MIN..MAX with 1 <= MIN <= MAX <= "
                    + MAX_TOKENS + " (e.g. 512 or 256..768)");
        }
    }

    @Override
    public String toString() {
        return min == max ? Integer.toString(min) : min + ".." + max;
    }
}
