package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.CudaDevices;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaModule;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.JCudaDriverView;
import io.p2pbench.cuda.Nccl;
import io.p2pbench.cuda.Nvrtc;
import io.p2pbench.cuda.PageableHostBuffer;
import io.p2pbench.cuda.PeerAccess;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.StreamGate;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.topology.Topology;
import io.p2pbench.topology.TopologyProbe;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.TransferFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.DynamicTest;

/** The CUDA layer on a real GPU: handles, the gate, NVRTC kernels, the topology probe. */
@RequiresGpu
class GpuHandlesTest {
    private static final long MIB = 1 << 20;

    private static DynamicTest cycles(String name, int times, Supplier<AutoCloseable> make) {
        return DynamicTest.dynamicTest(name + " x" + times, () -> {
            make.get().close(); // first use may allocate context-wide resources once
            long before = Gpu.free(0);
            for (int i = 0; i < times; i++) {
                AutoCloseable h = make.get();
                h.close();
                h.close(); // idempotent
            }
            long after = Gpu.free(0);
            assertTrue(Math.abs(before - after) <= 2 * MIB,
                    name + ": free device memory went from " + before + " to " + after + " bytes");
        });
    }

    @TestFactory
    List<DynamicTest> everyHandleCreatedAndClosed200TimesLeavesDeviceMemoryWhereItStarted() {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(cycles("DeviceBuffer 64 MiB", 200, () -> new DeviceBuffer(0, 64 * MIB)));
        tests.add(cycles("PinnedHostBuffer 4 MiB", 200, () -> new PinnedHostBuffer(4 * MIB)));
        tests.add(cycles("PageableHostBuffer 4 MiB", 200, () -> new PageableHostBuffer(4 * MIB)));
        tests.add(cycles("CudaStream", 200, () -> new CudaStream(0)));
        tests.add(cycles("CudaEvent timing", 200, () -> CudaEvent.timing(0)));
        tests.add(cycles("CudaEvent ordering", 200, () -> CudaEvent.ordering(0)));
        tests.add(cycles("StreamGate", 200, StreamGate::new));
        Nvrtc.Image image = Nvrtc.compile(SuiteKernels.source(), "p2pbench_kernels",
                CudaDevices.describe(0).ccMajor(), CudaDevices.describe(0).ccMinor());
        tests.add(cycles("CudaModule", 200, () -> new CudaModule(0, image)));
        tests.add(cycles("TransferFixture CE_P2P_READ 0-0 1 MiB", 200,
                () -> TransferFixture.peer(CopyPath.CE_P2P_READ, new GpuPair(0, 0), MIB, true, 4 * MIB)));
        tests.add(cycles("TransferFixture HOST_STAGED 0-0 8 MiB", 200,
                () -> TransferFixture.peer(CopyPath.HOST_STAGED, new GpuPair(0, 0), 8 * MIB, false, 4 * MIB)));
        tests.add(cycles("Nccl on GPU 0", 20, () -> Nccl.open(0)));
        return tests;
    }

