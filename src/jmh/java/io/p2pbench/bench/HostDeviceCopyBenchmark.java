package io.p2pbench.bench;

import io.p2pbench.cuda.Binding;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.NumaBinding;
import io.p2pbench.transfer.NumaPlacement;
import io.p2pbench.transfer.TransferFixture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * Host-device copies on one GPU: {@code direction} (H2D or D2H) between {@code memory} (pinned or
 * pageable host memory, placed {@code numa} to the GPU) and device memory, with the copy engine
 * (cudaMemcpyAsync). {@link #bandwidth} is device-timed ({@code deviceGBps}); pinned copies are
 * gated, pageable ones cannot be (the driver stages them through its own pinned buffers and may
 * block the host), so their device time includes that staging. {@link #latency} is host-observed
 * time per copy. Comparable to nvbandwidth's host_to_device_memcpy_ce / device_to_host_memcpy_ce.
 *
 * <p>Run: {@code p2pbench run --sizes 64M,1G} (host-device rows), or plain JMH with
 * {@code -p device=0 -p direction=H2D -p memory=PINNED}.
 */
public class HostDeviceCopyBenchmark extends TransferState {
    /** The GPU. */
    @Param({"0"})
    public int device;

    /** H2D or D2H. */
    @Param
    public HostDirection direction;

    /** Pinned or pageable host memory. */
    @Param
    public HostMemory memory;

    /** Host memory on the GPU's NUMA node or another. */
    @Param({"LOCAL"})
    public NumaPlacement numa;

    /** Bytes per copy. */
    @Param({"4", "4096", "1048576", "67108864", "268435456"})
    public long sizeBytes;

    /**
     * Which Java binding enqueues the copy and waits for it: JavaCPP's runtime API unless asked
     * (the planner adds JCUDA_DRIVER rows for small latency sizes; see docs/hardening.md).
     */
    @Param({"JAVACPP_RUNTIME"})
    public Binding binding;

    @Override
    protected TransferFixture open() {
        NumaBinding.require(numa, device);
        return TransferFixture.hostDevice(device, List.of(direction), memory, sizeBytes, binding);
    }

    /** One batch of copies, timed on the device; see {@link DeviceBandwidth}. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void bandwidth(DeviceBandwidth counters) {
        counters.add(batch());
    }

    /** One copy, enqueued and waited for by the host. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void latency() {
        transferOnce();
    }
}
