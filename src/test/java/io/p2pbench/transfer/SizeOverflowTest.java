package io.p2pbench.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.topology.GpuPair;
import org.junit.jupiter.api.Test;

/** Size arithmetic that cannot wrap (issue 25: 4194304T planned as if it fitted a GPU). */
class SizeOverflowTest {
    @Test
    void theLargestSizesParseAndOneMoreIsRefused() {
        assertEquals(8388607L << 40, Sizes.parse("8388607T"));
        assertEquals(Long.MAX_VALUE - 31, Sizes.parse("9223372036854775776"));
        for (String tooLarge : new String[] {"8388608T", "9223372036854775808", "9007199254740992G",
            "99999999999999999999999"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(tooLarge));
            assertTrue(e.getMessage().startsWith("size '" + tooLarge + "' is too large: it does not fit in 64 bits"),
                    e.getMessage());
        }
    }

    @Test
    void deviceBytesSaturateInsteadOfWrapping() {
        GpuPair same = GpuPair.parse("0-0");
        GpuPair two = GpuPair.parse("0-1");
        assertEquals(4L << 30, Feasibility.deviceBytesPerGpu(same, 1L << 30, true));
        assertEquals(1L << 30, Feasibility.deviceBytesPerGpu(two, 1L << 30, false));
        assertEquals(Long.MAX_VALUE, Feasibility.deviceBytesPerGpu(same, 1L << 62, false), "2 x 2^62 wrapped negative");
        assertEquals(Long.MAX_VALUE, Feasibility.deviceBytesPerGpu(two, Long.MAX_VALUE - 31, true));
    }
}
