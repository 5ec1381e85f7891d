package io.p2pbench.spec;

import io.p2pbench.cuda.Binding;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.transfer.CopyPath;
import java.util.Map;
import java.util.Optional;

/**
 * Copies from one GPU to another (or within one, pair {@code 0-0}) in one direction.
 *
 * @param binding the Java binding that issues the copies; results written before it was a parameter read as
 *     {@link Binding#JAVACPP_RUNTIME}
 */
public record PeerCopy(GpuPair pair, CopyPath path, long sizeBytes, Binding binding) implements WorkloadSpec {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.PEER_COPY;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(pair, path, sizeBytes, binding);
    }

    /** The same copies through another binding. */
    public PeerCopy with(Binding other) {
        return new PeerCopy(pair, path, sizeBytes, other);
    }

    /** Nothing crosses an interconnect between GPUs. */
    public boolean singleGpu() {
        return pair.sameGpu();
    }

    @Override
    public PeerCopy curve() {
        return new PeerCopy(new GpuPair(0, 0), path, 0, binding);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.peerCopy(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.empty();
    }

    @Override
    public Optional<PeerRoute> peerRoute() {
        return Optional.of(new PeerRoute(path, pair));
    }

    static PeerCopy read(Params p) {
        String binding = p.optional("binding");
        return new PeerCopy(GpuPair.parse(p.text("pair")), p.enumValue("path", CopyPath.class), p.longValue("sizeBytes"),
                binding == null ? Binding.JAVACPP_RUNTIME : p.named("binding", binding, Binding.class));
    }
}
