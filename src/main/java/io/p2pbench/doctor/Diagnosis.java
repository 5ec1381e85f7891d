package io.p2pbench.doctor;

import java.util.List;

/**
 * What {@code p2pbench doctor} found: host findings, per-GPU findings, and one verdict per
 * ordered GPU pair with its causes.
 *
 * @param source what was read ({@code this machine}, a fixture folder, a result folder's topology)
 * @param host findings about the whole machine (virtualisation, IOMMU, NUMA, whether the GPUs could be read)
 * @param notes lines that fit nowhere else (results from another machine, for one)
 */
public record Diagnosis(String source, List<Finding> host, List<GpuDiagnosis> gpus, List<PairDiagnosis> pairs,
                        List<String> notes) {
    /** Copies the lists. */
    public Diagnosis {
        host = List.copyOf(host);
        gpus = List.copyOf(gpus);
        pairs = List.copyOf(pairs);
        notes = List.copyOf(notes);
    }

    /** The pair src to dst (by label), or null. */
    public PairDiagnosis pair(String src, String dst) {
        return pairs.stream().filter(p -> p.src().equals(src) && p.dst().equals(dst)).findFirst().orElse(null);
    }

    /** The GPU with this label, or null. */
    public GpuDiagnosis gpu(String label) {
        return gpus.stream().filter(g -> g.label().equals(label)).findFirst().orElse(null);
    }

    /** The host finding of {@code check}, or null. */
    public Finding host(Check check) {
        return host.stream().filter(f -> f.check() == check).findFirst().orElse(null);
    }
}
