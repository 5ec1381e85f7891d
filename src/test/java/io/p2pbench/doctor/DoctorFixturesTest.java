package io.p2pbench.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.doctor.Finding.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The recorded machines of src/test/resources/doctor/: for each, the verdict of a pair, the cause
 * found, the evidence that shows it and the fix.
 */
class DoctorFixturesTest {
    static final Path FIXTURES = Path.of("src/test/resources/doctor");

    static Diagnosis diagnose(String fixture) throws IOException {
        return Doctor.diagnose(FixtureMachine.open(FIXTURES.resolve(fixture)), Map.of());
    }

    /** The one cause of {@code check} among the pair's causes. */
    static Finding cause(PairDiagnosis p, Check check) {
        List<Finding> found = p.causes().stream().filter(f -> f.check() == check).toList();
        assertEquals(1, found.size(), check + " among the causes of " + p.src() + "->" + p.dst() + ": " + p.causes());
        return found.get(0);
    }

    static Finding gpuFinding(Diagnosis d, String gpu, Check check) {
        return d.gpu(gpu).findings().stream().filter(f -> f.check() == check).findFirst()
                .orElseThrow(() -> new AssertionError("no " + check + " finding for " + gpu));
    }

    static void assertHas(List<String> evidence, String fragment) {
        assertTrue(evidence.stream().anyMatch(e -> e.contains(fragment)), "no evidence with '" + fragment + "' in "
                + evidence);
    }

    static void assertContains(String text, String... fragments) {
        for (String f : fragments) {
            assertTrue(text.contains(f), "missing '" + f + "' in: " + text);
        }
    }

    @Test
    void switchWithAcsOnSendsPeerTrafficThroughTheCpu() throws IOException {
        Diagnosis d = diagnose("switch-acs-on");
        for (String[] pair : new String[][] {{"GPU0", "GPU1"}, {"GPU1", "GPU0"}}) {
            PairDiagnosis p = d.pair(pair[0], pair[1]);
            assertEquals(Verdict.P2P_THROUGH_CPU, p.verdict());
            assertEquals("PCIe switch at 0000:01:00.0 (PIX)", p.route());
            List<Finding> acs = p.causes().stream().filter(f -> f.check() == Check.ACS).toList();
            assertEquals(List.of("0000:02:00.0", "0000:02:01.0"), acs.stream().map(Finding::subject).toList());
            Finding port = acs.get(0);
            assertEquals(Status.CAUSE, port.status());
            assertContains(port.summary(), "redirects peer requests up to the root complex");
            assertEquals(List.of("/sys/bus/pci/devices/0000:02:00.0/config: ACS capability (0x000D) at 0x148, control "
                    + "0x001d (SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-)"),
                    port.evidence());
            assertContains(port.fix(), "pci=disable_acs_redir=0000:02:00.0", "setpci -s 0000:02:00.0 ECAP_ACS+0x6.w=0000");
            Finding iommu = cause(p, Check.IOMMU);
            assertEquals(Status.CAUSE, iommu.status());
            assertHas(iommu.evidence(), "/sys/kernel/iommu_groups/30/type: DMA-FQ (GPU0 0000:03:00.0)");
            assertHas(iommu.evidence(), "/proc/cmdline: intel_iommu=on");
            assertContains(iommu.fix(), "iommu=pt");
        }
        assertEquals(d.pair("GPU0", "GPU1").causes(), d.pair("GPU1", "GPU0").causes(), "one wording for both directions");
        Finding persistence = gpuFinding(d, "GPU0", Check.PERSISTENCE);
        assertEquals(Status.CHECK, persistence.status());
        assertEquals(List.of("nvmlDeviceGetPersistenceMode: disabled"), persistence.evidence());
        assertContains(persistence.fix(), "nvidia-smi -pm 1");
        assertEquals(Status.OK, d.host(Check.VIRTUAL_MACHINE).status());
    }

    @Test
    void switchWithAcsOffIsDirectAndReadsAcsFromLspci() throws IOException {
        Diagnosis d = diagnose("switch-acs-off");
        PairDiagnosis p = d.pair("GPU0", "GPU1");
        assertEquals(Verdict.P2P_DIRECT, p.verdict());
        assertEquals("PCIe switch at 0000:01:00.0 (PIX)", p.route());
        assertEquals("", p.unconfirmed(), "lspci -vvv (root) answers what the 64-byte config cannot");
        assertTrue(p.causes().stream().noneMatch(Finding::matters), p.causes().toString());
        assertEquals(Status.OK, d.host(Check.IOMMU).status());
        assertEquals(Verdict.P2P_DIRECT, d.pair("GPU1", "GPU0").verdict());
    }

