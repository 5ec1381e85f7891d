package io.p2pbench.report.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.report.Fixtures;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.CopyPath;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A peer copy's path is typed on its key, so that P2P on/off and over-PCIe decisions never read the path text. */
class CopyPathRouteTest {
    @Test
    void everyCopyPathIsTypedOnAKeyReadFromItsText() {
        for (CopyPath p : CopyPath.values()) {
            Measurement.Key k = new Measurement.Key("bandwidth", "peer", p.name(), "one-way", "0-1", 1 << 20);
            assertEquals(p, k.route().copyPath());
            assertEquals(p == CopyPath.HOST_STAGED, k.route().hostStaged());
            assertEquals(p.needsPeerAccess(), k.route().peerAccess());
        }
        Measurement.Key binding = new Measurement.Key("latency", "peer", "CE_P2P_READ via JCuda driver API",
                "one-way", "0-1", 4096);
        assertEquals(CopyPath.CE_P2P_READ, binding.route().copyPath());
    }

    @Test
    void otherRowsHaveNoCopyPath() {
        assertNull(new Measurement.Key("bandwidth", "host", "PINNED LOCAL", "H2D", "GPU0", 1 << 20).route()
                .copyPath());
        Measurement.Key exchange = new Measurement.Key("bandwidth", "exchange", "TENSOR DENSE_8B over HOST_STAGED",
                "bus", "0,0,0,0", 32 << 20);
        assertNull(exchange.route().copyPath());
        assertTrue(exchange.route().hostStaged());
        assertFalse(Route.PLAIN.peerAccess());
    }

    /** An exchange's pattern is typed on its key as read from a result folder (the spec, not the path text). */
    @Test
    void anExchangesPatternIsTypedOnItsKey() throws Exception {
        ResultData run = ResultReader.read(Fixtures.X8);
        Map<ActivationExchange.Pattern, Boolean> seen = new EnumMap<>(ActivationExchange.Pattern.class);
        for (Measurement m : run.measurements()) {
            if (m.key().is(Kind.EXCHANGE)) {
                ActivationExchange.Pattern p = m.key().route().exchange();
                assertTrue(m.key().path().startsWith(p.name() + " "), m.key().path());
                assertEquals(p == ActivationExchange.Pattern.TENSOR, m.key().route().allReduceExchange());
                seen.put(p, true);
            }
        }
        assertEquals(EnumSet.allOf(ActivationExchange.Pattern.class), seen.keySet(), "the fixture has every pattern");
    }
}
