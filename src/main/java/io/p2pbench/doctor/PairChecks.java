package io.p2pbench.doctor;

import io.p2pbench.doctor.Finding.Status;
import io.p2pbench.topology.GpuInfo;
import io.p2pbench.topology.LinkClass;
import io.p2pbench.topology.LinkSpeeds;
import io.p2pbench.topology.PairInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The verdict for one ordered GPU pair, what lies between the two GPUs, and every cause that bears on it. */
final class PairChecks {
    private PairChecks() {}

    /** What every pair's judgement shares: the machine, host and GPU findings, ACS read once per port. */
    static final class Context {
        final MachineSource src;
        final Map<String, Acs.LspciEntry> lspci;
        final boolean lspciGiven;
        final Finding vm;
        final Finding iommu;
        final Map<String, List<Finding>> gpuFindings;
        final String gpuProblem;
        final Map<String, Measured> measured;
        private final Map<String, Acs.State> acs = new LinkedHashMap<>();

        Context(MachineSource src, Finding vm, Finding iommu, Map<String, List<Finding>> gpuFindings, String gpuProblem,
                Map<String, Measured> measured) {
            this.src = src;
            Map<String, Acs.LspciEntry> parsed = src.lspci().map(Acs::parseLspci).orElse(Map.of());
            this.lspci = parsed;
            this.lspciGiven = src.lspci().isPresent();
            this.vm = vm;
            this.iommu = iommu;
            this.gpuFindings = gpuFindings;
            this.gpuProblem = gpuProblem;
            this.measured = measured;
        }

        Acs.State acs(String port) {
            return acs.computeIfAbsent(port, p -> Acs.read(src, p, lspci, lspciGiven));
        }
    }

    /** What lies between two GPUs: the link class, a description, the PCIe ports in between, the host bridges. */
    record Path(LinkClass link, String route, List<String> ports, String portsProblem, boolean rootsDiffer) {}

    static PairDiagnosis judge(Context c, GpuRef a, GpuRef b, PairInfo p) {
        Path path = path(a, b, p);
        boolean nvlink = path.link().isNvlink();
        List<Acs.State> acs = nvlink ? List.of() : path.ports().stream().map(c::acs).toList();
        List<Acs.State> redirecting = acs.stream().filter(s -> Boolean.TRUE.equals(s.redirects())).toList();
        List<Acs.State> acsUnknown = acs.stream().filter(s -> s.redirects() == null).toList();
        boolean driver = a.driver() != null && b.driver() != null && p != null;
        boolean peer = driver && p.canAccessPeer() && !Boolean.FALSE.equals(p.accessSupported());
        LinkClass.Kind kind = path.link().kind();
        Verdict verdict;
        String unconfirmed = "";
        if (!driver) {
            verdict = Verdict.UNKNOWN;
            unconfirmed = "peer access is unknown: " + c.gpuProblem;
        } else if (!peer) {
            verdict = Verdict.HOST_STAGED_ONLY;
        } else if (nvlink) {
            verdict = Verdict.P2P_DIRECT;
        } else if (!redirecting.isEmpty() || kind == LinkClass.Kind.PHB || kind == LinkClass.Kind.NODE
                || kind == LinkClass.Kind.SYS) {
            verdict = Verdict.P2P_THROUGH_CPU;
        } else if (kind == LinkClass.Kind.PIX || kind == LinkClass.Kind.PXB) {
            verdict = Verdict.P2P_DIRECT;
            if (!acsUnknown.isEmpty()) {
                unconfirmed = "ACS on " + ports(acsUnknown) + " is unknown (needs root): a redirect there would send "
                        + "the traffic through the CPU";
            } else if (path.ports().isEmpty() && path.portsProblem() != null) {
                unconfirmed = "the PCIe ports between them could not be read (" + path.portsProblem() + "), so their "
                        + "ACS is unknown: a redirect there would send the traffic through the CPU";
            }
        } else {
            verdict = Verdict.P2P_PATH_UNKNOWN;
        }
        String pair = a.label() + "-" + b.label();
        List<Finding> causes = new ArrayList<>();
        if (driver && !peer) {
            causes.add(peerAccess(c, a, b, p, path, redirecting));
        }
        if (!nvlink) {
            for (Acs.State s : redirecting) {
                causes.add(acsRedirect(s, a, b));
            }
            if (!acsUnknown.isEmpty()) {
                causes.add(new Finding(Check.ACS, ports(acsUnknown), Status.UNKNOWN, "ACS on the ports between the two GPUs"
                        + " is unknown: " + ports(acsUnknown), acsUnknown.stream()
                        .map(Acs.State::evidence).toList(), "Run p2pbench doctor as root, or pass --lspci FILE with the "
                        + "output of sudo lspci -vvv."));
            }
            if (c.vm != null && c.vm.matters()) {
                causes.add(c.vm);
            }
            if (c.iommu != null && (c.iommu.status() == Status.CAUSE || c.iommu.status() == Status.UNKNOWN && peer)) {
                causes.add(c.iommu);
            }
            Finding socket = crossSocket(c, a, b, p, path, peer);
            if (socket != null) {
                causes.add(socket);
            }
            addGpu(causes, c, a, b, Check.PCIE_LINK);
            if (peer) {
                addGpu(causes, c, a, b, Check.BAR1);
            }
        } else {
            addGpu(causes, c, a, b, Check.NVLINK_STATE);
            addGpu(causes, c, a, b, Check.NVLINK_ERRORS);
        }
        if (path.link().kind() == LinkClass.Kind.UNKNOWN && driver) {
            causes.add(Finding.unknown(Check.PATH, pair, "the path between " + a.label() + " and " + b.label()
                    + " is unknown: NVML gave no link class" + (path.portsProblem() == null ? ""
                    : " and sysfs: " + path.portsProblem())));
        }
        Measured m = driver ? c.measured.get(a.index() + "-" + b.index()) : null;
        return new PairDiagnosis(a.label(), b.label(), verdict, path.route(), path.link().label(), unconfirmed, causes, m);
    }

