package io.p2pbench.doctor;

import io.p2pbench.cuda.Nvml;
import io.p2pbench.doctor.Finding.Status;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.LinkSpeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Findings about one GPU: its PCIe link, BAR1, persistence mode, NVLink state and errors. */
final class GpuChecks {
    private GpuChecks() {}

    /**
     * The PCIe link now against the most GPU and slot support. In a virtual machine the port above
     * the GPU is the hypervisor's, so the slot is not judged there.
     */
    static Finding pcieLink(MachineSource src, GpuRef g, boolean vm) {
        List<String> evidence = new ArrayList<>();
        PciTree.Link sysNow = PciTree.link(src, g.busId(), true);
        PciTree.Link sysMax = PciTree.link(src, g.busId(), false);
        evidence.add(sysfsLine(g.busId(), sysNow, sysMax));
        GpuInfo info = g.driver() == null ? null : g.driver().info();
        PciTree.Link nvNow = null;
        PciTree.Link nvMax = null;
        if (info != null) {
            nvNow = new PciTree.Link(Answer.ofNullable(info.pcieGenCurrent(), "NVML did not say"),
                    Answer.ofNullable(info.pcieWidthCurrent(), "NVML did not say"));
            nvMax = new PciTree.Link(Answer.ofNullable(info.pcieGenMax(), "NVML did not say"),
                    Answer.ofNullable(info.pcieWidthMax(), "NVML did not say"));
            evidence.add("NVML nvmlDeviceGetCurrPcieLink*/nvmlDeviceGetMaxPcieLink*: now " + nvNow.label() + ", max "
                    + nvMax.label());
        }
        PciTree.Link now = pick(sysNow, nvNow);
        PciTree.Link gpuMax = pick(sysMax, nvMax);
        PciTree.Link slotMax = null;
        String port = g.chain().known() && g.chain().value().size() >= 3
                ? g.chain().value().get(g.chain().value().size() - 2) : null;
        if (port != null && !vm) {
            slotMax = PciTree.link(src, port, false);
            evidence.add("sysfs " + port + " (the port above, the slot): max " + slotMax.label()
                    + unknownReasons(slotMax));
        }
        if (!now.known()) {
            return new Finding(Check.PCIE_LINK, g.label(), Status.UNKNOWN, "the PCIe link is unknown: "
                    + firstReason(now), evidence, "");
        }
        if (!gpuMax.known()) {
            return new Finding(Check.PCIE_LINK, g.label(), Status.UNKNOWN, "PCIe " + now.label()
                    + " now; whether that is below the maximum is unknown: " + firstReason(gpuMax), evidence, "");
        }
        int maxGen = gpuMax.gen().value();
        int maxWidth = gpuMax.width().value();
        if (slotMax != null && slotMax.known()) {
            maxGen = Math.min(maxGen, slotMax.gen().value());
            maxWidth = Math.min(maxWidth, slotMax.width().value());
        }
        double nowGBps = now.gbps();
        double bestGBps = LinkSpeeds.pcieGBps(maxGen, maxWidth);
        String ceilings = String.format(Locale.ROOT, "ceiling %s GB/s per direction instead of %s GB/s at Gen%d x%d",
                gbps(nowGBps), gbps(bestGBps), maxGen, maxWidth);
        int gen = now.gen().value();
        int width = now.width().value();
        if (width < maxWidth) {
            return new Finding(Check.PCIE_LINK, g.label(), Status.CAUSE, "PCIe link trained at " + now.label()
                    + ", below the Gen" + maxGen + " x" + maxWidth + " that GPU and slot support: " + ceilings,
                    evidence, "Reseat the card or move it to a slot wired x" + maxWidth + ": check the riser or cable, "
                    + "lanes the slot shares with other slots or M.2, and the firmware's bifurcation setting; the link "
                    + "trains at boot, so a reboot is needed after the change.");
        }
        if (gen < maxGen) {
            return new Finding(Check.PCIE_LINK, g.label(), Status.CHECK, "PCIe link at " + now.label() + " now, below the"
                    + " Gen" + maxGen + " that GPU and slot support: " + ceilings + ". GPUs lower the link speed when "
                    + "idle, so this slows copies only if it stays while one runs", evidence,
                    "Read the link during a copy (nvidia-smi -q -d PCIE while p2pbench runs); if it stays at Gen" + gen
                    + ", set the slot's PCIe speed to Auto or Gen" + maxGen + " in firmware and check the riser, cable or"
                    + " retimer.");
        }
        if (maxGen < gpuMax.gen().value() || maxWidth < gpuMax.width().value()) {
            return new Finding(Check.PCIE_LINK, g.label(), Status.CAUSE, "the slot (port " + port + ") allows at most Gen"
                    + maxGen + " x" + maxWidth + ", below the GPU's " + gpuMax.label() + ": ceiling " + gbps(nowGBps)
                    + " GB/s per direction instead of " + gbps(gpuMax.gbps()), evidence,
                    "Move the GPU to a slot wired for " + gpuMax.label() + ", or count on the lower ceiling.");
        }
        return new Finding(Check.PCIE_LINK, g.label(), Status.OK, "PCIe " + now.label() + ", the most GPU and slot "
                + "support: ceiling " + gbps(nowGBps) + " GB/s per direction", evidence, "");
    }

