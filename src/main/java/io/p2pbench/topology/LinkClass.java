package io.p2pbench.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How two GPUs are connected, in the vocabulary of {@code nvidia-smi topo -m}: {@code X} (the same
 * GPU), {@code NV#} (# bonded NVLinks, directly or through NVSwitch), and for PCIe paths, from
 * nearest to farthest, {@code PIX}, {@code PXB}, {@code PHB}, {@code NODE}, {@code SYS}.
 * {@code ?} means the machine did not say.
 */
public record LinkClass(Kind kind, int nvlinks) implements Comparable<LinkClass> {

    /** The kinds, nearest first. */
    public enum Kind {
        /** Source and destination are the same GPU. */
        SELF("X", "the same GPU"),
        /** A bonded set of NVLinks (direct or through NVSwitch). */
        NVLINK("NV#", "a bonded set of # NVLinks, GPU to GPU or through NVSwitch"),
        /** At most one PCIe bridge (switch) between the GPUs. */
        PIX("PIX", "PCIe through at most one PCIe bridge (a shared switch)"),
        /** Several PCIe bridges, not through the host bridge. */
        PXB("PXB", "PCIe through several PCIe bridges, not through the CPU's host bridge"),
        /** Through a PCIe host bridge (the CPU). */
        PHB("PHB", "PCIe through a PCIe host bridge (typically the CPU)"),
        /** Between PCIe host bridges of one NUMA node. */
        NODE("NODE", "PCIe plus the link between PCIe host bridges within one NUMA node"),
        /** Across NUMA nodes (QPI/UPI, Infinity Fabric). */
        SYS("SYS", "PCIe plus the interconnect between NUMA nodes (QPI/UPI or Infinity Fabric)"),
        /** The machine did not say. */
        UNKNOWN("?", "unknown: NVML could not tell");

        private final String label;
        private final String meaning;

        Kind(String label, String meaning) {
            this.label = label;
            this.meaning = meaning;
        }

        /** The matrix label; {@code NV#} stands for NV plus the link count. */
        public String label() {
            return label;
        }

        /** One line saying what the label means, for legends. */
        public String meaning() {
            return meaning;
        }
    }

    /** The same GPU. */
    public static final LinkClass SELF = new LinkClass(Kind.SELF, 0);
    /** Not known. */
    public static final LinkClass UNKNOWN = new LinkClass(Kind.UNKNOWN, 0);

    /** Validates that only NVLINK carries a link count. */
    public LinkClass {
        if (kind == Kind.NVLINK ? nvlinks <= 0 : nvlinks != 0) {
            throw new IllegalArgumentException(kind + " with " + nvlinks + " NVLinks");
        }
    }

    /** A PCIe or self class. */
    public static LinkClass of(Kind kind) {
        return new LinkClass(kind, 0);
    }

    /** {@code count} bonded NVLinks. */
    public static LinkClass nvlink(int count) {
        return new LinkClass(Kind.NVLINK, count);
    }

    /** Whether data moves over NVLink. */
    public boolean isNvlink() {
        return kind == Kind.NVLINK;
    }

    /** The matrix label, e.g. {@code NV18}, {@code SYS}, {@code X}. */
    @JsonValue
    public String label() {
        return kind == Kind.NVLINK ? "NV" + nvlinks : kind.label();
    }

    /** Parses a label written by {@link #label()}. */
    @JsonCreator
    public static LinkClass parse(String label) {
        String l = label.trim().toUpperCase(Locale.ROOT);
        if (l.matches("NV\\d+")) {
            return nvlink(Integer.parseInt(l.substring(2)));
        }
        for (Kind k : Kind.values()) {
            if (k != Kind.NVLINK && k.label().equals(l)) {
                return of(k);
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not a link class; expected X, NV<n>, PIX, PXB, PHB, "
                + "NODE, SYS or ?");
    }

    /** Nearest first: self, then more NVLinks before fewer, then PCIe from PIX to SYS. */
    @Override
    public int compareTo(LinkClass o) {
        int byKind = Integer.compare(kind.ordinal(), o.kind.ordinal());
        return byKind != 0 ? byKind : Integer.compare(o.nvlinks, nvlinks);
    }

    @Override
    public String toString() {
        return label();
    }
}
