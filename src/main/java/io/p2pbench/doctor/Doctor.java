package io.p2pbench.doctor;

import io.p2pbench.cuda.PciBusId;
import io.p2pbench.doctor.Finding.Status;
import io.p2pbench.topology.HostInfo;
import io.p2pbench.topology.PairInfo;
import io.p2pbench.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Says, for every ordered GPU pair, whether the two GPUs reach each other peer to peer and over
 * what, and for a pair that cannot or is slow, each cause with its evidence and its fix. Reads the
 * machine through a {@link MachineSource} only and changes nothing; what cannot be read is an
 * {@code unknown} finding with the reason, never a guess. Run it as {@code p2pbench doctor}; the
 * checks, their sources and their fixes are in docs/doctor.md.
 */
public final class Doctor {
    /** The reason of every finding a result folder does not record. */
    public static final String NOT_RECORDED = "not recorded in a result folder";

    private Doctor() {}

    /**
     * Diagnoses the machine {@code src} reads.
     *
     * @param measured figures from a result folder by ordered pair {@code SRC-DST} (CUDA indices), may be empty
     */
    public static Diagnosis diagnose(MachineSource src, Map<String, Measured> measured) {
        return run(src, measured, null, List.of());
    }

    /**
     * What a recorded topology (a result folder's {@code topology.json}) shows: the driver's answers
     * and the host's recorded IOMMU and virtualisation state; what it does not record is left out.
     */
    public static Diagnosis fromRecorded(Topology t, String label, Map<String, Measured> measured) {
        HostInfo h = t.host();
        List<Finding> host = new ArrayList<>();
        host.add(Finding.of(Check.GPUS, HostChecks.HOST, Status.OK, t.gpuCount() + " GPU(s) recorded (driver "
                + h.driverVersion() + ")", "", "topology.json: gpus"));
        host.add(HostChecks.virtualMachine(h.virtualization(), List.of("topology.json host.virtualization: "
                + h.virtualization()), t.gpuCount()));
        String iommuEvidence = "topology.json host.iommu: " + h.iommu();
        host.add("on".equals(h.iommu())
                ? Finding.unknown(Check.IOMMU, HostChecks.HOST, "IOMMU on; whether it translates the GPUs' DMA is "
                        + NOT_RECORDED, iommuEvidence)
                : Finding.of(Check.IOMMU, HostChecks.HOST, Status.OK, "IOMMU " + h.iommu(), "", iommuEvidence));
        host.add(Finding.of(Check.NUMA, HostChecks.HOST, Status.INFO, h.numaNodes() + " NUMA node(s), " + h.sockets()
                + " socket(s)", "", "topology.json host.numaNodes, host.sockets"));
        return run(new Recorded(t, label), measured, host, List.of("Not recorded in a result folder: PCIe ACS, the "
                + "IOMMU mode per GPU, BAR1, persistence mode, NVLink error counters, the sysfs PCIe tree; run "
                + "p2pbench doctor on the machine for them."));
    }

