package io.p2pbench.transfer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;

/**
 * Transfer sizes: parsing what users type ({@code 4K}, {@code 4KiB}, {@code 1M}, {@code 256MiB},
 * {@code 1G}, {@code 4096}: binary multiples, since buffers come in powers of two) and writing them
 * back as {@code 4 KiB}, {@code 1 MiB}. Bandwidth is always decimal GB/s; only sizes are binary.
 */
public final class Sizes {
    /** 2^10 bytes. */
    public static final long KIB = 1L << 10;
    /** 2^20 bytes. */
    public static final long MIB = 1L << 20;
    /** 2^30 bytes. */
    public static final long GIB = 1L << 30;
    /** 2^40 bytes. */
    public static final long TIB = 1L << 40;
    /** The most TiB a size in bytes can hold (a long). */
    private static final long MAX_TIB = Long.MAX_VALUE / TIB;
    private static final java.util.regex.Pattern FORM = java.util.regex.Pattern.compile(
            "(\\d+)\\s*(?:([KMGT])(?:I?B)?|B)?", java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * The largest transfer size a result may record: 1024 TiB, far beyond the memory of any GPU (a few
     * hundred GiB), so only a damaged or crafted file holds more; within it the report's size axes and
     * byte arithmetic stay finite and bounded.
     */
    public static final long MAX_RECORDED = 1L << 50;

    private Sizes() {}

    /**
     * Null when {@code bytes} is a transfer size a result can record (1 byte to {@link #MAX_RECORDED});
     * else what is wrong with it and what is accepted, to follow the file and field that hold it.
     */
    public static String recordedSizeProblem(long bytes) {
        if (bytes >= 1 && bytes <= MAX_RECORDED) {
            return null;
        }
        return bytes + " is not a transfer size: expected a whole number of bytes from 1 to " + MAX_RECORDED + " ("
                + format(MAX_RECORDED) + ")";
    }

    /**
     * Parses one size. Throws {@link IllegalArgumentException} naming the bad value and the
     * accepted forms for anything that is not a positive multiple of 4 bytes.
     */
    public static long parse(String text) {
        String t = text == null ? "" : text.trim();
        Matcher m = FORM.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("size '" + text + "' is not a size; use bytes or a binary multiple "
                    + "such as 4096, 4K, 4KiB, 1M, 256MiB, 1G");
        }
        String unit = m.group(2) == null ? "" : m.group(2).toUpperCase(Locale.ROOT);
        long multiple = switch (unit) {
            case "K" -> KIB;
            case "M" -> MIB;
            case "G" -> GIB;
            case "T" -> TIB;
            default -> 1;
        };
        long bytes;
        try {
            bytes = Math.multiplyExact(Long.parseLong(m.group(1)), multiple);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("size '" + text + "' is too large: it does not fit in 64 bits; sizes are "
                    + "bytes or binary multiples up to " + MAX_TIB + "T");
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException("size '" + text + "' must be positive");
        }
        if (bytes % 4 != 0) {
            throw new IllegalArgumentException("size '" + text + "' is " + bytes
                    + " bytes; sizes must be a multiple of 4 bytes (the pattern is checked in 32-bit words)");
        }
        return bytes;
    }

    /** Parses a comma-separated list, e.g. {@code 4K,1M,256M}. */
    public static List<Long> parseList(String text) {
        List<Long> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                out.add(parse(part));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no sizes in '" + text + "'");
        }
        return out;
    }

    /** Powers of two from {@code from} to {@code to}, both included. */
    public static List<Long> powersOfTwo(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long s = from; s <= to; s <<= 1) {
            out.add(s);
        }
        return out;
    }

    /** {@code 4 KiB}, {@code 1 MiB}, {@code 1.5 GiB}, {@code 4 B}. */
    public static String format(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%d %s", (long) v, units[u]);
        }
        return String.format(Locale.ROOT, "%.2f %s", v, units[u]).replaceAll("0+ ", " ").replace(". ", " ");
    }

    /** A compact, path- and parameter-safe spelling: {@code 4KiB}, {@code 1MiB}, {@code 4B}. */
    public static String compact(long bytes) {
        return format(bytes).replace(" ", "");
    }
}
