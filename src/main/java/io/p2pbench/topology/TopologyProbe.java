package io.p2pbench.topology;

import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaDevices;
import io.p2pbench.cuda.JCudaDriverView;
import io.p2pbench.cuda.Nccl;
import io.p2pbench.cuda.Nvml;
import io.p2pbench.cuda.Nvrtc;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds the {@link Topology} of the live machine: CUDA for the GPUs and P2P capabilities, NVML
 * for PCIe, NVLink and PCI distances, sysfs as a fallback for NUMA and CPU affinity, and JCuda as
 * an independent read of the driver's GPU list.
 */
public final class TopologyProbe {
    /** The suite version written into every topology and result. */
    public static final String SUITE_VERSION = Optional.ofNullable(
            TopologyProbe.class.getPackage().getImplementationVersion()).orElse("0.1.0");

    private TopologyProbe() {}

    /** Probes the machine; throws {@link io.p2pbench.cuda.CudaException} if CUDA is unusable. */
    public static Topology probe() {
        Cuda.Availability cuda = Cuda.require();
        HostProbe hostProbe = new HostProbe();
        List<String> notes = new ArrayList<>();
        Nvml.Opened opened = Nvml.open();
        Nvml nvml = opened.nvml().orElse(null);
        if (nvml == null) {
            notes.add(opened.problem() + "; PCIe, NVLink and PCI-distance fields are missing");
        }
        try {
            List<GpuInfo> gpus = new ArrayList<>();
            for (int i = 0; i < cuda.deviceCount(); i++) {
                gpus.add(gpu(i, nvml, hostProbe));
            }
            for (GpuInfo g : gpus) {
                if (g.nvlinkNote() != null && gpus.size() > 1) {
                    notes.add("GPU" + g.index() + ": NVLink state unknown (" + g.nvlinkNote() + ")");
                }
            }
            List<PairInfo> pairs = new ArrayList<>();
            for (GpuInfo a : gpus) {
                for (GpuInfo b : gpus) {
                    pairs.add(pair(a, b, nvml));
                }
            }
            JCudaDriverView.View jcuda = JCudaDriverView.read();
            List<String> ours = gpus.stream().map(GpuInfo::pciBusId).toList();
            if (!jcuda.problem().isEmpty()) {
                notes.add("cross-check skipped: " + jcuda.problem());
            } else if (!jcuda.pciBusIds().equals(ours)) {
                notes.add("the two bindings disagree on the GPU list: JavaCPP " + ours + ", JCuda "
                        + jcuda.pciBusIds() + "; check for two different libcuda.so.1 on this machine");
            }
            String virt = hostProbe.virtualization();
            if (!"none".equals(virt) && gpus.size() > 1) {
                notes.add("running in a " + virt + ": hypervisors often restrict or slow down P2P");
            }
            int[] nvrtc = safeNvrtcVersion();
            HostInfo host = new HostInfo(hostProbe.cpuModel(), hostProbe.sockets(), hostProbe.numaNodes(),
                    hostProbe.iommu(), virt, hostProbe.os(), System.getProperty("os.version"),
                    nvml == null ? null : nvml.driverVersion(), Cuda.formatVersion(cuda.driverVersion()),
                    Cuda.formatVersion(cuda.runtimeVersion()), Nccl.version(),
                    nvrtc == null ? "unavailable" : nvrtc[0] + "." + nvrtc[1],
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
            Topology t = new Topology(SUITE_VERSION, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                    host, gpus, pairs, "", notes);
            return t.withFingerprint();
        } finally {
            if (nvml != null) {
                nvml.close();
            }
        }
    }

    private static int[] safeNvrtcVersion() {
        try {
            return Nvrtc.version();
        } catch (Throwable t) {
            return null;
        }
    }

    private static GpuInfo gpu(int index, Nvml nvml, HostProbe hostProbe) {
        CudaDevices.Properties p = CudaDevices.describe(index);
        Nvml.GpuFacts f = nvml == null ? null : nvml.gpu(p.pciBusId()).orElse(null);
        Integer numa = f != null && f.numaNode() != null ? f.numaNode() : hostProbe.pciNumaNode(p.pciBusId());
        if (numa == null && p.numaId() >= 0) {
            numa = p.numaId();
        }
        String cpus = f != null && f.cpuAffinity() != null ? HostProbe.cpuList(f.cpuAffinity())
                : hostProbe.pciLocalCpus(p.pciBusId());
        List<GpuInfo.NvLinkInfo> links = f == null ? List.of() : f.nvlinks().stream()
                .map(l -> new GpuInfo.NvLinkInfo(l.link(), l.active(), l.version(), l.remotePciBusId(),
                        l.remoteType()))
                .toList();
        String note = f == null ? "NVML unavailable" : f.nvlinkProblem();
        return new GpuInfo(index, p.name(), f != null && f.uuid() != null ? f.uuid() : p.uuid(), p.pciBusId(),
                p.ccMajor() + "." + p.ccMinor(), p.totalMemoryBytes(), p.smCount(), p.copyEngines(),
                f == null ? null : f.pcieGenCurrent(), f == null ? null : f.pcieGenMax(),
                f == null ? null : f.pcieWidthCurrent(), f == null ? null : f.pcieWidthMax(),
                numa, cpus, links, note);
    }

    private static PairInfo pair(GpuInfo a, GpuInfo b, Nvml nvml) {
        if (a.index() == b.index()) {
            return new PairInfo(a.index(), b.index(), false, null, null, null, LinkClass.SELF, null);
        }
        Integer ancestor = nvml == null ? null : nvml.commonAncestor(a.pciBusId(), b.pciBusId());
        Cuda.PeerAttributes attrs = Cuda.peerAttributes(a.index(), b.index());
        return new PairInfo(a.index(), b.index(), Cuda.canAccessPeer(a.index(), b.index()),
                attrs.performanceRank(), attrs.accessSupported(), attrs.nativeAtomics(),
                LinkClassifier.classify(a, b, ancestor), ancestor);
    }
}
