package io.p2pbench.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The ACS capability walk over a config space, and ACS from lspci -vvv text. */
class AcsTest {
    /** A 4096-byte config space with extended capabilities {@code {id, offset, next}}, ACS control at +6. */
    private static byte[] config(int[][] caps, int acsControl) {
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        for (int[] c : caps) {
            b.putInt(c[1], c[0] | 1 << 16 | c[2] << 20);
            if (c[0] == Acs.CAPABILITY_ID) {
                b.putShort(c[1] + 6, (short) acsControl);
            }
        }
        return b.array();
    }

    @Test
    void findsAcsAfterOtherCapabilities() {
        byte[] cfg = config(new int[][] {{0x0001, 0x100, 0x150}, {0x0019, 0x150, 0x2a0}, {0x000D, 0x2a0, 0}}, 0x000c);
        assertEquals(Optional.of(new Acs.Capability(0x2a0, 0x000c)), Acs.find(cfg));
        assertEquals("SrcValid- TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd- EgressCtrl- DirectTrans-", Acs.bits(0x000c));
    }

    @Test
    void noAcsCapabilityAndAnEmptyListAreNone() {
        assertEquals(Optional.empty(), Acs.find(config(new int[][] {{0x0001, 0x100, 0}}, 0)));
        assertEquals(Optional.empty(), Acs.find(new byte[4096]));
        byte[] allOnes = new byte[4096];
        java.util.Arrays.fill(allOnes, (byte) 0xff);
        assertEquals(Optional.empty(), Acs.find(allOnes), "a device that is gone reads as all ones");
    }

    @Test
    void aLoopOrAPointerOutsideIsMalformedNotAHang() {
        byte[] loop = config(new int[][] {{0x0001, 0x100, 0x140}, {0x0002, 0x140, 0x100}}, 0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Acs.find(loop)).getMessage().contains("loops"));
        byte[] outside = config(new int[][] {{0x0001, 0x100, 0xffc}}, 0);
        byte[] cut = java.util.Arrays.copyOf(outside, 0x200);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Acs.find(cut)).getMessage()
                .contains("outside the 512-byte config space"));
    }

    @Test
    void lspciGivesControlBitsDeniedCapabilitiesAndDevicesWithoutAcs() {
        String text = String.join("\n",
                "02:08.0 PCI bridge: PLX Technology, Inc. PEX 8747 48-Lane, 5-Port PCI Express Gen 3 (8.0 GT/s) Switch",
                "\tCapabilities: [148 v1] Access Control Services",
                "\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+",
                "\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-",
                "",
                "0000:02:10.0 PCI bridge: PLX Technology, Inc. PEX 8747",
                "\tCapabilities: <access denied>",
                "",
                "0000:03:00.0 3D controller: NVIDIA Corporation GH100",
                "\tCapabilities: [100 v1] Virtual Channel", "");
        Map<String, Acs.LspciEntry> m = Acs.parseLspci(text);
        assertEquals(new Acs.LspciEntry(false, 0x1d), m.get("0000:02:08.0"), "a bus id without domain is domain 0");
        assertTrue(m.get("0000:02:10.0").denied());
        assertNull(m.get("0000:03:00.0").control());
        assertFalse(m.get("0000:03:00.0").denied());
    }
}
