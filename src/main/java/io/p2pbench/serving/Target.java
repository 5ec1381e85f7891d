package io.p2pbench.serving;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The latency target a capacity search holds a plan to: p99 time to first token and p99 time per
 * output token at most these. A point meets it ({@link #judge}) when it was not cut at its cap, has
 * its full count of measured requests, all finished, both p99s are within the target, and its server
 * kept up with the load ({@link Stability}): a growing queue breaks the target even before a short
 * window's latencies show it.
 *
 * @param ttftP99Nanos p99 TTFT bound
 * @param tpotP99Nanos p99 TPOT bound
 */
public record Target(long ttftP99Nanos, long tpotP99Nanos) {
    /** Smallest target a flag accepts. */
    public static final long MIN_NANOS = 1_000_000L;
    /** Largest target a flag accepts. */
    public static final long MAX_NANOS = 600_000_000_000L;
    /** p99 TTFT 2 s, p99 TPOT 100 ms: interactive chat, as serving benchmarks commonly set it. */
    public static final Target DEFAULT = new Target(2_000_000_000L, 100_000_000L);

    /** Checks the bounds. */
    public Target {
        if (ttftP99Nanos < MIN_NANOS || ttftP99Nanos > MAX_NANOS || tpotP99Nanos < MIN_NANOS || tpotP99Nanos > MAX_NANOS) {
            throw new IllegalArgumentException("latency target " + ttftP99Nanos + " / " + tpotP99Nanos
                    + " ns is outside 1 ms .. 600 s");
        }
    }

    /** Whether the latencies of {@code s} meet the target (all finished, both p99s within it); {@link #judge} adds the rest. */
    public boolean metBy(PointStats s) {
        return s.unfinished() == 0 && s.ttft().p99() <= ttftP99Nanos && s.tpot().p99() <= tpotP99Nanos;
    }

    /**
     * Whether a point met the target, and if not why.
     *
     * @param met whether it met it
     * @param why {@code met}, or {@code broke: } and every reason, separated by {@code ; }
     * @param breaches what broke it, in the order of {@code why} (empty: met)
     */
    public record Judgement(boolean met, String why, Set<Breach> breaches) {
        /** Copies the breaches. */
        public Judgement {
            breaches = breaches.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(breaches));
        }
    }

    /** One way a point breaks the target, with a short name for a chart. */
    public enum Breach {
        /** Cut at its cap. */
        CAPPED("cut at the cap"),
        /** Fewer measured requests than the workload's count. */
        FEW_REQUESTS("too few measured requests"),
        /** Requests left unfinished. */
        UNFINISHED("requests unfinished"),
        /** p99 TTFT over the target. */
        TTFT("p99 TTFT over the target"),
        /** p99 TPOT over the target. */
        TPOT("p99 TPOT over the target"),
        /** The server did not keep up: the queue grows ({@link Stability#keepsUp()}). */
        QUEUE_GROWS("the queue grows (server fell behind)"),
        /** Its requests are not the sweep's trace, so whether the queue grows is unknown. */
        UNTRACED("not the sweep's trace: keeping up unknown");

        private final String shortName;

        Breach(String shortName) {
            this.shortName = shortName;
        }

        /** A few words for a chart's legend. */
        public String shortName() {
            return shortName;
        }
    }

    /**
     * Judges a point: cut at the cap, fewer than {@code expectedRequests} measured requests, a p99 beyond the
     * target or a queue that grows ({@link Stability#keepsUp()}) each break it. The node's search and the
     * report both judge points here.
     */
    public Judgement judge(PointStats s, Stability stability, boolean capped, int measuredRequests,
                           int expectedRequests) {
        List<String> why = new ArrayList<>();
        Set<Breach> breaches = EnumSet.noneOf(Breach.class);
        if (capped) {
            why.add("cut at the cap");
            breaches.add(Breach.CAPPED);
        }
        if (measuredRequests != expectedRequests) {
            why.add(measuredRequests + " measured requests of " + expectedRequests);
            breaches.add(Breach.FEW_REQUESTS);
        }
        if (s.unfinished() > 0) {
            why.add(s.unfinished() + " unfinished");
            breaches.add(Breach.UNFINISHED);
        }
        if (s.ttft().p99() > ttftP99Nanos) {
            why.add("p99 TTFT over " + formatDuration(ttftP99Nanos));
            breaches.add(Breach.TTFT);
        }
        if (s.tpot().p99() > tpotP99Nanos) {
            why.add("p99 TPOT over " + formatDuration(tpotP99Nanos));
            breaches.add(Breach.TPOT);
        }
        if (stability.problem() != null) {
            why.add(stability.problem());
            breaches.add(stability.traced() ? Breach.QUEUE_GROWS : Breach.UNTRACED);
        }
        return why.isEmpty() ? new Judgement(true, "met", breaches)
                : new Judgement(false, "broke: " + String.join("; ", why), breaches);
    }

    /**
     * Parses a duration flag value: a positive decimal number with the unit {@code ms} or {@code s}
     * ({@code 2s}, {@code 0.5s}, {@code 1500ms}), from 1 ms to 600 s.
     *
     * @param flag the flag's name, for the message
     * @throws IllegalArgumentException one line naming the flag, the value and what is accepted
     */
    public static long parseDuration(String flag, String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        long scale = t.endsWith("ms") ? 1_000_000L : t.endsWith("s") ? 1_000_000_000L : 0;
        String number = scale == 1_000_000L ? t.substring(0, t.length() - 2) : scale == 0 ? t : t.substring(0, t.length() - 1);
        long nanos = -1;
        if (scale > 0 && number.strip().matches("[0-9]+(\\.[0-9]+)?|\\.[0-9]+")) {
            BigDecimal v = new BigDecimal(number.strip()).multiply(BigDecimal.valueOf(scale));
            nanos = v.compareTo(BigDecimal.valueOf(MAX_NANOS)) > 0 ? MAX_NANOS + 1 : v.longValue();
        }
        if (nanos < MIN_NANOS || nanos > MAX_NANOS) {
            throw new IllegalArgumentException(flag + " '" + text + "' is not a latency target; use a duration from 1ms to "
                    + "600s with the unit ms or s, e.g. 2s, 0.5s or 100ms");
        }
        return nanos;
    }

    /** {@code 2s}, {@code 100ms}, {@code 1.5ms}: what {@link #parseDuration} reads back. */
    public static String formatDuration(long nanos) {
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        return new BigDecimal(nanos).movePointLeft(6).stripTrailingZeros().toPlainString() + "ms";
    }

    @Override
    public String toString() {
        return "p99 TTFT <= " + formatDuration(ttftP99Nanos) + ", p99 TPOT <= " + formatDuration(tpotP99Nanos);
    }
}
