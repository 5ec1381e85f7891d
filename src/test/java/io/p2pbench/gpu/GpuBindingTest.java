package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.Binding;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.DataMismatchException;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.TransferFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JCuda binding moves verified bytes on the same buffers and streams as the JavaCPP path:
 * device-local, host to device and device to host copies at latency sizes, enqueued with
 * cuMemcpy*Async and waited for with cuStreamSynchronize. A check without a copy fails, so a JCuda
 * copy that did nothing could not pass.
 */
@RequiresGpu
class GpuBindingTest {
    private static final long[] SIZES = {4, 4096, 65536};

    /** Poison, copy a few times through the binding, verify; returns the bytes verified. */
    private static long copyAndVerify(TransferFixture f) {
        f.poison();
        for (int i = 0; i < 100; i++) {
            f.transferOnce();
        }
        f.verify();
        return f.bytesVerified();
    }

    @Test
    void deviceLocalCopiesThroughJCudaAreVerified() {
        for (long size : SIZES) {
            try (TransferFixture f = TransferFixture.peer(CopyPath.CE_P2P_READ, new GpuPair(0, 0), size, false,
                    TransferFixture.DEFAULT_STAGING_CHUNK, Binding.JCUDA_DRIVER)) {
                assertTrue(copyAndVerify(f) >= size, size + " B");
                f.poison();
                assertThrows(DataMismatchException.class, f::verify, "a check without a copy must fail");
            }
        }
    }

    @Test
    void hostDeviceCopiesThroughJCudaAreVerifiedBothWays() {
        for (HostDirection d : HostDirection.values()) {
            for (long size : SIZES) {
                try (TransferFixture f = TransferFixture.hostDevice(0, List.of(d), HostMemory.PINNED, size,
                        Binding.JCUDA_DRIVER)) {
                    assertTrue(copyAndVerify(f) >= size, d + " " + size + " B");
                }
            }
        }
    }

    @Test
    void jcudaCopiesWorkBehindTheGateToo() {
        try (TransferFixture f = TransferFixture.hostDevice(0, List.of(HostDirection.H2D), HostMemory.PINNED, 1 << 20,
                Binding.JCUDA_DRIVER)) {
            double gbps = f.measureBatch().gbps(0);
            assertTrue(gbps > 0 && Double.isFinite(gbps), gbps + " GB/s");
        }
    }

    @Test
    void pathsWithoutAJCudaVariantAreSkippedWithTheReason() {
        var e = assertThrows(io.p2pbench.transfer.BenchmarkSkipped.class, () -> TransferFixture.peer(
                CopyPath.HOST_STAGED, new GpuPair(0, 0), 4, false, TransferFixture.DEFAULT_STAGING_CHUNK,
                Binding.JCUDA_DRIVER));
        assertTrue(e.getMessage().startsWith("HOST_STAGED has no JCuda driver API variant"), e.getMessage());
        assertEquals(Binding.JCUDA_DRIVER, Binding.valueOf("JCUDA_DRIVER"));
    }

    @Test
    void peerCopiesBetweenTwoGpusThroughJCudaWhereThereAreTwo() {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.p2pbench.cuda.Cuda.availability().deviceCount() > 1,
                "one GPU: no peer pair");
        org.junit.jupiter.api.Assumptions.assumeTrue(io.p2pbench.cuda.Cuda.canAccessPeer(0, 1)
                && io.p2pbench.cuda.Cuda.canAccessPeer(1, 0), "GPUs 0 and 1 have no peer access");
        try (TransferFixture f = TransferFixture.peer(CopyPath.CE_P2P_READ, new GpuPair(0, 1), 4096, false,
                TransferFixture.DEFAULT_STAGING_CHUNK, Binding.JCUDA_DRIVER)) {
            assertTrue(copyAndVerify(f) >= 4096);
        }
    }
}
