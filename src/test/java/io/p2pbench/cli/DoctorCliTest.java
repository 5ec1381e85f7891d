package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.cuda.Cuda;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code p2pbench doctor}: exit 0 with the diagnosis; bad input is one line and exit 2. */
class DoctorCliTest {
    private static final String FIXTURES = "src/test/resources/doctor/";

    @TempDir
    Path tmp;

    @Test
    void aRecordedMachineGetsVerdictsCausesAndFixes() {
        CliTest.Result r = run("doctor", "--machine", FIXTURES + "switch-acs-on");
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().contains("GPU0 -> GPU1: P2P through the CPU, over PCIe switch at 0000:01:00.0 (PIX)"), r.out());
        assertTrue(r.out().contains("fix: Turn ACS redirect off on 0000:02:00.0"), r.out());
        assertTrue(r.out().contains("Verdicts: 2 ordered pair(s): 0 P2P direct, 2 P2P through the CPU"), r.out());
    }

    @Test
    void jsonCarriesEveryPairWithItsCauses() throws Exception {
        CliTest.Result r = run("doctor", "--json", "--machine", FIXTURES + "cloud-vm");
        assertEquals(0, r.code(), r.err());
        JsonNode d = new ObjectMapper().readTree(r.out());
        assertEquals(2, d.get("pairs").size());
        JsonNode p = d.get("pairs").get(0);
        assertEquals("host-staged only", p.get("verdict").asText());
        assertEquals("peer-access", p.get("causes").get(0).get("check").asText());
        assertEquals("cause", p.get("causes").get(0).get("status").asText());
        assertEquals("cudaDeviceCanAccessPeer(0, 1) = 0", p.get("causes").get(0).get("evidence").get(0).asText());
        assertEquals("virtual-machine", d.get("host").get(1).get("check").asText());
    }

    @Test
    void resultsPutMeasuredFiguresBesideTheVerdicts() {
        CliTest.Result r = run("doctor", "--machine", FIXTURES + "nvswitch8-link-down", "--results",
                "src/test/resources/fixtures/results/synthetic-h200x8");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*GPU0 -> GPU1: P2P direct, over 18 NVLinks through NVSwitch \\(NV18\\); measured at "
                + "256 MiB: P2P on \\d+\\.\\d GB/s \\(CE_P2P_READ\\), off \\d+\\.\\d GB/s \\(CE_NO_P2P\\).*"), r.out());
        assertTrue(r.out().contains("Note: measured figures from"), r.out());
    }

    @Test
    void theNodeLikeFixturePrintsOneGpuInAVirtualMachine() {
        CliTest.Result r = run("doctor", "--machine", FIXTURES + "h200-vm-node");
        assertEquals(0, r.code(), r.err());
        for (String s : new String[] {"virtual machine", "IOMMU off", "1 GPU(s) read", "Pairs: none (one GPU)"}) {
            assertTrue(r.out().contains(s), "missing '" + s + "' in:\n" + r.out());
        }
    }

    @Test
    void withoutADriverTheHostFindingsStillPrint() {
        assumeFalse(Cuda.availability().available(), "a GPU is present: this test is for machines without one");
        CliTest.Result r = run("doctor");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("unknown GPUs: the GPUs could not be read: CUDA is not available"), r.out());
        assertTrue(r.out().contains("Virtualisation: "), r.out());
        assertTrue(r.out().contains("IOMMU: "), r.out());
    }

    @Test
    void aMissingOrMalformedRecordedMachineIsOneLine() throws Exception {
        assertOneLine(run("doctor", "--machine", tmp.resolve("nowhere").toString()), "--machine", "nowhere is not a folder");
        Path bad = Files.createDirectories(tmp.resolve("bad"));
        Files.writeString(bad.resolve("gpus.json"), "{\"gpus\": [{\"index\": 0, \"name\": \"x\", \"pciBusId\": \"zz\"}]}");
        assertOneLine(run("doctor", "--machine", bad.toString()), "gpus.json: gpus[0].pciBusId 'zz' is not a PCI bus id");
    }

    @Test
    void badResultsAndLspciFilesAreOneLine() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertOneLine(run("doctor", "--machine", FIXTURES + "switch-acs-off", "--results", empty.toString()), "--results");
        assertOneLine(run("doctor", "--lspci", tmp.resolve("lspci.txt").toString()), "--lspci", "is not a file",
                "sudo lspci -vvv");
        Path lspci = Files.writeString(tmp.resolve("lspci.txt"), "");
        assertOneLine(run("doctor", "--machine", FIXTURES + "switch-acs-off", "--lspci", lspci.toString()),
                "a recorded machine carries its own lspci-vvv.txt");
    }

    @Test
    void helpListsDoctor() {
        assertTrue(run("--help").out().contains("doctor"));
        CliTest.Result r = run("doctor", "--help");
        assertEquals(0, r.code());
        for (String o : new String[] {"--json", "--results", "--machine", "--lspci"}) {
            assertTrue(r.out().contains(o), r.out());
        }
    }
}
