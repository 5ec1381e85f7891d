package io.p2pbench.doctor;

import java.util.List;

/**
 * One GPU as the checks see it: its label, PCI bus id, the driver's answers (null when the driver
 * could not be read and the GPU was found in sysfs), and where it sits in the PCIe tree.
 */
record GpuRef(String label, String busId, GpuAnswers.Gpu driver, Answer<List<String>> chain) {
    /** CUDA's index, or -1 when the driver could not be read. */
    int index() {
        return driver == null ? -1 : driver.info().index();
    }

    /** {@code GPU0 0000:18:00.0}, or the bus id alone when that is the label. */
    String named() {
        return label.equals(busId) ? busId : label + " " + busId;
    }
}
