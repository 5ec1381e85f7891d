package io.p2pbench.cuda;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What JCuda is handed for the suite's own memory (no GPU needed: no JCuda native call is made). */
class JCudaCopyTest {
    @Test
    void aDevicePointerIsTheAddressItselfWithNoOffset() {
        String p = JCudaCopy.devicePointer(0x7f12_3456_7000L).toString();
        assertTrue(p.contains("0x7f1234567000") && p.contains("byteOffset=0"), p);
    }
}
