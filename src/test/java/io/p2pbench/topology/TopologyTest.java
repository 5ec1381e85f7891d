package io.p2pbench.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyTest {

    private static String row(String matrix, String name) {
        return matrix.lines().filter(l -> l.startsWith(name + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + name + " in\n" + matrix));
    }

    private static List<String> cells(String row) {
        return List.of(row.trim().split("\\s{2,}"));
    }

    @Test
    void nvswitchMachineIsNv18EverywhereAndSelfOnTheDiagonal() {
        Topology t = SyntheticTopologies.nvswitch8();
        assertEquals(64, t.pairs().size());
        for (PairInfo p : t.pairs()) {
            assertEquals(p.self() ? "X" : "NV18", p.link().label(), p.src() + "->" + p.dst());
        }
        assertEquals("h200x8-nv18-r580", t.fingerprint());
        String matrix = TopologyPrinter.linkMatrix(t);
        assertEquals(List.of("GPU3", "NV18", "NV18", "NV18", "X", "NV18", "NV18", "NV18", "NV18", "0-47,96-143", "0"),
                cells(row(matrix, "GPU3")));
        assertTrue(matrix.contains("NV#  = a bonded set of # NVLinks"), matrix);
    }

    @Test
    void pcieMachineIsPixWithinASwitchAndSysAcrossSockets() {
        Topology t = SyntheticTopologies.pcie8TwoSwitches();
        assertEquals("PIX", t.pair(0, 3).orElseThrow().link().label());
        assertEquals("PIX", t.pair(5, 4).orElseThrow().link().label());
        assertEquals("SYS", t.pair(0, 4).orElseThrow().link().label());
        assertEquals("SYS", t.pair(7, 1).orElseThrow().link().label());
        assertEquals("l40sx8-pix+sys-r580", t.fingerprint());
        List<String> p2p = cells(row(TopologyPrinter.p2pMatrix(t), "GPU1"));
        assertEquals(List.of("GPU1", "OK", "X", "OK", "OK", "NS", "NS", "NS", "NS"), p2p);
    }

    @Test
    void twoGpusWithoutP2pShowNsBothWays() {
        Topology t = SyntheticTopologies.twoWithoutP2p();
        assertFalse(t.pair(0, 1).orElseThrow().canAccessPeer());
        assertFalse(t.pair(1, 0).orElseThrow().canAccessPeer());
        assertEquals("PHB", t.pair(1, 0).orElseThrow().link().label());
        String p2p = TopologyPrinter.p2pMatrix(t);
        assertEquals(List.of("GPU0", "X", "NS"), cells(row(p2p, "GPU0")));
        assertEquals(List.of("GPU1", "NS", "X"), cells(row(p2p, "GPU1")));
        assertTrue(p2p.contains("NS   = no P2P"), p2p);
        assertEquals("rtx-6000-ada-generationx2-phb-r580", t.fingerprint());
    }

    @Test
    void directNvlinkCountsOnlyLinksThatEndAtThePeer() {
        GpuInfo a = SyntheticTopologies.gpu(0, "NVIDIA H100", 0, "0-7", List.of(
                new GpuInfo.NvLinkInfo(0, true, 4, SyntheticTopologies.bus(1), "gpu"),
                new GpuInfo.NvLinkInfo(1, true, 4, SyntheticTopologies.bus(1), "gpu"),
                new GpuInfo.NvLinkInfo(2, true, 4, SyntheticTopologies.bus(2), "gpu"),
                new GpuInfo.NvLinkInfo(3, false, 4, SyntheticTopologies.bus(1), "gpu")));
        GpuInfo b = SyntheticTopologies.gpu(1, "NVIDIA H100", 0, "0-7", List.of());
        GpuInfo c = SyntheticTopologies.gpu(2, "NVIDIA H100", 0, "0-7", List.of());
        GpuInfo d = SyntheticTopologies.gpu(3, "NVIDIA H100", 0, "0-7", List.of());
        assertEquals("NV2", LinkClassifier.classify(a, b, 50).label());
        assertEquals("NV1", LinkClassifier.classify(a, c, 50).label());
        assertEquals("NODE", LinkClassifier.classify(a, d, 40).label());
        assertEquals("?", LinkClassifier.classify(a, d, null).label());
    }

    @Test
    void singleGpuFingerprintAndMatrix() {
        Topology t = SyntheticTopologies.singleH200();
        assertEquals("h200x1-single-r580", t.fingerprint());
        assertEquals(List.of("GPU0", "X", "N/A", "N/A"), cells(row(TopologyPrinter.linkMatrix(t), "GPU0")));
    }

    @Test
    void linkClassLabelsRoundTripAndOrderNearestFirst() {
        for (String label : List.of("X", "NV18", "NV4", "PIX", "PXB", "PHB", "NODE", "SYS", "?")) {
            assertEquals(label, LinkClass.parse(label).label());
        }
        assertTrue(LinkClass.nvlink(18).compareTo(LinkClass.nvlink(4)) < 0);
        assertTrue(LinkClass.nvlink(1).compareTo(LinkClass.parse("PIX")) < 0);
        assertTrue(LinkClass.parse("NODE").compareTo(LinkClass.parse("SYS")) < 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinkClass.parse("NVX"));
        assertTrue(e.getMessage().contains("'NVX' is not a link class"), e.getMessage());
    }

    @Test
    void jsonRoundTripKeepsEverything(@TempDir Path dir) throws IOException {
        Topology t = SyntheticTopologies.nvswitch8();
        Path f = dir.resolve("t.json");
        Files.writeString(f, TopologyJson.write(t));
        Topology back = TopologyJson.read(f);
        assertEquals(t, back);
        assertTrue(Files.readString(f).contains("\"link\" : \"NV18\""));
    }

    @Test
    void readingSomethingElseSaysWhatIsWrong(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("x.json");
        Files.writeString(f, "{\"hello\": 1}");
        IOException e = assertThrows(IOException.class, () -> TopologyJson.read(f));
        assertTrue(e.getMessage().contains("is not a p2pbench topology"), e.getMessage());
        Files.writeString(f, "{\"gpus\": [");
        e = assertThrows(IOException.class, () -> TopologyJson.read(f));
        assertTrue(e.getMessage().contains("is not a p2pbench topology JSON"), e.getMessage());
    }
}