    /** The link class (NVML's, else from the sysfs tree), a description, and the ports below the shared bridge. */
    static Path path(GpuRef a, GpuRef b, PairInfo p) {
        LinkClass nvml = p == null || p.link() == null ? LinkClass.UNKNOWN : p.link();
        if (nvml.isNvlink()) {
            GpuInfo ia = a.driver().info();
            boolean direct = ia.directLinksTo(b.driver().info()) > 0;
            return new Path(nvml, nvml.nvlinks() + " NVLinks " + (direct ? "GPU to GPU" : "through NVSwitch") + " ("
                    + nvml.label() + ")", List.of(), null, false);
        }
        if (!a.chain().known() || !b.chain().known()) {
            String problem = !a.chain().known() ? a.chain().unknown() : b.chain().unknown();
            String route = nvml.kind() == LinkClass.Kind.UNKNOWN ? "PCIe, path unknown"
                    : "PCIe, " + nvml.kind().meaning() + " (" + nvml.label() + ")";
            return new Path(nvml, route, List.of(), problem, false);
        }
        List<String> ca = a.chain().value();
        List<String> cb = b.chain().value();
        int shared = PciTree.sharedPrefix(ca, cb);
        // ACS matters on the ports below a shared switch: there a redirect turns a copy across the switch into one
        // through the root complex. Below a host bridge the copy goes through the root complex anyway.
        Set<String> ports = new LinkedHashSet<>();
        if (shared >= 2) {
            ports.addAll(ca.subList(shared, ca.size() - 1));
            ports.addAll(cb.subList(shared, cb.size() - 1));
        }
        String route;
        LinkClass fromTree;
        boolean rootsDiffer = shared == 0;
        if (rootsDiffer) {
            route = "PCIe between host bridges " + ca.get(0) + " and " + cb.get(0);
            fromTree = LinkClass.UNKNOWN;
        } else if (shared == 1) {
            route = "PCIe through host bridge " + ca.get(0);
            fromTree = LinkClass.of(LinkClass.Kind.PHB);
        } else {
            route = "PCIe switch at " + ca.get(shared - 1);
            boolean oneEach = ca.size() - 1 - shared == 1 && cb.size() - 1 - shared == 1;
            fromTree = LinkClass.of(oneEach ? LinkClass.Kind.PIX : LinkClass.Kind.PXB);
        }
        LinkClass link = nvml.kind() != LinkClass.Kind.UNKNOWN ? nvml : fromTree;
        return new Path(link, route + " (" + link.label() + ")", ports.stream().sorted().toList(), null, rootsDiffer);
    }