    @Test
    void acsWithoutRootAndWithoutLspciIsUnknownAndLeavesTheVerdictUnconfirmed() throws IOException {
        Diagnosis d = Doctor.diagnose(new WithoutLspci(FixtureMachine.open(FIXTURES.resolve("switch-acs-off"))), Map.of());
        PairDiagnosis p = d.pair("GPU0", "GPU1");
        assertEquals(Verdict.P2P_DIRECT, p.verdict());
        assertContains(p.unconfirmed(), "ACS on 0000:02:00.0, 0000:02:01.0 is unknown (needs root)");
        Finding acs = cause(p, Check.ACS);
        assertEquals(Status.UNKNOWN, acs.status());
        assertHas(acs.evidence(), "unknown, needs root: /sys/bus/pci/devices/0000:02:00.0/config gives 64 bytes");
        assertHas(acs.evidence(), "only root may read past byte 64");
        assertContains(acs.fix(), "sudo lspci -vvv");
    }

    @Test
    void cloudVmIsHostStagedBecauseTheHypervisorGivesNoPeerAccess() throws IOException {
        Diagnosis d = diagnose("cloud-vm");
        PairDiagnosis p = d.pair("GPU0", "GPU1");
        assertEquals(Verdict.HOST_STAGED_ONLY, p.verdict());
        Finding peer = cause(p, Check.PEER_ACCESS);
        assertEquals(Status.CAUSE, peer.status());
        assertContains(peer.summary(), "in this virtual machine", "staged through host memory");
        assertHas(peer.evidence(), "cudaDeviceCanAccessPeer(0, 1) = 0");
        Finding vm = cause(p, Check.VIRTUAL_MACHINE);
        assertEquals(Status.CHECK, vm.status());
        assertContains(vm.summary(), "virtual machine (Amazon EC2 g5.12xlarge)");
        assertHas(vm.evidence(), "/proc/cpuinfo: flags include 'hypervisor'");
        assertHas(vm.evidence(), "GPU0 0000:00:1b.0 sits directly on host bridge pci0000:00");
        assertContains(vm.fix(), "instance type whose GPUs have P2P");
        assertContains(d.host(Check.IOMMU).summary(), "in this guest");
    }

    @Test
    void consumerCardsUnderOneSwitchGetNoPeerAccessFromTheDriver() throws IOException {
        Diagnosis d = diagnose("consumer-no-p2p");
        PairDiagnosis p = d.pair("GPU1", "GPU0");
        assertEquals(Verdict.HOST_STAGED_ONLY, p.verdict());
        Finding peer = cause(p, Check.PEER_ACCESS);
        assertContains(peer.summary(), "both sit under one PCIe switch with nothing redirecting",
                "the driver turns P2P off for these GPUs");
        assertHas(peer.evidence(), "cudaDeviceCanAccessPeer(1, 0) = 0");
        assertHas(peer.evidence(), "cudaDeviceGetP2PAttribute(cudaDevP2PAttrAccessSupported, 1, 0) = 0");
        assertHas(peer.evidence(), "NVIDIA GeForce RTX 4090");
        assertContains(peer.fix(), "No setting turns it on");
        assertTrue(p.causes().stream().noneMatch(f -> f.check() == Check.ACS), "ACS is off: " + p.causes());
        Finding bar1 = gpuFinding(d, "GPU0", Check.BAR1);
        assertEquals(Status.CAUSE, bar1.status());
        assertContains(bar1.summary(), "BAR1 256 MiB is smaller than the GPU's 24 GiB");
        assertHas(bar1.evidence(), "nvmlDeviceGetBAR1MemoryInfo: bar1Total 268435456 bytes");
        assertContains(bar1.fix(), "Resizable BAR");
        assertTrue(p.causes().stream().noneMatch(f -> f.check() == Check.BAR1), "BAR1 matters to P2P pairs only");
    }

