package io.p2pbench.topology;

/**
 * Names the link between two GPUs as {@code nvidia-smi topo -m} does: NVLink first (direct links,
 * or links into NVSwitch on both sides), otherwise the PCIe distance from NVML's common ancestor.
 */
public final class LinkClassifier {
    private LinkClassifier() {}

    /**
     * The link class from {@code a} to {@code b}.
     *
     * @param nvmlAncestor NVML's nvmlGpuTopologyLevel_t for the pair, or null if unknown
     */
    public static LinkClass classify(GpuInfo a, GpuInfo b, Integer nvmlAncestor) {
        if (a.index() == b.index()) {
            return LinkClass.SELF;
        }
        int direct = a.directLinksTo(b);
        if (direct > 0) {
            return LinkClass.nvlink(direct);
        }
        int viaSwitch = Math.min(a.switchLinks(), b.switchLinks());
        if (viaSwitch > 0) {
            return LinkClass.nvlink(viaSwitch);
        }
        return fromAncestor(nvmlAncestor);
    }

    /** PCIe class from NVML's topology level (INTERNAL 0, SINGLE 10, MULTIPLE 20, HOSTBRIDGE 30, NODE 40, SYSTEM 50). */
    public static LinkClass fromAncestor(Integer level) {
        if (level == null) {
            return LinkClass.UNKNOWN;
        }
        if (level <= 10) {
            return LinkClass.of(LinkClass.Kind.PIX);
        }
        if (level <= 20) {
            return LinkClass.of(LinkClass.Kind.PXB);
        }
        if (level <= 30) {
            return LinkClass.of(LinkClass.Kind.PHB);
        }
        if (level <= 40) {
            return LinkClass.of(LinkClass.Kind.NODE);
        }
        return LinkClass.of(LinkClass.Kind.SYS);
    }
}