    /** BAR1 against the GPU's memory: over PCIe a peer reaches this GPU's memory through BAR1. */
    static Finding bar1(MachineSource src, GpuRef g, int gpuCount) {
        List<String> evidence = new ArrayList<>();
        Long bar1 = null;
        if (g.driver() != null && g.driver().bar1TotalBytes().known()) {
            bar1 = g.driver().bar1TotalBytes().value();
            evidence.add("nvmlDeviceGetBAR1MemoryInfo: bar1Total " + bar1 + " bytes");
        } else {
            if (g.driver() != null) {
                evidence.add("NVML: " + g.driver().bar1TotalBytes().unknown());
            }
            String file = "sys/bus/pci/devices/" + g.busId() + "/resource";
            try {
                bar1 = bar1FromResource(src.text(file));
                evidence.add("/" + file + ", BAR1 (second line): " + bar1 + " bytes");
            } catch (MachineSource.Unreadable e) {
                evidence.add(e.getMessage());
            } catch (IllegalArgumentException e) {
                evidence.add("/" + file + ": " + e.getMessage());
            }
        }
        if (bar1 == null) {
            return new Finding(Check.BAR1, g.label(), Status.UNKNOWN, "the BAR1 size is unknown", evidence, "");
        }
        if (g.driver() == null) {
            return new Finding(Check.BAR1, g.label(), Status.INFO, "BAR1 " + size(bar1)
                    + "; the GPU's memory size needs the driver, so whether it covers it is unknown", evidence, "");
        }
        long memory = g.driver().info().memoryBytes();
        evidence.add("cudaGetDeviceProperties totalGlobalMem: " + memory + " bytes");
        if (bar1 >= memory) {
            return new Finding(Check.BAR1, g.label(), Status.OK, "BAR1 " + size(bar1) + " covers the GPU's "
                    + size(memory), evidence, "");
        }
        return new Finding(Check.BAR1, g.label(), gpuCount > 1 ? Status.CAUSE : Status.INFO, "BAR1 " + size(bar1)
                + " is smaller than the GPU's " + size(memory) + " of memory: peers reach this GPU's memory over "
                + "PCIe through BAR1, so the driver can map at most " + size(bar1) + " of it for peers at once",
                evidence, "Turn on Resizable BAR and Above 4G Decoding in firmware (in a VM: a 64-bit MMIO window as large "
                + "as the GPU's BAR1); data-center GPUs come with a BAR1 at least their memory size.");
    }

