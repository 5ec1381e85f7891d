package io.p2pbench.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The shared allocation behaviour, on pageable host memory (malloc: no GPU needed). */
class AllocationTest {
    @Test
    void hostViewIsLittleEndianAndOffsetsStayInside() {
        try (PageableHostBuffer b = new PageableHostBuffer(64)) {
            assertEquals(Memory.Kind.PAGEABLE_HOST, b.kind());
            assertEquals(-1, b.device());
            assertEquals(64, b.bytes());
            ByteBuffer v = b.hostView();
            assertEquals(0, v.getInt(60), "malloc'd memory is zeroed when allocated");
            v.putInt(8, 0x11223344);
            assertEquals(0x44, b.hostView().get(8), "little-endian");
            assertEquals(8, b.at(8).position(), "JavaCPP adds the position when the pointer is passed to C");
            assertEquals(b.address(), b.at(8).address());
            assertEquals(0, b.base().position(), "views leave the base where it was");
            assertThrows(IndexOutOfBoundsException.class, () -> b.at(65));
        }
    }

    @Test
    void closeFreesOnceAndUseAfterCloseSaysWhat() {
        PageableHostBuffer b = new PageableHostBuffer(16);
        b.close();
        b.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, b::address);
        assertTrue(e.getMessage().equals("pageable host buffer is closed"), e.getMessage());
    }

    @Test
    void sizeMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PageableHostBuffer(0));
        assertEquals("bytes must be positive, was 0", e.getMessage());
    }
}
