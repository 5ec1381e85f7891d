package io.p2pbench.spec;

import io.p2pbench.topology.GpuPair;
import io.p2pbench.transfer.CopyPath;
import java.util.Map;
import java.util.Optional;

/** Copies between two GPUs in both directions at once (JavaCPP's binding only). */
public record PeerCopyBidirectional(GpuPair pair, CopyPath path, long sizeBytes) implements WorkloadSpec {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.PEER_COPY_BIDIRECTIONAL;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(pair, path, sizeBytes);
    }

    @Override
    public PeerCopyBidirectional curve() {
        return new PeerCopyBidirectional(new GpuPair(0, 0), path, 0);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.peerCopyBidirectional(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.empty();
    }

    @Override
    public Optional<PeerRoute> peerRoute() {
        return Optional.of(new PeerRoute(path, pair));
    }

    static PeerCopyBidirectional read(Params p) {
        return new PeerCopyBidirectional(GpuPair.parse(p.text("pair")), p.enumValue("path", CopyPath.class),
                p.longValue("sizeBytes"));
    }
}