    /** The size of BAR1 from a sysfs {@code resource} file: its second line, {@code start end flags}. */
    static long bar1FromResource(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 2) {
            throw new IllegalArgumentException("has " + lines.length + " line(s), expected one per BAR");
        }
        String[] f = lines[1].strip().split("\\s+");
        if (f.length != 3 || !f[0].matches("0x[0-9a-fA-F]{1,16}") || !f[1].matches("0x[0-9a-fA-F]{1,16}")) {
            throw new IllegalArgumentException("line 2 '" + PciTree.shorten(lines[1]) + "' is not 'start end flags'");
        }
        long start = Long.parseUnsignedLong(f[0].substring(2), 16);
        long end = Long.parseUnsignedLong(f[1].substring(2), 16);
        if (start == 0 && end == 0) {
            throw new IllegalArgumentException("BAR1 is not assigned (line 2 is all zeros)");
        }
        if (Long.compareUnsigned(end, start) < 0) {
            throw new IllegalArgumentException("line 2 ends before it starts");
        }
        return end - start + 1;
    }

    static Finding persistence(GpuRef g) {
        if (g.driver() == null) {
            return Finding.unknown(Check.PERSISTENCE, g.label(), "persistence mode is unknown without the driver");
        }
        Answer<Boolean> mode = g.driver().persistenceMode();
        if (!mode.known()) {
            return Finding.unknown(Check.PERSISTENCE, g.label(), "persistence mode is unknown: " + mode.unknown());
        }
        String evidence = "nvmlDeviceGetPersistenceMode: " + (mode.value() ? "enabled" : "disabled");
        if (mode.value()) {
            return Finding.of(Check.PERSISTENCE, g.label(), Status.OK, "persistence mode on", "", evidence);
        }
        return Finding.of(Check.PERSISTENCE, g.label(), Status.CHECK, "persistence mode off: when no process holds the "
                + "GPU the driver tears its state down, so every process that starts CUDA (each p2pbench fork) pays the "
                + "driver's start-up again and clock settings reset; link bandwidth is not affected",
                "sudo nvidia-smi -pm 1, or run nvidia-persistenced as a service (it survives reboots).", evidence);
    }

    static Finding nvlinkState(GpuRef g, int gpuCount) {
        if (g.driver() == null) {
            return Finding.unknown(Check.NVLINK_STATE, g.label(), "NVLink state is unknown without the driver");
        }
        GpuInfo info = g.driver().info();
        List<GpuInfo.NvLinkInfo> links = info.nvlinks();
        if (links.isEmpty()) {
            String why = info.nvlinkNote() == null ? "NVML lists no NVLink" : info.nvlinkNote();
            return Finding.of(Check.NVLINK_STATE, g.label(), Status.INFO, "no NVLink reported (" + why + ")"
                    + (gpuCount < 2 ? ": with one GPU no pair needs one" : ": this GPU reaches others over PCIe only"),
                    "", why.startsWith("nvml") ? why : "nvmlDeviceGetNvLinkState: " + why);
        }
        List<Integer> down = links.stream().filter(l -> !l.active()).map(GpuInfo.NvLinkInfo::link).toList();
        List<Integer> up = links.stream().filter(GpuInfo.NvLinkInfo::active).map(GpuInfo.NvLinkInfo::link).toList();
        String version = links.stream().map(GpuInfo.NvLinkInfo::version).filter(v -> v != null).findFirst()
                .map(v -> " (NVLink " + v + ")").orElse("");
        List<String> evidence = new ArrayList<>();
        evidence.add("nvmlDeviceGetNvLinkState: enabled on " + (up.isEmpty() ? "none" : ranges(up)));
        if (down.isEmpty()) {
            return new Finding(Check.NVLINK_STATE, g.label(), Status.OK, up.size() + " of " + links.size()
                    + " NVLinks up" + version, evidence, "");
        }
        evidence.add("nvmlDeviceGetNvLinkState: disabled on " + ranges(down));
        Integer v = links.stream().map(GpuInfo.NvLinkInfo::version).filter(x -> x != null).findFirst().orElse(null);
        double perLink = v == null ? Double.NaN : LinkSpeeds.nvlinkGBps(v);
        String ceiling = Double.isNaN(perLink) ? "" : String.format(Locale.ROOT,
                "; pairs through this GPU's links get at most %s GB/s per direction instead of %s",
                gbps(up.size() * perLink), gbps(links.size() * perLink));
        return new Finding(Check.NVLINK_STATE, g.label(), Status.CAUSE, "NVLink" + (down.size() == 1 ? " " : "s ")
                + numbers(down) + " down: " + up.size()
                + " of " + links.size() + " up" + version + ceiling, evidence,
                "nvidia-smi nvlink -s shows the state. On NVSwitch systems check that nvidia-fabricmanager runs and read "
                + "its log; a link that stays down after a GPU reset or reboot is a hardware fault (GPU, baseboard or "
                + "cable) for the machine's owner.");
    }

    static Finding nvlinkErrors(GpuRef g) {
        Answer<List<Nvml.NvLinkErrors>> errors = g.driver().nvlinkErrors();
        if (!errors.known()) {
            return Finding.unknown(Check.NVLINK_ERRORS, g.label(), "NVLink error counters are unknown: " + errors.unknown());
        }
        List<Nvml.NvLinkErrors> bad = errors.value().stream()
                .filter(e -> e.replay() + e.recovery() + e.crcFlit() + e.crcData() > 0).toList();
        if (bad.isEmpty()) {
            return Finding.of(Check.NVLINK_ERRORS, g.label(), Status.OK, "no NVLink errors counted on "
                    + errors.value().size() + " link(s)", "", "nvmlDeviceGetNvLinkErrorCounter: all zero");
        }
        String counts = bad.stream().map(e -> String.format(Locale.ROOT,
                "link %d: %d recovery, %d replay, %d CRC flit, %d CRC data", e.link(), e.recovery(), e.replay(),
                e.crcFlit(), e.crcData())).collect(Collectors.joining("; "));
        return Finding.of(Check.NVLINK_ERRORS, g.label(), Status.CHECK, "NVLink errors counted since the driver loaded ("
                + counts + "): a link that retrains or replays often carries less", "Compare two readings of nvidia-smi "
                + "nvlink -e a few minutes apart under load; counts that keep rising point at a marginal link "
                + "(reseat, or report to the machine's owner).", "nvmlDeviceGetNvLinkErrorCounter: " + counts);
    }

    /** {@code links 0-6, 8-17} for a sorted list of link numbers ({@code link 7} for one). */
    static String ranges(List<Integer> links) {
        return (links.size() == 1 ? "link " : "links ") + numbers(links);
    }

    /** {@code 0-6, 8-17} for a sorted list of link numbers. */
    static String numbers(List<Integer> links) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < links.size()) {
            int j = i;
            while (j + 1 < links.size() && links.get(j + 1) == links.get(j) + 1) {
                j++;
            }
            parts.add(i == j ? String.valueOf(links.get(i)) : links.get(i) + "-" + links.get(j));
            i = j + 1;
        }
        return String.join(", ", parts);
    }

    /** Bytes in binary units for messages: {@code 256 MiB}, {@code 140.4 GiB}. */
    static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30)).replace(".0 ", " ");
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20)).replace(".0 ", " ");
    }

    static String gbps(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static PciTree.Link pick(PciTree.Link sysfs, PciTree.Link nvml) {
        if (nvml == null) {
            return sysfs;
        }
        return new PciTree.Link(either(sysfs.gen(), nvml.gen()), either(sysfs.width(), nvml.width()));
    }

    /** The sysfs answer, else NVML's, else both reasons. */
    private static Answer<Integer> either(Answer<Integer> sysfs, Answer<Integer> nvml) {
        if (sysfs.known()) {
            return sysfs;
        }
        return nvml.known() ? nvml : Answer.unknown(sysfs.unknown() + "; NVML: " + nvml.unknown());
    }

    private static String sysfsLine(String busId, PciTree.Link now, PciTree.Link max) {
        return "sysfs " + busId + " current_link_speed/width: " + now.label() + ", max_link_speed/width: " + max.label()
                + unknownReasons(now) + unknownReasons(max);
    }

    private static String unknownReasons(PciTree.Link l) {
        StringBuilder sb = new StringBuilder();
        for (Answer<Integer> a : List.of(l.gen(), l.width())) {
            if (!a.known()) {
                sb.append(" (").append(a.unknown()).append(')');
            }
        }
        return sb.toString();
    }

    private static String firstReason(PciTree.Link l) {
        return !l.gen().known() ? l.gen().unknown() : l.width().unknown();
    }
}
