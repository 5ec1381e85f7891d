package io.p2pbench.doctor;

import java.util.List;

/**
 * One GPU and what was found about it.
 *
 * @param label {@code GPU0} (CUDA's index), or the PCI bus id when the driver could not be read
 * @param name the product name, null when unknown
 */
public record GpuDiagnosis(String label, String pciBusId, String name, List<Finding> findings) {
    /** Copies the list. */
    public GpuDiagnosis {
        findings = List.copyOf(findings);
    }
}
