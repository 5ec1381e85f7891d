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

    /**
     * The ordered pair src to dst. Constant time where the pairs are listed source-major, as the probe
     * writes them (planning looks up every pair: a scan each time made 256 GPUs take minutes).
     */
    public Optional<PairInfo> pair(int src, int dst) {
        int n = gpus.size();
        if (src >= 0 && src < n && dst >= 0 && dst < n && pairs.size() == n * n) {
            PairInfo at = pairs.get(src * n + dst);
            if (at != null && at.src() == src && at.dst() == dst) {
                return Optional.of(at);
            }
        }
        return pairs.stream().filter(p -> p != null && p.src() == src && p.dst() == dst).findFirst();
    }

    /** GPU {@code index} (constant time where the GPUs are listed in index order, as the probe writes them). */
    public GpuInfo gpu(int index) {
        if (index >= 0 && index < gpus.size() && gpus.get(index) != null && gpus.get(index).index() == index) {
            return gpus.get(index);
        }
        return gpus.stream().filter(g -> g != null && g.index() == index).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no GPU " + index + " in this topology"));
    }

    /** A copy with the fingerprint computed from the contents. */
    public Topology withFingerprint() {
        return new Topology(suiteVersion, capturedAt, host, gpus, pairs, Fingerprint.of(this), notes);
    }
}
