package io.p2pbench.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Parts of the CUDA layer that need no GPU. */
class CudaLayerTest {

    @Test
    void visibleDevicesSyntax() {
        assertEquals(Optional.empty(), VisibleDevices.checkSyntax(null));
        assertEquals(Optional.empty(), VisibleDevices.checkSyntax("0,1"));
        assertEquals(Optional.empty(), VisibleDevices.checkSyntax("GPU-5f2a1b3c-0000-1111-2222-333344445555"));
        assertTrue(VisibleDevices.checkSyntax("").orElseThrow().contains("set but empty"));
        assertTrue(VisibleDevices.checkSyntax("  ").orElseThrow().contains("set but empty"));
        String bad = VisibleDevices.checkSyntax("0,gpu1").orElseThrow();
        assertTrue(bad.contains("'gpu1'") && bad.contains("neither a GPU index"), bad);
    }

    @Test
    void visibleDevicesNamingAMissingGpu() {
        assertEquals(Optional.empty(), VisibleDevices.checkAgainstCount("0", 1));
        String missing = VisibleDevices.checkAgainstCount("0,7", 1).orElseThrow();
        assertTrue(missing.contains("names GPU '7'") && missing.contains("does not exist"), missing);
        String twice = VisibleDevices.checkAgainstCount("0,0", 1).orElseThrow();
        assertTrue(twice.contains("names GPU '0' twice"), twice);
    }

    @Test
    void pciBusIdsHaveOneSpelling() {
        assertEquals("0000:18:00.0", PciBusId.normalize("00000000:18:00.0"));
        assertEquals("0000:18:00.0", PciBusId.normalize("0000:18:00.0"));
        assertEquals("0000:9a:00.0", PciBusId.normalize("0000:9A:00.0"));
        assertEquals("0001:03:1f.7", PciBusId.normalize("1:3:1f.7"));
        assertEquals("00000000:18:00.0", PciBusId.nvmlForm("0000:18:00.0"));
    }

    @Test
    void argumentsAndVersionsFormat() {
        assertEquals("dst=1, src=0, bytes=1048576", Cuda.formatArgs("dst", 1, "src", 0, "bytes", 1048576));
        assertEquals("13.0", Cuda.formatVersion(13000));
        assertEquals("12.6", Cuda.formatVersion(12060));
        CudaException e = new CudaException("cudaMemcpyPeerAsync", "dst=1, src=0, bytes=1048576", 217,
                "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices");
        assertEquals("cudaMemcpyPeerAsync(dst=1, src=0, bytes=1048576) failed: 217 cudaErrorPeerAccessUnsupported "
                + "(peer access is not supported between these two devices)", e.getMessage());
        assertEquals(217, e.code());
    }

    @Test
    void loadFailuresBecomeOneActionableLine() {
        String line = Cuda.describeLoadFailure(new UnsatisfiedLinkError(
                "/root/.javacpp/cache/jnicudart.so: libcuda.so.1: cannot open shared object file"));
        assertTrue(line.contains("libcuda.so.1 was not found"), line);
        assertEquals(1, line.lines().count());
        String nested = Cuda.describeLoadFailure(new ExceptionInInitializerError(
                new UnsatisfiedLinkError("libcudart.so.13: cannot open")));
        assertTrue(nested.contains("libcudart.so.13"), nested);
    }

    @Test
    void stringsFromFixedBuffersEndAtTheirNul() {
        try (org.bytedeco.javacpp.BytePointer p = new org.bytedeco.javacpp.BytePointer(32)) {
            p.put("580.159.04\0: leftover bytes of earlier use".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    0, 32);
            assertEquals("580.159.04", Pointers.cString(p));
        }
    }

    @Test
    void resourcesCloseLastFirstAndAllOfThemEvenWhenOneFails() {
        java.util.List<String> closed = new java.util.ArrayList<>();
        java.util.List<AutoCloseable> owned = new java.util.ArrayList<>(java.util.List.of(
                () -> closed.add("buffer"),
                () -> {
                    closed.add("stream");
                    throw new IllegalStateException("stream broke");
                },
                () -> closed.add("gate")));
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> Resources.closeReversed(owned));
        assertEquals("stream broke", e.getMessage());
        assertEquals(java.util.List.of("gate", "stream", "buffer"), closed);
        assertTrue(owned.isEmpty());
    }

    @Test
    void uuidsAreSpelledAsNvidiaSmiDoes() {
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) {
            b[i] = (byte) (i * 17);
        }
        assertEquals("GPU-00112233-4455-6677-8899-aabbccddeeff", CudaDevices.formatUuid(b));
    }
}
