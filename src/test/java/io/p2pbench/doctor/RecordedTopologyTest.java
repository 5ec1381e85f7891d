package io.p2pbench.doctor;

import static io.p2pbench.doctor.DoctorFixturesTest.assertContains;
import static io.p2pbench.doctor.DoctorFixturesTest.cause;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.doctor.Finding.Status;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a result folder's topology.json shows: the report's machine section. */
class RecordedTopologyTest {
    private static Diagnosis recorded(String name) throws IOException {
        Topology t = TopologyJson.read(Path.of("src/test/resources/topologies", name));
        return Doctor.fromRecorded(t, "topology.json of " + name, Map.of());
    }

    @Test
    void pcieSwitchPairsAreDirectButAcsIsNotRecorded() throws IOException {
        Diagnosis d = recorded("l40sx8-pix+sys-r580.json");
        PairDiagnosis p = d.pair("GPU0", "GPU1");
        assertEquals(Verdict.P2P_DIRECT, p.verdict());
        assertEquals("PIX", p.link());
        assertContains(p.unconfirmed(), "could not be read", Doctor.NOT_RECORDED, "their ACS is unknown");
        assertTrue(d.notes().get(0).startsWith("Not recorded in a result folder: PCIe ACS"), d.notes().toString());
    }

    @Test
    void crossSocketPairsWithoutPeerAccessAreHostStaged() throws IOException {
        Diagnosis d = recorded("l40sx8-pix+sys-r580.json");
        PairDiagnosis p = d.pair("GPU0", "GPU4");
        assertEquals(Verdict.HOST_STAGED_ONLY, p.verdict());
        assertContains(cause(p, Check.PEER_ACCESS).summary(), "does not forward peer traffic between CPU sockets");
        Finding socket = cause(p, Check.CROSS_SOCKET);
        assertEquals(Status.CAUSE, socket.status());
        assertContains(socket.summary(), "Host staging crosses it too");
        assertContains(socket.evidence().get(0), "GPU0 NUMA node: 0; GPU4 NUMA node: 1");
        String summary = DoctorText.summary(d);
        assertContains(summary, "GPU0  X     D     D     D     H*", "Peer access, GPU0-GPU4");
    }

    @Test
    void theRecordedH200NodeIsOneGpuInAVirtualMachine() throws IOException {
        Topology t = TopologyJson.read(Path.of("results/h200x1-single-r580/2026-12-02T14-23-44Z/topology.json"));
        Diagnosis d = Doctor.fromRecorded(t, "the H200 node", Map.of());
        assertTrue(d.pairs().isEmpty());
        Finding vm = d.host(Check.VIRTUAL_MACHINE);
        assertEquals(Status.INFO, vm.status());
        assertContains(vm.summary(), "virtual machine", "with one GPU there is no pair");
        assertEquals("topology.json host.virtualization: virtual machine", vm.evidence().get(0));
        assertEquals("IOMMU off", d.host(Check.IOMMU).summary());
        assertContains(DoctorText.summary(d), "No GPU pair: one GPU.");
    }
}
