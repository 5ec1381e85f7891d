package io.p2pbench.spec;

import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.NumaPlacement;
import java.util.Map;
import java.util.Optional;

/** Host-to-device and device-to-host copies of one GPU at once. */
public record HostCopyBidirectional(int device, HostMemory memory, NumaPlacement numa, long sizeBytes)
        implements WorkloadSpec, HostBuffer {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.HOST_DEVICE_BIDIRECTIONAL;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(device, memory, numa, sizeBytes);
    }

    @Override
    public HostCopyBidirectional curve() {
        return new HostCopyBidirectional(device, memory, numa, 0);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.hostCopyBidirectional(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.of(this);
    }

    static HostCopyBidirectional read(Params p) {
        return new HostCopyBidirectional(p.intValue("device"), p.enumValue("memory", HostMemory.class),
                p.enumValue("numa", NumaPlacement.class), p.longValue("sizeBytes"));
    }
}
