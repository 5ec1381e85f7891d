package io.p2pbench.topology;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Text renderings of a {@link Topology}: the GPU-to-GPU link matrix in the layout of
 * {@code nvidia-smi topo -m}, the P2P capability matrix, and a GPU table, each with a legend.
 */
public final class TopologyPrinter {
    private TopologyPrinter() {}

    /** Everything {@code p2pbench topology} prints. */
    public static String render(Topology t) {
        StringBuilder sb = new StringBuilder();
        sb.append("Machine ").append(t.fingerprint()).append('\n');
        HostInfo h = t.host();
        sb.append(String.format(Locale.ROOT, "Host: %s, %d socket(s), %d NUMA node(s), IOMMU %s, virtualisation %s%n",
                h.cpuModel(), h.sockets(), h.numaNodes(), h.iommu(), h.virtualization()));
        sb.append(String.format(Locale.ROOT, "Software: driver %s (CUDA %s), CUDA runtime %s, NCCL %s, NVRTC %s, %s%n",
                h.driverVersion(), h.cudaDriver(), h.cudaRuntime(), h.nccl(), h.nvrtc(), h.jvm()));
        sb.append('\n').append(gpuTable(t)).append('\n');
        sb.append(linkMatrix(t)).append('\n');
        sb.append(p2pMatrix(t));
        if (!t.notes().isEmpty()) {
            sb.append('\n').append("Notes:\n");
            t.notes().forEach(n -> sb.append("  - ").append(n).append('\n'));
        }
        return sb.toString();
    }

    /** One row per GPU with its identity, PCIe link and NVLink count. */
    public static String gpuTable(Topology t) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"GPU", "Name", "PCI bus", "CC", "Memory", "SMs", "CEs", "PCIe now", "PCIe max",
            "NUMA", "NVLinks up"});
        for (GpuInfo g : t.gpus()) {
            long up = g.nvlinks().stream().filter(GpuInfo.NvLinkInfo::active).count();
            rows.add(new String[] {"GPU" + g.index(), g.name(), g.pciBusId(), g.computeCapability(),
                String.format(Locale.ROOT, "%.1f GiB", g.memoryBytes() / (double) (1L << 30)),
                Integer.toString(g.smCount()), Integer.toString(g.copyEngines()),
                pcie(g.pcieGenCurrent(), g.pcieWidthCurrent()), pcie(g.pcieGenMax(), g.pcieWidthMax()),
                g.numaNode() == null || g.numaNode() < 0 ? "N/A" : g.numaNode().toString(),
                g.nvlinkNote() != null && g.nvlinks().isEmpty() ? "n/a" : Long.toString(up)});
        }
        return table(rows);
    }

    private static String pcie(Integer gen, Integer width) {
        return gen == null || width == null ? "?" : "Gen" + gen + " x" + width;
    }

    /** The link matrix (row = source, column = destination) with CPU and NUMA affinity, and its legend. */
    public static String linkMatrix(Topology t) {
        List<String[]> rows = new ArrayList<>();
        int n = t.gpuCount();
        String[] header = new String[n + 3];
        header[0] = "";
        for (int j = 0; j < n; j++) {
            header[j + 1] = "GPU" + t.gpus().get(j).index();
        }
        header[n + 1] = "CPU Affinity";
        header[n + 2] = "NUMA Affinity";
        rows.add(header);
        Set<LinkClass.Kind> used = EnumSet.noneOf(LinkClass.Kind.class);
        for (GpuInfo src : t.gpus()) {
            String[] row = new String[n + 3];
            row[0] = "GPU" + src.index();
            for (int j = 0; j < n; j++) {
                GpuInfo dst = t.gpus().get(j);
                LinkClass link = t.pair(src.index(), dst.index()).map(PairInfo::link).orElse(LinkClass.UNKNOWN);
                used.add(link.kind());
                row[j + 1] = link.label();
            }
            row[n + 1] = src.cpuAffinity() == null || src.cpuAffinity().isBlank() ? "N/A" : src.cpuAffinity();
            row[n + 2] = src.numaNode() == null || src.numaNode() < 0 ? "N/A" : src.numaNode().toString();
            rows.add(row);
        }
        StringBuilder sb = new StringBuilder("GPU-to-GPU links (row = source, column = destination)\n");
        sb.append(table(rows)).append("Legend:\n");
        for (LinkClass.Kind k : LinkClass.Kind.values()) {
            if (used.contains(k) || k != LinkClass.Kind.UNKNOWN) {
                sb.append(String.format(Locale.ROOT, "  %-4s = %s%n", k.label(), k.meaning()));
            }
        }
        return sb.toString();
    }

    /** The P2P capability matrix (row = source, column = destination) and its legend. */
    public static String p2pMatrix(Topology t) {
        List<String[]> rows = new ArrayList<>();
        int n = t.gpuCount();
        String[] header = new String[n + 1];
        header[0] = "";
        for (int j = 0; j < n; j++) {
            header[j + 1] = "GPU" + t.gpus().get(j).index();
        }
        rows.add(header);
        boolean anyRank = false;
        for (GpuInfo src : t.gpus()) {
            String[] row = new String[n + 1];
            row[0] = "GPU" + src.index();
            for (int j = 0; j < n; j++) {
                int dst = t.gpus().get(j).index();
                PairInfo p = t.pair(src.index(), dst).orElse(null);
                row[j + 1] = p2pCell(p);
                if (p != null && p.performanceRank() != null && p.performanceRank() != 0) {
                    anyRank = true;
                }
            }
            rows.add(row);
        }
        StringBuilder sb = new StringBuilder("Peer-to-peer access (row = GPU that maps, column = GPU mapped)\n");
        sb.append(table(rows)).append("Legend:\n")
                .append("  X    = the same GPU (copies are device-local)\n")
                .append("  OK   = cudaDeviceCanAccessPeer: P2P copies and loads/stores possible, native atomics\n")
                .append("  OK*  = P2P possible, but atomics across the link are not native\n")
                .append("  NS   = no P2P: copies between these GPUs are staged through host memory\n");
        if (anyRank) {
            sb.append("  rN   = cudaDevP2PAttrPerformanceRank N (lower is faster), shown where not 0\n");
        }
        return sb.toString();
    }

    static String p2pCell(PairInfo p) {
        if (p == null) {
            return "?";
        }
        if (p.self()) {
            return "X";
        }
        if (!p.canAccessPeer() || Boolean.FALSE.equals(p.accessSupported())) {
            return "NS";
        }
        String cell = Boolean.FALSE.equals(p.nativeAtomics()) ? "OK*" : "OK";
        if (p.performanceRank() != null && p.performanceRank() != 0) {
            cell += " r" + p.performanceRank();
        }
        return cell;
    }

    /** Left-aligned columns separated by two spaces. */
    public static String table(List<String[]> rows) {
        int cols = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int c = 0; c < r.length; c++) {
                width[c] = Math.max(width[c], r[c] == null ? 0 : r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < r.length; c++) {
                String cell = r[c] == null ? "" : r[c];
                line.append(cell);
                if (c < r.length - 1) {
                    line.append(" ".repeat(width[c] - cell.length() + 2));
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }
}
