package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.doctor.Measured;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.render.VerdictSections;
import io.p2pbench.report.stats.Statistics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Measured P2P on/off figures per pair for doctor --results, and the report's diagnosis section. */
class MachineDoctorTest {
    private static final Path H200X8 = Path.of("src/test/resources/fixtures/results/synthetic-h200x8");
    private static final List<String> H200X8_GPUS = List.of("0000:18:00.0", "0000:28:00.0", "0000:38:00.0",
            "0000:48:00.0", "0000:58:00.0", "0000:68:00.0", "0000:78:00.0", "0000:88:00.0");

    @Test
    void figuresAreMediansOfTheLargestSizeWithPeerAccessOnAndOff() throws Exception {
        MachineDoctor.Figures f = MachineDoctor.read(H200X8, H200X8_GPUS);
        Map<String, Measured> byPair = f.byPair();
        Measured m = byPair.get("0-1");
        assertEquals(256L << 20, m.sizeBytes());
        assertEquals("CE_P2P_READ", m.onPath());
        assertEquals("CE_NO_P2P", m.offPath());
        ResultData data = ResultReader.read(H200X8);
        double expected = data.measurements().stream().filter(x -> x.key().pair().equals("0-1")
                && x.key().path().equals("CE_P2P_READ") && x.key().direction().equals(ResultReader.ONE_WAY)
                && x.key().sizeBytes() == 256L << 20 && x.key().biggerIsBetter())
                .mapToDouble(x -> Statistics.bandwidth(x.samples()).median()).findFirst().orElseThrow();
        assertEquals(expected, m.onGBps(), 1e-12);
        assertNull(byPair.get("0-0"), "device-local copies are no pair");
        assertFalse(byPair.containsKey("3-5"), "3-5 was skipped in this run");
        assertTrue(f.note().contains("(54 pair(s))"), f.note());
    }

    @Test
    void figuresOfOtherGpusAreNotSetBesideThisMachine() throws Exception {
        MachineDoctor.Figures f = MachineDoctor.read(H200X8, List.of("0000:01:00.0"));
        assertTrue(f.byPair().isEmpty());
        assertTrue(f.note().contains("not shown: it ran on GPUs [0000:18:00.0"), f.note());
    }

    @Test
    void theMachineSectionCarriesTheDiagnosis() throws Exception {
        ResultData data = ResultReader.read(H200X8);
        String section = VerdictSections.diagnosis(data, data.measurements());
        assertTrue(section.startsWith("### P2P diagnosis\n\n```text\n"), section);
        assertTrue(section.contains("Verdicts: 56 ordered pair(s): 56 P2P direct"), section);
    }
}