    @Test
    void gen4x8InAGen5x16SlotIsACauseWithItsCeiling() throws IOException {
        Diagnosis d = diagnose("gen4x8-slot");
        Finding link = gpuFinding(d, "GPU1", Check.PCIE_LINK);
        assertEquals(Status.CAUSE, link.status());
        assertEquals("PCIe link trained at Gen4 x8, below the Gen5 x16 that GPU and slot support: ceiling 15.8 GB/s per "
                + "direction instead of 63.0 GB/s at Gen5 x16", link.summary());
        assertHas(link.evidence(), "sysfs 0000:02:00.0 current_link_speed/width: Gen4 x8, max_link_speed/width: Gen5 x16");
        assertHas(link.evidence(), "sysfs 0000:00:03.0 (the port above, the slot): max Gen5 x16");
        assertContains(link.fix(), "Reseat the card");
        assertEquals(Status.OK, gpuFinding(d, "GPU0", Check.PCIE_LINK).status());
        PairDiagnosis p = d.pair("GPU0", "GPU1");
        assertEquals(Verdict.P2P_THROUGH_CPU, p.verdict());
        assertEquals("PCIe through host bridge pci0000:00 (PHB)", p.route());
        assertEquals(link, cause(p, Check.PCIE_LINK));
        assertContains(d.host(Check.IOMMU).summary(), "passthrough (identity)");
    }

    @Test
    void twoSocketPairIsCrossSocketWithItsPenalty() throws IOException {
        Diagnosis d = diagnose("two-socket-sys");
        PairDiagnosis sys = d.pair("GPU2", "GPU0");
        assertEquals(Verdict.P2P_THROUGH_CPU, sys.verdict());
        assertEquals("PCIe between host bridges pci0000:80 and pci0000:00 (SYS)", sys.route());
        Finding socket = cause(sys, Check.CROSS_SOCKET);
        assertEquals(Status.CAUSE, socket.status());
        assertContains(socket.summary(), "different CPU sockets (SYS)", "inter-socket link",
                "slower GPU's PCIe link (63.0 GB/s per direction)", "more slowly than within one");
        assertEquals(List.of("GPU0 NUMA node: 0; GPU2 NUMA node: 1", "nvmlDeviceGetTopologyCommonAncestor: 50 (SYS)"),
                socket.evidence());
        assertContains(socket.fix(), "p2pbench run --pairs 0-2,2-0 --paths CE_P2P_READ,CE_NO_P2P");
        PairDiagnosis node = d.pair("GPU0", "GPU1");
        assertEquals(Verdict.P2P_THROUGH_CPU, node.verdict());
        assertEquals("NODE", node.link());
        assertTrue(node.causes().stream().noneMatch(f -> f.check() == Check.CROSS_SOCKET), node.causes().toString());
        assertContains(d.host(Check.NUMA).summary(), "2 NUMA node(s), 2 socket(s)");
    }

    @Test
    void nvswitchMachineWithOneLinkDownNamesTheLinkAndTheCeiling() throws IOException {
        Diagnosis d = diagnose("nvswitch8-link-down");
        assertEquals(56, d.pairs().size());
        assertTrue(d.pairs().stream().allMatch(p -> p.verdict() == Verdict.P2P_DIRECT));
        PairDiagnosis p = d.pair("GPU0", "GPU3");
        assertEquals("17 NVLinks through NVSwitch (NV17)", p.route());
        Finding down = cause(p, Check.NVLINK_STATE);
        assertEquals("GPU3", down.subject());
        assertEquals(Status.CAUSE, down.status());
        assertEquals("NVLink 7 down: 17 of 18 up (NVLink 4); pairs through this GPU's links get at most 425.0 GB/s per "
                + "direction instead of 450.0", down.summary());
        assertEquals(List.of("nvmlDeviceGetNvLinkState: enabled on links 0-6, 8-17",
                "nvmlDeviceGetNvLinkState: disabled on link 7"), down.evidence());
        assertContains(down.fix(), "nvidia-fabricmanager");
        assertEquals("NV18", d.pair("GPU0", "GPU1").link());
        assertTrue(d.pair("GPU0", "GPU1").causes().isEmpty(), d.pair("GPU0", "GPU1").causes().toString());
        Finding errors = cause(d.pair("GPU5", "GPU7"), Check.NVLINK_ERRORS);
        assertEquals(Status.CHECK, errors.status());
        assertContains(errors.summary(), "link 2: 3 recovery, 120 replay, 41 CRC flit, 0 CRC data");
        assertContains(errors.fix(), "nvidia-smi nvlink -e");
        assertTrue(d.pair("GPU0", "GPU4").causes().isEmpty(), "NVLink pairs across sockets do not cross them");
    }

