package io.p2pbench.report.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.Measurement;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyJson;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LinkRatesTest {
    private static final Path H200X8 = Path.of("src/test/resources/topologies/h200x8-nv18-r580.json");
    private static final Path L40S = Path.of("src/test/resources/topologies/l40sx8-pix+sys-r580.json");

    private static Measurement m(String kind, String path, String direction, String pair, String link) {
        return new Measurement(new Measurement.Key("bandwidth", kind, path, direction, pair, 1 << 20), "m", link,
                false, "sweep", "id", new double[] {1}, "test");
    }

    @Test
    void nvlink4PairIsEighteenLinksOf25() throws Exception {
        Topology t = TopologyJson.read(H200X8);
        LinkRates.Reference r = LinkRates.of(m("peer", "CE_P2P_READ", "one-way", "0-1", "NV18"), t);
        assertEquals(450.0, r.gbps(), 1e-9);
        assertEquals("NVLink 4: 18 links x 25 GB/s per direction", r.assumption());
        LinkRates.Reference sum = LinkRates.of(m("peer", "CE_P2P_READ", "both ways (sum)", "0-1", "NV18"), t);
        assertEquals(900.0, sum.gbps(), 1e-9);
        assertTrue(sum.assumption().startsWith("both directions: 2 x NVLink 4"));
    }

    @Test
    void copiesWithoutP2pAreHeldToPcie() throws Exception {
        Topology t = TopologyJson.read(H200X8);
        LinkRates.Reference r = LinkRates.of(m("peer", "HOST_STAGED", "one-way", "0-1", "NV18"), t);
        assertEquals(16 * 3.938, r.gbps(), 1e-9);
        assertTrue(r.assumption().startsWith("PCIe Gen5 x16"));
    }

    @Test
    void deviceLocalAndUnknownHaveNoReference() throws Exception {
        Topology t = TopologyJson.read(H200X8);
        LinkRates.Reference local = LinkRates.of(m("peer", "CE_P2P_READ", "one-way", "0-0", "X"), t);
        assertFalse(local.known());
        assertEquals("no reference rate (device-local copy)", local.assumption());
        assertTrue(Double.isNaN(local.efficiency(100)));
        assertFalse(LinkRates.of(m("peer", "CE_P2P_READ", "one-way", "0-1", "NV18"), null).known());
        assertTrue(Double.isNaN(LinkRates.nvlinkGBps(1)) && Double.isNaN(LinkRates.pcieLaneGBps(7)));
    }

    @Test
    void pciePairIsHeldToItsSlowerGpu() throws Exception {
        Topology t = TopologyJson.read(L40S);
        LinkRates.Reference r = LinkRates.of(m("peer", "CE_P2P_READ", "one-way", "0-1", "PIX"), t);
        assertTrue(r.known());
        assertTrue(r.assumption().startsWith("PCIe Gen"), r.assumption());
    }

    @Test
    void collectiveBusBandwidthIsHeldToTheMembersLinks() throws Exception {
        Topology t = TopologyJson.read(H200X8);
        assertEquals(450.0, LinkRates.of(m("nccl", "ALL_REDUCE FLOAT32", "bus", "0,1,2,3", "group of 4"), t).gbps(), 1e-9);
        LinkRates.Reference single = LinkRates.of(m("exchange", "TENSOR DENSE_8B over P2P", "bus", "0,0,0,0", "group of 4"), t);
        assertEquals("no reference rate (" + Measurement.SINGLE_GPU + ")", single.assumption());
    }
}
