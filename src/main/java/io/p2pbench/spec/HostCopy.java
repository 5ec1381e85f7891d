package io.p2pbench.spec;

import io.p2pbench.cuda.Binding;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.NumaPlacement;
import java.util.Map;
import java.util.Optional;

/**
 * Copies between host memory and one GPU in one direction.
 *
 * @param numa where the host buffer lives relative to the GPU's NUMA node
 * @param binding the Java binding that issues the copies; results written before it was a parameter read as
 *     {@link Binding#JAVACPP_RUNTIME}
 */
public record HostCopy(int device, HostDirection direction, HostMemory memory, NumaPlacement numa, long sizeBytes,
                       Binding binding) implements WorkloadSpec, HostBuffer {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.HOST_DEVICE_COPY;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(device, direction, memory, numa, sizeBytes, binding);
    }

    /** The same copies through another binding. */
    public HostCopy with(Binding other) {
        return new HostCopy(device, direction, memory, numa, sizeBytes, other);
    }

    @Override
    public HostCopy curve() {
        return new HostCopy(device, direction, memory, numa, 0, binding);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.hostCopy(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.of(this);
    }

    static HostCopy read(Params p) {
        String binding = p.optional("binding");
        return new HostCopy(p.intValue("device"), p.enumValue("direction", HostDirection.class),
                p.enumValue("memory", HostMemory.class), p.enumValue("numa", NumaPlacement.class),
                p.longValue("sizeBytes"),
                binding == null ? Binding.JAVACPP_RUNTIME : p.named("binding", binding, Binding.class));
    }
}
