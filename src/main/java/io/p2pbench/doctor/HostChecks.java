package io.p2pbench.doctor;

import io.p2pbench.doctor.Finding.Status;
import io.p2pbench.topology.HostProbe;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Findings about the whole machine: virtualisation, the IOMMU, NUMA. Parsing of /proc is HostProbe's. */
final class HostChecks {
    static final String HOST = "host";
    private static final Pattern IOMMU_OPTION = Pattern.compile("(?<=^|\\s)((?:intel_|amd_)?iommu(?:\\.\\w+)?=\\S+)");

    private HostChecks() {}

    static Finding virtualMachine(MachineSource src, List<GpuRef> gpus) {
        String cpuinfo;
        try {
            cpuinfo = src.text("proc/cpuinfo");
        } catch (MachineSource.Unreadable e) {
            return Finding.unknown(Check.VIRTUAL_MACHINE, HOST, "whether this is a virtual machine is unknown: "
                    + e.getMessage());
        }
        if (cpuinfo.lines().noneMatch(l -> l.startsWith("flags"))) {
            return Finding.unknown(Check.VIRTUAL_MACHINE, HOST, "whether this is a virtual machine is unknown: "
                    + "/proc/cpuinfo has no 'flags' line to look for the hypervisor flag in");
        }
        Answer<String> vendor = optionalText(src, "sys/class/dmi/id/sys_vendor");
        Answer<String> product = optionalText(src, "sys/class/dmi/id/product_name");
        String virt = HostProbe.virtualization(cpuinfo, vendor.known() ? vendor.value() : "",
                product.known() ? product.value() : "");
        List<String> evidence = new ArrayList<>();
        boolean vm = !"none".equals(virt);
        evidence.add("/proc/cpuinfo: flags " + (vm ? "include" : "without") + " 'hypervisor'");
        evidence.add("/sys/class/dmi/id/sys_vendor: " + (vendor.known() ? quote(vendor.value()) : vendor.unknown()));
        evidence.add("/sys/class/dmi/id/product_name: " + (product.known() ? quote(product.value()) : product.unknown()));
        if (vm) {
            for (GpuRef g : gpus) {
                if (g.chain().known() && g.chain().value().size() == 2) {
                    evidence.add(g.named() + " sits directly on host bridge " + g.chain().value().get(0)
                            + " with no PCIe port above it: the hypervisor's flattened tree, not the physical one");
                }
            }
        }
        return virtualMachine(virt, evidence, gpus.size());
    }

    /** The finding for a virtualisation state ({@code none} or a description), read or recorded. */
    static Finding virtualMachine(String virt, List<String> evidence, int gpuCount) {
        if ("none".equals(virt)) {
            return new Finding(Check.VIRTUAL_MACHINE, HOST, Status.OK, "no hypervisor: bare metal", evidence, "");
        }
        boolean pairs = gpuCount > 1;
        String summary = virt + ": the PCIe tree seen here is the hypervisor's, and peer traffic between GPUs works "
                + "only as far as the hypervisor passes it through"
                + (pairs ? "" : "; with " + (gpuCount == 0 ? "no GPU" : "one GPU") + " there is no pair it could restrict");
        String fix = pairs ? "Ask the provider for an instance type whose GPUs have P2P (NVLink, or PCIe passthrough with "
                + "P2P enabled); on a KVM host of your own, give one VM all GPUs behind one PCIe switch or NVLink domain, "
                + "and run p2pbench doctor on the host for its ACS and IOMMU." : "";
        return new Finding(Check.VIRTUAL_MACHINE, HOST, pairs ? Status.CHECK : Status.INFO, summary, evidence, fix);
    }

