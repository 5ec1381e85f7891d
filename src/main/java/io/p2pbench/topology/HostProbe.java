package io.p2pbench.topology;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads host facts from /proc and /sys. The parsing is split from the reading so it can be tested
 * on fixed text; every reader falls back to "unknown" rather than failing.
 */
public final class HostProbe {
    private final Path root;

    /** Reads the live machine. */
    public HostProbe() {
        this(Path.of("/"));
    }

    /** Reads a copy of /proc and /sys under {@code root} (tests). */
    public HostProbe(Path root) {
        this.root = root;
    }

    /** CPU model name from /proc/cpuinfo. */
    public String cpuModel() {
        return cpuModel(read("proc/cpuinfo"));
    }

    /** Number of CPU sockets. */
    public int sockets() {
        return sockets(read("proc/cpuinfo"));
    }

    /** Number of NUMA nodes (at least 1). */
    public int numaNodes() {
        Path nodes = root.resolve("sys/devices/system/node");
        int count = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(nodes, "node[0-9]*")) {
            for (Path ignored : ds) {
                count++;
            }
        } catch (IOException e) {
            return 1;
        }
        return Math.max(1, count);
    }

    /** IOMMU state: {@code off}, {@code on}, {@code passthrough}, or {@code unknown}. */
    public String iommu() {
        boolean groups = nonEmptyDir(root.resolve("sys/kernel/iommu_groups"));
        return iommu(groups, read("proc/cmdline"));
    }

    /** {@code none}, or what kind of virtual machine this is. */
    public String virtualization() {
        return virtualization(read("proc/cpuinfo"), read("sys/class/dmi/id/sys_vendor").strip(),
                read("sys/class/dmi/id/product_name").strip());
    }

    /** The OS's pretty name. */
    public String os() {
        for (String line : read("etc/os-release").split("\n")) {
            if (line.startsWith("PRETTY_NAME=")) {
                return line.substring("PRETTY_NAME=".length()).replace("\"", "").strip();
            }
        }
        return System.getProperty("os.name", "unknown");
    }

    /** The GPU's NUMA node from sysfs (-1 when the platform does not say), or null. */
    public Integer pciNumaNode(String pciBusId) {
        String text = read("sys/bus/pci/devices/" + pciBusId + "/numa_node").strip();
        try {
            return text.isEmpty() ? null : Integer.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The CPUs near the GPU from sysfs, e.g. {@code 0-15}, or null. */
    public String pciLocalCpus(String pciBusId) {
        String text = read("sys/bus/pci/devices/" + pciBusId + "/local_cpulist").strip();
        return text.isEmpty() ? null : text;
    }

    /** The CPU model named in /proc/cpuinfo text, or {@code unknown}. */
    public static String cpuModel(String cpuinfo) {
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("model name")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    return line.substring(colon + 1).strip();
                }
            }
        }
        return "unknown";
    }

    /** Distinct {@code physical id}s in /proc/cpuinfo text (at least 1). */
    public static int sockets(String cpuinfo) {
        Set<String> ids = new HashSet<>();
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("physical id")) {
                ids.add(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return Math.max(1, ids.size());
    }

    /** {@code passthrough}, {@code on} or {@code off} from whether IOMMU groups exist and the kernel command line. */
    public static String iommu(boolean groupsPresent, String cmdline) {
        String c = cmdline.toLowerCase(Locale.ROOT);
        if (c.contains("iommu=pt") || c.contains("iommu.passthrough=1")) {
            return "passthrough";
        }
        if (groupsPresent) {
            return "on";
        }
        if (c.contains("intel_iommu=on") || c.contains("amd_iommu=on")) {
            return "on";
        }
        return "off";
    }

    /**
     * {@code none} when /proc/cpuinfo's flags lack {@code hypervisor}, else {@code virtual machine} with
     * the DMI vendor and product where they say something.
     */
    public static String virtualization(String cpuinfo, String vendor, String product) {
        boolean hypervisor = false;
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("flags") && List.of(line.split("\\s+")).contains("hypervisor")) {
                hypervisor = true;
                break;
            }
        }
        if (!hypervisor) {
            return "none";
        }
        String what = (vendor + " " + product).strip();
        return what.isEmpty() ? "virtual machine" : "virtual machine (" + what + ")";
    }

    /** Turns a CPU list like [0,1,2,3,8,9] into "0-3,8-9". */
    public static String cpuList(List<Integer> cpus) {
        if (cpus == null || cpus.isEmpty()) {
            return null;
        }
        TreeSet<Integer> sorted = new TreeSet<>(cpus);
        StringBuilder sb = new StringBuilder();
        Integer start = null;
        Integer prev = null;
        for (int c : sorted) {
            if (start == null) {
                start = c;
            } else if (c != prev + 1) {
                append(sb, start, prev);
                start = c;
            }
            prev = c;
        }
        append(sb, start, prev);
        return sb.toString();
    }

    private static void append(StringBuilder sb, int start, int end) {
        if (sb.length() > 0) {
            sb.append(',');
        }
        sb.append(start);
        if (end != start) {
            sb.append('-').append(end);
        }
    }

    private boolean nonEmptyDir(Path p) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
            return ds.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    private String read(String relative) {
        try {
            return Files.readString(root.resolve(relative));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
