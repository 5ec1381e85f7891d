package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.Cuda;
import io.p2pbench.doctor.Check;
import io.p2pbench.doctor.Diagnosis;
import io.p2pbench.doctor.Doctor;
import io.p2pbench.doctor.Finding;
import io.p2pbench.doctor.GpuDiagnosis;
import io.p2pbench.doctor.LiveMachine;
import io.p2pbench.doctor.Verdict;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code p2pbench doctor} on the machine itself: the driver answers for every visible GPU, every
 * GPU has a PCIe and an NVLink finding, and every ordered pair a verdict the driver decided.
 */
@RequiresGpu
class GpuDoctorTest {
    @Test
    void everyGpuAndPairIsDiagnosedFromTheDriver() {
        Diagnosis d = Doctor.diagnose(new LiveMachine(null, null), Map.of());
        int n = Cuda.availability().deviceCount();
        assertEquals(Finding.Status.OK, d.host(Check.GPUS).status(), d.host(Check.GPUS).summary());
        assertEquals(n, d.gpus().size());
        assertEquals(n * (n - 1), d.pairs().size());
        for (GpuDiagnosis g : d.gpus()) {
            assertTrue(g.label().matches("GPU\\d+"), g.label());
            for (Check c : new Check[] {Check.PCIE_LINK, Check.NVLINK_STATE, Check.BAR1, Check.PERSISTENCE}) {
                assertTrue(g.findings().stream().anyMatch(f -> f.check() == c), c + " missing for " + g.label());
            }
        }
        d.pairs().forEach(p -> assertNotEquals(Verdict.UNKNOWN, p.verdict(), p.src() + "->" + p.dst()));
        assertTrue(d.host(Check.VIRTUAL_MACHINE) != null && d.host(Check.IOMMU) != null);
    }
}