    static Finding iommu(MachineSource src, List<GpuRef> gpus, boolean vm) {
        List<String> evidence = new ArrayList<>();
        String cmdline;
        try {
            cmdline = src.text("proc/cmdline");
            List<String> options = new ArrayList<>();
            Matcher m = IOMMU_OPTION.matcher(cmdline);
            while (m.find()) {
                options.add(m.group(1));
            }
            evidence.add("/proc/cmdline: " + (options.isEmpty() ? "no iommu option" : String.join(" ", options)));
        } catch (MachineSource.Unreadable e) {
            cmdline = "";
            evidence.add(e.getMessage());
        }
        boolean ptByCmdline = "passthrough".equals(HostProbe.iommu(false, cmdline));
        Answer<List<String>> units = listOrEmpty(src, "sys/class/iommu");
        evidence.add("/sys/class/iommu: " + (units.known() ? units.value().isEmpty() ? "empty" : String.join(", ",
                units.value()) : units.unknown()));
        Answer<List<String>> groups = listOrEmpty(src, "sys/kernel/iommu_groups");
        if (!groups.known()) {
            return new Finding(Check.IOMMU, HOST, Status.UNKNOWN, "the IOMMU state is unknown: " + groups.unknown(),
                    evidence, "");
        }
        String guest = vm ? " in this guest (the host's IOMMU, which passthrough depends on, cannot be seen from a VM)" : "";
        if (groups.value().isEmpty()) {
            evidence.add("/sys/kernel/iommu_groups: empty or absent");
            return new Finding(Check.IOMMU, HOST, Status.OK, "IOMMU off: no IOMMU groups" + guest, evidence, "");
        }
        evidence.add("/sys/kernel/iommu_groups: " + groups.value().size() + " group(s)");
        Map<String, String> groupOf = groupsOf(src, groups.value());
        Map<String, List<String>> byMode = new LinkedHashMap<>();
        for (GpuRef g : gpus) {
            String group = groupOf.get(g.busId());
            String mode;
            if (group == null) {
                mode = "unknown";
                evidence.add(g.named() + ": in no IOMMU group listed under /sys/kernel/iommu_groups/*/devices");
            } else {
                String file = "sys/kernel/iommu_groups/" + group + "/type";
                try {
                    String type = PciTree.shorten(src.text(file).strip());
                    mode = type.equals("identity") ? "passthrough" : type.startsWith("DMA") ? "translated" : type;
                    evidence.add("/" + file + ": " + type + " (" + g.named() + ")");
                } catch (MachineSource.Unreadable e) {
                    mode = "unknown";
                    evidence.add(e.getMessage() + " (" + g.named() + "; the file exists from Linux 5.11)");
                }
            }
            byMode.computeIfAbsent(mode, k -> new ArrayList<>()).add(g.label());
        }
        if (byMode.containsKey("translated")) {
            return new Finding(Check.IOMMU, HOST, Status.CAUSE, "the IOMMU translates the DMA of "
                    + String.join(", ", byMode.get("translated")) + guest + ": peer requests must be translated by the "
                    + "root complex, so P2P may be refused, slow, or hang", evidence,
                    "Boot with iommu=pt (next to intel_iommu=on or amd_iommu=on) so the GPUs' DMA is not translated, or "
                    + "turn VT-d/AMD-Vi off in firmware where no VM or SR-IOV needs it; where translation must stay, "
                    + "peer traffic needs ATS and ACS Direct Translated P2P on the switch ports.");
        }
        if (byMode.keySet().equals(Set.of("passthrough")) || gpus.isEmpty()) {
            return new Finding(Check.IOMMU, HOST, Status.OK, gpus.isEmpty() ? "IOMMU on; no GPU to check its mode for"
                    : "IOMMU on in passthrough (identity) mode for " + String.join(", ", byMode.get("passthrough"))
                    + guest, evidence, "");
        }
        if (ptByCmdline && byMode.keySet().stream().allMatch(k -> k.equals("passthrough") || k.equals("unknown"))) {
            return new Finding(Check.IOMMU, HOST, Status.OK, "IOMMU on in passthrough mode (iommu=pt on the kernel "
                    + "command line)" + guest, evidence, "");
        }
        String modes = byMode.entrySet().stream().map(e -> e.getKey() + ": " + String.join(", ", e.getValue()))
                .collect(Collectors.joining("; "));
        return new Finding(Check.IOMMU, HOST, Status.UNKNOWN, "IOMMU on, but whether it translates the GPUs' DMA is "
                + "unknown (" + modes + ")" + (ptByCmdline ? "" : "; the kernel command line has no iommu=pt"), evidence,
                "");
    }

    static Finding numa(MachineSource src) {
        List<String> evidence = new ArrayList<>();
        Answer<List<String>> nodes = listOrEmpty(src, "sys/devices/system/node");
        String nodeCount;
        if (nodes.known()) {
            long n = nodes.value().stream().filter(s -> s.matches("node\\d+")).count();
            nodeCount = Math.max(1, n) + " NUMA node(s)";
            evidence.add("/sys/devices/system/node: " + (n == 0 ? "no node directories" : nodes.value().stream()
                    .filter(s -> s.matches("node\\d+")).collect(Collectors.joining(", "))));
        } else {
            nodeCount = "NUMA nodes unknown";
            evidence.add(nodes.unknown());
        }
        String sockets;
        try {
            sockets = HostProbe.sockets(src.text("proc/cpuinfo")) + " socket(s)";
            evidence.add("/proc/cpuinfo: distinct 'physical id' values");
        } catch (MachineSource.Unreadable e) {
            sockets = "sockets unknown";
            evidence.add(e.getMessage());
        }
        return new Finding(Check.NUMA, HOST, nodes.known() ? Status.INFO : Status.UNKNOWN, nodeCount + ", " + sockets,
                evidence, "");
    }

    /** Bus id to IOMMU group, from the {@code devices} folder of every group. */
    private static Map<String, String> groupsOf(MachineSource src, List<String> groups) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String group : groups) {
            if (!group.matches("\\d{1,6}")) {
                continue;
            }
            try {
                for (String dev : src.list("sys/kernel/iommu_groups/" + group + "/devices")) {
                    out.put(dev, group);
                }
            } catch (MachineSource.Unreadable e) {
                // a group whose members cannot be listed holds no GPU we can name
            }
        }
        return out;
    }

    private static Answer<List<String>> listOrEmpty(MachineSource src, String dir) {
        try {
            return Answer.of(src.list(dir));
        } catch (MachineSource.Unreadable e) {
            return e.absent() ? Answer.of(List.of()) : Answer.unknown(e.getMessage());
        }
    }

    private static Answer<String> optionalText(MachineSource src, String file) {
        try {
            return Answer.of(src.text(file).strip());
        } catch (MachineSource.Unreadable e) {
            return Answer.unknown(e.absent() ? "absent" : e.getMessage());
        }
    }

    private static String quote(String s) {
        return "'" + PciTree.shorten(s) + "'";
    }
}
