package io.p2pbench.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * An ordered GPU pair, written {@code SRC-DST} (e.g. {@code 0-1}). {@code 0-0} is a device-local
 * copy: it exercises every code path on one GPU but measures no interconnect.
 */
public record GpuPair(int src, int dst) {
    /** Validates the indices. */
    public GpuPair {
        if (src < 0 || dst < 0) {
            throw new IllegalArgumentException("GPU indices must not be negative: " + src + "-" + dst);
        }
    }

    /** Parses {@code SRC-DST}; throws {@link IllegalArgumentException} naming the bad text. */
    public static GpuPair parse(String text) {
        String t = text == null ? "" : text.trim();
        if (!t.matches("\\d{1,9}-\\d{1,9}")) { // a large index is named by the range check, not called malformed
            throw new IllegalArgumentException("pair '" + text + "' is malformed; write SRC-DST with GPU indices, "
                    + "e.g. 0-1 (or 0-0 for a device-local copy)");
        }
        String[] parts = t.split("-");
        return new GpuPair(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    }

    /** Parses a comma-separated list of pairs. */
    public static List<GpuPair> parseList(String text) {
        List<GpuPair> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                out.add(parse(part));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no pairs in '" + text + "'");
        }
        return out;
    }

    /** Whether both ends are the same GPU. */
    public boolean sameGpu() {
        return src == dst;
    }

    /** The pair in the other direction. */
    public GpuPair reversed() {
        return new GpuPair(dst, src);
    }

    @Override
    public String toString() {
        return src + "-" + dst;
    }
}