    private static Diagnosis run(MachineSource src, Map<String, Measured> measured, List<Finding> recordedHost,
                                 List<String> notes) {
        GpuAnswers answers = src.gpus();
        List<GpuRef> gpus = new ArrayList<>();
        Finding gpusFinding;
        if (answers.readable()) {
            for (GpuAnswers.Gpu g : answers.gpus()) {
                String busId = PciBusId.normalize(g.info().pciBusId());
                gpus.add(new GpuRef("GPU" + g.info().index(), busId, g, PciTree.chain(src, busId)));
            }
            gpusFinding = Finding.of(Check.GPUS, HostChecks.HOST, Status.OK, gpus.size() + " GPU(s) read through CUDA and "
                    + "NVML (driver " + Optional.ofNullable(answers.driverVersion()).orElse("version unknown") + ")", "",
                    "cudaGetDeviceCount: " + gpus.size());
        } else {
            Answer<List<String>> found = PciTree.nvidiaGpus(src);
            for (String busId : found.known() ? found.value() : List.<String>of()) {
                gpus.add(new GpuRef(busId, busId, null, PciTree.chain(src, busId)));
            }
            gpusFinding = Finding.of(Check.GPUS, HostChecks.HOST, Status.UNKNOWN, "the GPUs could not be read: "
                    + answers.problem() + "; what needs the driver (peer access, NVLink, persistence mode) is unknown", "",
                    "sysfs /sys/bus/pci/devices: " + (found.known() ? found.value().size() + " NVIDIA GPU(s)"
                    + (found.value().isEmpty() ? "" : " (" + String.join(", ", found.value()) + ")") : found.unknown()));
        }
        List<Finding> host = new ArrayList<>();
        if (recordedHost == null) {
            host.add(gpusFinding);
            host.add(HostChecks.virtualMachine(src, gpus));
            boolean vm = host.get(1).status() == Status.CHECK || host.get(1).status() == Status.INFO;
            host.add(HostChecks.iommu(src, gpus, vm));
            host.add(HostChecks.numa(src));
        } else {
            host.addAll(recordedHost);
        }
        Finding vm = host.stream().filter(f -> f.check() == Check.VIRTUAL_MACHINE).findFirst().orElse(null);
        Finding iommu = host.stream().filter(f -> f.check() == Check.IOMMU).findFirst().orElse(null);
        boolean inVm = vm != null && (vm.status() == Status.CHECK || vm.status() == Status.INFO);
        Map<String, List<Finding>> byGpu = new LinkedHashMap<>();
        List<GpuDiagnosis> gpuDiagnoses = new ArrayList<>();
        for (GpuRef g : gpus) {
            List<Finding> fs = new ArrayList<>();
            fs.add(GpuChecks.pcieLink(src, g, inVm));
            if (recordedHost == null) {
                fs.add(GpuChecks.bar1(src, g, gpus.size()));
                fs.add(GpuChecks.persistence(g));
            }
            fs.add(GpuChecks.nvlinkState(g, gpus.size()));
            if (recordedHost == null && g.driver() != null && !g.driver().info().nvlinks().isEmpty()) {
                fs.add(GpuChecks.nvlinkErrors(g));
            }
            byGpu.put(g.label(), fs);
            gpuDiagnoses.add(new GpuDiagnosis(g.label(), g.busId(), g.driver() == null ? null : g.driver().info().name(),
                    fs));
        }
        PairChecks.Context context = new PairChecks.Context(src, vm, iommu, byGpu,
                answers.readable() ? "" : answers.problem(), measured);
        List<PairDiagnosis> pairs = new ArrayList<>();
        // Each pair looked up in a map, not by a scan of every pair (quadratic in the pairs for 200 GPUs).
        Map<List<Integer>, PairInfo> driverPairs = new HashMap<>();
        answers.pairs().forEach(p -> driverPairs.putIfAbsent(List.of(p.src(), p.dst()), p));
        for (GpuRef a : gpus) {
            for (GpuRef b : gpus) {
                if (a != b) {
                    PairInfo p = a.driver() == null ? null : driverPairs.get(List.of(a.index(), b.index()));
                    pairs.add(PairChecks.judge(context, a, b, p));
                }
            }
        }
        return new Diagnosis(src.description(), host, gpuDiagnoses, pairs, notes);
    }

    /** A recorded topology as a machine: the driver's recorded answers, and no files. */
    private record Recorded(Topology topology, String label) implements MachineSource {
        @Override
        public String description() {
            return label;
        }

        @Override
        public String text(String path) throws Unreadable {
            throw new Unreadable(path, NOT_RECORDED, false);
        }

        @Override
        public byte[] bytes(String path) throws Unreadable {
            throw new Unreadable(path, NOT_RECORDED, false);
        }

        @Override
        public List<String> list(String dir) throws Unreadable {
            throw new Unreadable(dir, NOT_RECORDED, false);
        }

        @Override
        public String devicePath(String pciBusId) throws Unreadable {
            throw new Unreadable("sys/bus/pci/devices/" + pciBusId, NOT_RECORDED, false);
        }

        @Override
        public Optional<String> lspci() {
            return Optional.empty();
        }

        @Override
        public GpuAnswers gpus() {
            return GpuAnswers.fromTopology(topology, NOT_RECORDED);
        }
    }
}