    private static Finding peerAccess(Context c, GpuRef a, GpuRef b, PairInfo p, Path path, List<Acs.State> redirecting) {
        List<String> evidence = new ArrayList<>();
        evidence.add("cudaDeviceCanAccessPeer(" + a.index() + ", " + b.index() + ") = " + (p.canAccessPeer() ? 1 : 0));
        if (p.accessSupported() != null) {
            evidence.add("cudaDeviceGetP2PAttribute(cudaDevP2PAttrAccessSupported, " + a.index() + ", " + b.index()
                    + ") = " + (p.accessSupported() ? 1 : 0));
        }
        evidence.add("path: " + path.route());
        String none = "the driver reports no peer access from " + a.label() + " to " + b.label();
        LinkClass.Kind kind = path.link().kind();
        String summary;
        String fix;
        if (c.vm != null && c.vm.matters()) {
            summary = none + " in this virtual machine: the hypervisor does not pass P2P through";
            fix = c.vm.fix();
        } else if (!redirecting.isEmpty()) {
            summary = none + ", and ACS redirects peer requests on " + ports(redirecting) + " (see the ACS finding)";
            fix = "Turn the ACS redirect off (see the ACS finding).";
        } else if (c.iommu != null && c.iommu.status() == Status.CAUSE) {
            summary = none + " while the IOMMU translates their DMA (see the IOMMU finding)";
            fix = c.iommu.fix();
        } else if (kind == LinkClass.Kind.SYS) {
            summary = none + ": this platform does not forward peer traffic between CPU sockets";
            fix = "Put GPUs that exchange data on one socket (CUDA_VISIBLE_DEVICES, rank placement); copies across "
                    + "sockets are host-staged, best through pinned buffers on each GPU's own NUMA node.";
        } else if (kind == LinkClass.Kind.PHB || kind == LinkClass.Kind.NODE) {
            summary = none + ": this platform's root complex does not forward peer traffic between its ports";
            fix = "Put GPUs that exchange data under one PCIe switch, or plan for host staging; some platforms have a "
                    + "firmware setting for peer traffic through the root complex (see the vendor's manual).";
        } else if (kind == LinkClass.Kind.PIX || kind == LinkClass.Kind.PXB) {
            evidence.add(a.label() + ": " + a.driver().info().name() + "; " + b.label() + ": " + b.driver().info().name());
            summary = none + " although both sit under one PCIe switch with nothing redirecting: the driver turns P2P "
                    + "off for these GPUs (as it does for GeForce and other consumer cards)";
            fix = "No setting turns it on: use GPUs whose driver allows P2P, an NVLink bridge where the card has one, or "
                    + "plan for host staging (p2pbench measures it as HOST_STAGED and CE_NO_P2P).";
        } else {
            summary = none;
            fix = "";
        }
        return new Finding(Check.PEER_ACCESS, a.label() + "-" + b.label(), Status.CAUSE,
                summary + "; copies are staged through host memory", evidence, fix);
    }

    private static Finding acsRedirect(Acs.State s, GpuRef a, GpuRef b) {
        String pair = a.label().compareTo(b.label()) < 0 ? a.label() + " and " + b.label() : b.label() + " and " + a.label();
        return Finding.of(Check.ACS, s.port(), Status.CAUSE, "ACS on port " + s.port() + ", between " + pair + ", redirects peer requests up to the root complex: the copy goes through the CPU "
                + "instead of across the switch, or is blocked", "Turn ACS redirect off on " + s.port() + ": in firmware "
                + "(a PCIe ACS setting), at boot with the kernel option pci=disable_acs_redir=" + s.port()
                + ", or as root with setpci -s " + s.port() + " ECAP_ACS+0x6.w=0000 (lost at reboot; NCCL's "
                + "troubleshooting guide loops over every bridge). ACS isolates devices for VMs: keep it where the GPUs "
                + "are given to different VMs.", s.evidence());
    }

