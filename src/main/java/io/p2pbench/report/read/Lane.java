package io.p2pbench.report.read;

import io.p2pbench.transfer.HostDirection;

/**
 * Which figure of a measurement a row is: a copy alone, one lane of a bidirectional copy, both lanes added
 * up, a collective's bus or algorithm bandwidth, or its time per operation. Set where the figure is read
 * ({@link ResultReader}, the imports); {@link #label()} is the text the report shows (the key's {@code direction}).
 */
public enum Lane {
    /** A peer copy measured alone. */
    ONE_WAY(ResultReader.ONE_WAY, Shape.ALONE),
    /** One lane of a bidirectional peer copy, measured while the other direction runs. */
    UNDER_REVERSE(ResultReader.UNDER_REVERSE, Shape.LANE),
    /** The first of two concurrent copies within one GPU (a bidirectional copy of a pair {@code N-N}). */
    SELF_LANE_1(ResultReader.SELF_LANE_1, Shape.LANE),
    /** The second of two concurrent copies within one GPU. */
    SELF_LANE_2(ResultReader.SELF_LANE_2, Shape.LANE),
    /** Both lanes of a bidirectional peer copy added up. */
    BOTH_WAYS(ResultReader.BOTH_WAYS, Shape.SUM),
    /** A host-to-device copy measured alone. */
    H2D("H2D", Shape.ALONE),
    /** A device-to-host copy measured alone. */
    D2H("D2H", Shape.ALONE),
    /** The host-to-device lane of a bidirectional host copy. */
    H2D_UNDER_D2H("H2D, D2H running", Shape.LANE),
    /** The device-to-host lane of a bidirectional host copy. */
    D2H_UNDER_H2D("D2H, H2D running", Shape.LANE),
    /** Both lanes of a bidirectional host copy added up. */
    HOST_BOTH_WAYS("H2D+D2H (sum)", Shape.SUM),
    /** A collective's bus bandwidth. */
    BUS("bus", Shape.COLLECTIVE),
    /** A collective's algorithm bandwidth. */
    ALG("alg", Shape.COLLECTIVE),
    /** A collective's host-observed time of one operation. */
    PER_OPERATION(ResultReader.PER_OPERATION, Shape.ALONE);

    /** How a lane relates to the other figures of its measurement. */
    private enum Shape { ALONE, LANE, SUM, COLLECTIVE }

    private final String label;
    private final Shape shape;

    Lane(String label, Shape shape) {
        this.label = label;
        this.shape = shape;
    }

    /** The text the report shows, e.g. {@code one-way, reverse running}. */
    public String label() {
        return label;
    }

    /** Whether this is both lanes of a bidirectional copy added up. */
    public boolean isSum() {
        return shape == Shape.SUM;
    }

    /** Whether this is a figure of a bidirectional copy: one of its lanes, or their sum. */
    public boolean isBidirectional() {
        return shape == Shape.LANE || shape == Shape.SUM;
    }

    /** Whether this is a collective's bus or algorithm bandwidth. */
    public boolean isBusOrAlg() {
        return shape == Shape.COLLECTIVE;
    }

    /** Whether this is a host-device copy measured alone ({@link #H2D} or {@link #D2H}). */
    public boolean isHostOneWay() {
        return this == H2D || this == D2H;
    }

    /** The lane of a host copy measured alone in direction {@code d}. */
    public static Lane of(HostDirection d) {
        return d == HostDirection.H2D ? H2D : D2H;
    }

    /**
     * The lane a key written as text names by its label (the whole label, exactly); throws naming the text
     * when none does.
     */
    public static Lane ofLabel(String label) {
        for (Lane l : values()) {
            if (l.label.equals(label)) {
                return l;
            }
        }
        throw new IllegalArgumentException("direction '" + label + "' is no lane this version reports");
    }
}