    @Test
    void peerAccessNeedsTwoGpusAndPair00IsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PeerAccess.enable(0, 0));
        assertTrue(e.getMessage().contains("two different GPUs"), e.getMessage());
        PeerAccess.ensureDisabled(0, 0); // a no-op, never an error
    }

    /**
     * Waits for the work behind {@code after} to run, up to a minute: polls the event, as a blocking synchronize
     * would never return when what is tested (a release) does not happen.
     */
    private static void awaitComplete(CudaEvent after) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!after.isComplete() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    private static void holdsThenReleases(String mode, StreamGate.Mode expected) throws InterruptedException {
        String old = System.getProperty(StreamGate.MODE_PROPERTY);
        System.setProperty(StreamGate.MODE_PROPERTY, mode);
        StreamGate.resetModes();
        try (CudaStream stream = new CudaStream(0); CudaEvent after = CudaEvent.ordering(0);
             StreamGate gate = new StreamGate()) {
            gate.hold(stream);
            after.record(stream);
            Thread.sleep(200);
            assertFalse(after.isComplete(), mode + ": work behind the gate ran before release");
            gate.release();
            awaitComplete(after);
            assertTrue(after.isComplete(), mode + ": work behind the gate did not run after release");
            assertEquals(expected, StreamGate.modeOf(0));
            // a second cycle with the same gate
            gate.hold(stream);
            after.record(stream);
            Thread.sleep(50);
            assertFalse(after.isComplete());
            gate.release();
            after.synchronize();
        } finally {
            if (old == null) {
                System.clearProperty(StreamGate.MODE_PROPERTY);
            } else {
                System.setProperty(StreamGate.MODE_PROPERTY, old);
            }
            StreamGate.resetModes();
        }
    }

    @Test
    void gateHoldsAndReleasesWithStreamWaitValue() throws InterruptedException {
        holdsThenReleases("wait", StreamGate.Mode.WAIT_VALUE);
    }

    @Test
    void gateHoldsAndReleasesWithSpinKernel() throws InterruptedException {
        holdsThenReleases("spin", StreamGate.Mode.SPIN_KERNEL);
    }

    @Test
    void gateWatchdogLetsStreamsGoAndDiscardsTheCycle() throws InterruptedException {
        try (CudaStream stream = new CudaStream(0); CudaEvent after = CudaEvent.ordering(0);
             StreamGate gate = new StreamGate(Duration.ofMillis(300))) {
            gate.hold(stream);
            after.record(stream);
            awaitComplete(after);
            assertTrue(after.isComplete(), "the watchdog did not release the stream");
            IllegalStateException e = assertThrows(IllegalStateException.class, gate::release);
            assertTrue(e.getMessage().contains("not released within 300 ms"), e.getMessage());
        }
    }

    @Test
    void jcudaAndJavacppSeeTheSameGpus() {
        JCudaDriverView.View view = JCudaDriverView.read();
        assertEquals("", view.problem());
        List<String> ours = new ArrayList<>();
        for (int i = 0; i < io.p2pbench.cuda.Cuda.availability().deviceCount(); i++) {
            ours.add(CudaDevices.pciBusId(i));
        }
        assertEquals(ours, view.pciBusIds());
    }

    @Test
    void topologyOfThisMachine() {
        Topology t = TopologyProbe.probe();
        assertEquals(io.p2pbench.cuda.Cuda.availability().deviceCount(), t.gpuCount());
        assertEquals("X", t.pair(0, 0).orElseThrow().link().label());
        assertTrue(t.fingerprint().matches("[a-z0-9+-]+x\\d+.*-r\\d+"), t.fingerprint());
        assertEquals(t.gpuCount() * t.gpuCount(), t.pairs().size());
    }

    /**
     * A fork group's stream reuse: a second fixture opening streams in the same order gets the first one's
     * kept streams back (no new native stream), a third concurrent one makes one more, turning reuse off or a
     * context reset destroys the idle ones, and the kept streams leave device memory where it started.
     */
    @SuppressWarnings("try") // the streams is held for the block, not used in it
    @Test
    void keptStreamsAreReusedInOrderAndDestroyedOnResetOrWhenTurnedOff() {
        assertEquals(0, CudaStream.keptStreams(0));
        long before = Gpu.free(0);
        CudaStream.reuseStreams(true);
        try {
            for (int fixture = 0; fixture < 50; fixture++) {
                try (CudaStream a = new CudaStream(0); CudaStream b = new CudaStream(0)) {
                    try (StreamGate g = new StreamGate()) {
                        g.hold(a);
                        g.release();
                    }
                    a.synchronize();
                    b.synchronize();
                    assertEquals(2, CudaStream.keptStreams(0), "fixture " + fixture);
                }
            }
            try (CudaStream a = new CudaStream(0); CudaStream b = new CudaStream(0); CudaStream c = new CudaStream(0)) {
                assertEquals(3, CudaStream.keptStreams(0));
                assertThrows(IllegalStateException.class, io.p2pbench.cuda.Cuda::resetDevices,
                        "a reset with open kept streams must refuse");
            }
            assertEquals(3, CudaStream.keptStreams(0));
            io.p2pbench.cuda.Cuda.resetDevices();
            assertEquals(0, CudaStream.keptStreams(0));
            new CudaStream(0).close();
            assertEquals(1, CudaStream.keptStreams(0));
        } finally {
            CudaStream.reuseStreams(false);
        }
        assertEquals(0, CudaStream.keptStreams(0));
        long after = Gpu.free(0);
        assertTrue(Math.abs(before - after) <= 2 * MIB, "free device memory went from " + before + " to " + after);
    }
}