    @Test
    void theH200NodeIsOneGpuInAVirtualMachineWithoutErrors() throws IOException {
        Diagnosis d = diagnose("h200-vm-node");
        assertTrue(d.pairs().isEmpty());
        assertEquals(1, d.gpus().size());
        Finding vm = d.host(Check.VIRTUAL_MACHINE);
        assertEquals(Status.INFO, vm.status());
        assertContains(vm.summary(), "virtual machine (QEMU", "with one GPU there is no pair");
        assertEquals(Status.OK, d.host(Check.IOMMU).status());
        assertContains(d.host(Check.IOMMU).summary(), "IOMMU off");
        assertContains(d.host(Check.GPUS).summary(), "1 GPU(s) read");
        Finding nvlink = gpuFinding(d, "GPU0", Check.NVLINK_STATE);
        assertEquals(Status.INFO, nvlink.status());
        assertContains(nvlink.summary(), "3 Not Supported", "with one GPU no pair needs one");
        assertEquals(Status.OK, gpuFinding(d, "GPU0", Check.PCIE_LINK).status());
        assertTrue(d.gpus().get(0).findings().stream().noneMatch(f -> f.status() == Status.UNKNOWN
                || f.status() == Status.CAUSE), d.gpus().get(0).findings().toString());
        String text = DoctorText.render(d);
        assertContains(text, "virtual machine", "IOMMU off", "GPU0 0000:01:00.0 NVIDIA H200",
                "Pairs: none (one GPU)");
        assertContains(DoctorText.summary(d), "No GPU pair: one GPU.", "virtual machine", "IOMMU off");
    }

    @Test
    void withoutADriverTheHostAndTheSysfsFindingsStillPrint() throws IOException {
        Diagnosis d = diagnose("no-driver");
        Finding gpus = d.host(Check.GPUS);
        assertEquals(Status.UNKNOWN, gpus.status());
        assertContains(gpus.summary(), "the GPUs could not be read: CUDA is not available");
        assertEquals(List.of("sysfs /sys/bus/pci/devices: 2 NVIDIA GPU(s) (0000:03:00.0, 0000:04:00.0)"),
                gpus.evidence());
        PairDiagnosis p = d.pair("0000:03:00.0", "0000:04:00.0");
        assertEquals(Verdict.UNKNOWN, p.verdict());
        assertEquals("PCIe switch at 0000:01:00.0 (PIX)", p.route());
        assertContains(p.unconfirmed(), "peer access is unknown");
        assertEquals(Status.OK, gpuFinding(d, "0000:03:00.0", Check.PCIE_LINK).status());
        assertEquals(Status.UNKNOWN, gpuFinding(d, "0000:03:00.0", Check.PERSISTENCE).status());
        assertEquals(Status.OK, d.host(Check.VIRTUAL_MACHINE).status());
    }

    @Test
    void measuredFiguresStandBesideTheVerdict() throws IOException {
        Measured m = new Measured(388.6, "CE_P2P_READ", 22.0, "CE_NO_P2P", 256L << 20, "run");
        Diagnosis d = Doctor.diagnose(FixtureMachine.open(FIXTURES.resolve("nvswitch8-link-down")), Map.of("0-1", m));
        assertEquals(m, d.pair("GPU0", "GPU1").measured());
        assertNull(d.pair("GPU1", "GPU0").measured());
        assertContains(DoctorText.render(d), "GPU0 -> GPU1: P2P direct, over 18 NVLinks through NVSwitch (NV18); measured "
                + "at 256 MiB: P2P on 388.6 GB/s (CE_P2P_READ), off 22.0 GB/s (CE_NO_P2P)");
        assertNotNull(DoctorJson.write(d));
    }

    /** A machine as a non-root reader without an lspci capture sees it. */
    private record WithoutLspci(FixtureMachine m) implements MachineSource {
        @Override
        public String description() {
            return m.description();
        }

        @Override
        public String text(String path) throws Unreadable {
            return m.text(path);
        }

        @Override
        public byte[] bytes(String path) throws Unreadable {
            return m.bytes(path);
        }

        @Override
        public List<String> list(String dir) throws Unreadable {
            return m.list(dir);
        }

        @Override
        public String devicePath(String pciBusId) throws Unreadable {
            return m.devicePath(pciBusId);
        }

        @Override
        public java.util.Optional<String> lspci() {
            return java.util.Optional.empty();
        }

        @Override
        public GpuAnswers gpus() {
            return m.gpus();
        }
    }
}