    private static Finding crossSocket(Context c, GpuRef a, GpuRef b, PairInfo p, Path path, boolean peer) {
        boolean ordered = a.label().compareTo(b.label()) < 0;
        Answer<Integer> na = numa(c, a);
        Answer<Integer> nb = numa(c, b);
        List<String> evidence = new ArrayList<>();
        String first = a.label() + " NUMA node: " + describe(na);
        String second = b.label() + " NUMA node: " + describe(nb);
        evidence.add(ordered ? first + "; " + second : second + "; " + first);
        if (p != null && p.nvmlAncestor() != null) {
            evidence.add("nvmlDeviceGetTopologyCommonAncestor: " + p.nvmlAncestor() + " (" + p.link().label() + ")");
        }
        boolean known = na.known() && nb.known() && na.value() >= 0 && nb.value() >= 0;
        boolean sys = path.link().kind() == LinkClass.Kind.SYS || known && !na.value().equals(nb.value());
        // Worded the same for both directions, so that the two directions of a pair share their causes.
        GpuRef lo = a.label().compareTo(b.label()) < 0 ? a : b;
        GpuRef hi = lo == a ? b : a;
        String pair = lo.label() + "-" + hi.label();
        if (sys) {
            String ceiling = ceiling(a, b);
            return new Finding(Check.CROSS_SOCKET, pair, Status.CAUSE, lo.label() + " and " + hi.label() + " hang off "
                    + "different CPU sockets (SYS): copies between them cross the inter-socket link (UPI or Infinity "
                    + "Fabric) and both root complexes. " + (peer ? "Their ceiling stays the slower GPU's PCIe link"
                    + ceiling + ", but CPUs forward peer traffic between sockets more slowly than within one, and some "
                    + "platforms refuse it" : "Host staging crosses it too unless each GPU stages through its own "
                    + "node's memory"), evidence, "Keep GPUs that exchange the most data on one socket "
                    + "(CUDA_VISIBLE_DEVICES, rank placement); measure the pair with P2P on and off (p2pbench run --pairs "
                    + lo.index() + "-" + hi.index() + "," + hi.index() + "-" + lo.index()
                    + " --paths CE_P2P_READ,CE_NO_P2P) and use the faster.");
        }
        if (path.rootsDiffer() && !known) {
            return new Finding(Check.CROSS_SOCKET, pair, Status.UNKNOWN, lo.label() + " and " + hi.label() + " are under "
                    + "different host bridges and their NUMA nodes are not reported: one socket (NODE) or two (SYS) is "
                    + "unknown", evidence, "");
        }
        return null;
    }

    private static Answer<Integer> numa(Context c, GpuRef g) {
        Answer<Integer> sysfs = PciTree.numaNode(c.src, g.busId());
        if (sysfs.known() && sysfs.value() >= 0) {
            return sysfs;
        }
        Integer nvml = g.driver() == null ? null : g.driver().info().numaNode();
        if (nvml != null && nvml >= 0) {
            return Answer.of(nvml);
        }
        return sysfs.known() ? sysfs : Answer.unknown(sysfs.unknown());
    }

    private static String describe(Answer<Integer> n) {
        return !n.known() ? "unknown (" + n.unknown() + ")" : n.value() < 0 ? "not reported (-1)" : n.value().toString();
    }

    private static String ceiling(GpuRef a, GpuRef b) {
        double slowest = Double.NaN;
        for (GpuRef g : List.of(a, b)) {
            GpuInfo i = g.driver() == null ? null : g.driver().info();
            if (i == null || i.pcieGenCurrent() == null || i.pcieWidthCurrent() == null) {
                return "";
            }
            double v = LinkSpeeds.pcieGBps(i.pcieGenCurrent(), i.pcieWidthCurrent());
            slowest = Double.isNaN(slowest) ? v : Math.min(slowest, v);
        }
        return Double.isNaN(slowest) ? "" : " (" + GpuChecks.gbps(slowest) + " GB/s per direction)";
    }

    private static void addGpu(List<Finding> causes, Context c, GpuRef a, GpuRef b, Check check) {
        for (GpuRef g : List.of(a, b)) {
            for (Finding f : c.gpuFindings.getOrDefault(g.label(), List.of())) {
                if (f.check() == check && f.matters()) {
                    causes.add(f);
                }
            }
        }
    }

    private static String ports(List<Acs.State> states) {
        return states.stream().map(Acs.State::port).collect(Collectors.joining(", "));
    }
}
