package io.p2pbench.bench;

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
 * Host to device and device to host at the same time on one GPU, each on its own stream: forward is
 * H2D, reverse is D2H ({@link BidirectionalBandwidth}). Comparable to nvbandwidth's
 * host_to_device_bidirectional_memcpy_ce (its H2D figure is our {@code forwardGBps}) and
 * device_to_host_bidirectional_memcpy_ce ({@code reverseGBps}).
 *
 * <p>Run: {@code p2pbench run --sizes 256M} (host-device bidirectional rows).
 */
public class HostDeviceBidirectionalBenchmark extends TransferState {
    /** The GPU. */
    @Param({"0"})
    public int device;

    /** Pinned or pageable host memory. */
    @Param
    public HostMemory memory;

    /** Host memory on the GPU's NUMA node or another. */
    @Param({"LOCAL"})
    public NumaPlacement numa;

    /** Bytes per copy, in each direction. */
    @Param({"1048576", "268435456"})
    public long sizeBytes;

    @Override
    protected TransferFixture open() {
        NumaBinding.require(numa, device);
        return TransferFixture.hostDevice(device, List.of(HostDirection.H2D, HostDirection.D2H), memory, sizeBytes);
    }

    /** One batch in both directions at once, timed on the device per direction. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void bandwidth(BidirectionalBandwidth counters) {
        counters.add(batch());
    }
}
