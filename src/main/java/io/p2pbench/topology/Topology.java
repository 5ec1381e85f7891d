package io.p2pbench.topology;

import java.util.List;
import java.util.Optional;

/**
 * The machine as the suite sees it: host, GPUs, every ordered pair, and a fingerprint that groups
 * result files by machine kind.
 *
 * @param notes things worth knowing that fit no field (NVML missing, bindings disagreeing, ...)
 */
public record Topology(String suiteVersion, String capturedAt, HostInfo host, List<GpuInfo> gpus,
                       List<PairInfo> pairs, String fingerprint, List<String> notes) {

    /** Number of visible GPUs. */
    public int gpuCount() {
        return gpus.size();
    }

    /** The ordered pair src to dst. */
    public Optional<PairInfo> pair(int src, int dst) {
        return pairs.stream().filter(p -> p.src() == src && p.dst() == dst).findFirst();
    }

    /** GPU {@code index}. */
    public GpuInfo gpu(int index) {
        return gpus.stream().filter(g -> g.index() == index).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no GPU " + index + " in this topology"));
    }

    /** A copy with the fingerprint computed from the contents. */
    public Topology withFingerprint() {
        return new Topology(suiteVersion, capturedAt, host, gpus, pairs, Fingerprint.of(this), notes);
    }
}
