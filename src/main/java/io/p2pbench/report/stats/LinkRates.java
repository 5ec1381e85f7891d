package io.p2pbench.report.stats;

import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.spec.Kind;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.LinkClass;
import io.p2pbench.topology.LinkSpeeds;
import io.p2pbench.topology.Topology;
import io.p2pbench.transfer.CopyPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The theoretical rate a measurement is compared with, per direction, and which rate that is:
 * PCIe generation x width (per-lane rates after line encoding: Gen1 0.25, Gen2 0.5, Gen3 0.985,
 * Gen4 1.969, Gen5 3.938, Gen6 7.563 GB/s), or NVLink links x per-link rate (NVLink 2, 3 and 4:
 * 25 GB/s per link per direction, so 18 links of an H100/H200 give 450 GB/s; NVLink 5: 50 GB/s).
 * Device-local copies, and links nothing is known about, get no reference rather than a guess.
 */
public final class LinkRates {
    private LinkRates() {}

    /**
     * A reference rate.
     *
     * @param gbps decimal GB/s, NaN when there is none
     * @param assumption what was assumed, e.g. {@code NVLink 4: 18 links x 25 GB/s per direction}
     */
    public record Reference(double gbps, String assumption) {
        /** Whether a rate is known. */
        public boolean known() {
            return !Double.isNaN(gbps);
        }

        /** Measured / reference, NaN without a reference. */
        public double efficiency(double measuredGBps) {
            return known() ? measuredGBps / gbps : Double.NaN;
        }

        static Reference none(String why) {
            return new Reference(Double.NaN, "no reference rate (" + why + ")");
        }
    }

    /** PCIe GB/s per lane per direction for generation {@code gen}, NaN when unknown. */
    public static double pcieLaneGBps(int gen) {
        return LinkSpeeds.pcieLaneGBps(gen);
    }

    /** NVLink GB/s per link per direction for NVLink {@code version}, NaN when unknown. */
    public static double nvlinkGBps(int version) {
        return LinkSpeeds.nvlinkGBps(version);
    }

    /** The reference for {@code m} on machine {@code t} (null for imported baselines: no reference). */
    public static Reference of(Measurement m, Topology t) {
        if (t == null) {
            return Reference.none("machine not described");
        }
        if (m.key().lane() == Lane.ALG) {
            return Reference.none("algorithm bandwidth is no link figure; bus bandwidth is");
        }
        Reference perDirection;
        try {
            perDirection = perDirection(m, t);
        } catch (IllegalArgumentException e) {
            return Reference.none(e.getMessage());
        }
        boolean sum = m.key().lane().isSum();
        return sum && perDirection.known()
                ? new Reference(2 * perDirection.gbps(), "both directions: 2 x " + perDirection.assumption())
                : perDirection;
    }

    private static Reference perDirection(Measurement m, Topology t) {
        Measurement.Key k = m.key();
        if (k.is(Kind.HOST) && k.ends() instanceof Endpoints.Host h) {
            return pcie(List.of(t.gpu(h.gpu())));
        }
        if (k.is(Kind.PEER) && k.ends() instanceof Endpoints.Pair p) {
            GpuInfo src = t.gpu(p.pair().src());
            GpuInfo dst = t.gpu(p.pair().dst());
            if (src.index() == dst.index()) {
                return Reference.none("device-local copy");
            }
            CopyPath path = k.route().copyPath();
            boolean overPcie = path == CopyPath.CE_NO_P2P || path == CopyPath.HOST_STAGED;
            LinkClass link = m.link() == null ? LinkClass.UNKNOWN : parseOrUnknown(m.link());
            if (!overPcie && link.isNvlink()) {
                return nvlink(link.nvlinks(), List.of(src, dst));
            }
            return pcie(List.of(src, dst));
        }
        if (!(k.ends() instanceof Endpoints.Ranks r) || r.gpus() == null) {
            throw new IllegalArgumentException("no GPUs of this machine: " + k.pair());
        }
        return collective(r.gpus(), t);
    }

    /** Bus bandwidth of a collective is compared with the slowest member's total link rate. */
    private static Reference collective(List<Integer> group, Topology t) {
        List<GpuInfo> members = new ArrayList<>();
        for (int g : group) {
            GpuInfo gpu = t.gpu(g);
            if (!members.contains(gpu)) {
                members.add(gpu);
            }
        }
        if (members.size() < 2) {
            return Reference.none(Measurement.SINGLE_GPU);
        }
        int links = members.stream().mapToInt(g -> (int) g.nvlinks().stream().filter(GpuInfo.NvLinkInfo::active)
                .count()).min().orElse(0);
        return links > 0 ? nvlink(links, members) : pcie(members);
    }

    private static Reference nvlink(int links, List<GpuInfo> gpus) {
        Integer version = gpus.stream().flatMap(g -> g.nvlinks().stream()).filter(GpuInfo.NvLinkInfo::active)
                .map(GpuInfo.NvLinkInfo::version).filter(v -> v != null).findFirst().orElse(null);
        double perLink = version == null ? Double.NaN : nvlinkGBps(version);
        if (Double.isNaN(perLink)) {
            return Reference.none(links + " NVLinks of unknown version");
        }
        return new Reference(links * perLink, String.format(Locale.ROOT,
                "NVLink %d: %d links x %.0f GB/s per direction", version, links, perLink));
    }

    private static Reference pcie(List<GpuInfo> gpus) {
        double slowest = Double.NaN;
        GpuInfo limiting = null;
        for (GpuInfo g : gpus) {
            if (g.pcieGenCurrent() == null || g.pcieWidthCurrent() == null) {
                return Reference.none("PCIe link of GPU" + g.index() + " unknown");
            }
            double rate = pcieLaneGBps(g.pcieGenCurrent()) * g.pcieWidthCurrent();
            if (Double.isNaN(rate)) {
                return Reference.none("PCIe Gen" + g.pcieGenCurrent() + " of GPU" + g.index() + " unknown");
            }
            if (limiting == null || rate < slowest) {
                slowest = rate;
                limiting = g;
            }
        }
        return new Reference(slowest, String.format(Locale.ROOT, "PCIe Gen%d x%d: %d lanes x %s GB/s per direction",
                limiting.pcieGenCurrent(), limiting.pcieWidthCurrent(), limiting.pcieWidthCurrent(),
                trim(pcieLaneGBps(limiting.pcieGenCurrent()))));
    }

    private static LinkClass parseOrUnknown(String label) {
        try {
            return LinkClass.parse(label);
        } catch (IllegalArgumentException e) {
            return LinkClass.UNKNOWN;
        }
    }

    private static String trim(double v) {
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
