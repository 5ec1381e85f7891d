package io.p2pbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {
    @Test
    void nothingSetReadsAsTheDefaults() {
        Settings s = Settings.read(name -> null);
        assertNull(s.runDir());
        assertNull(s.combination());
        assertNull(s.phaseFile());
        assertEquals("auto", s.gateMode());
        assertFalse(s.cudaDisabled());
        assertFalse(s.corruptAll());
        assertTrue(s.classDataSharing());
        assertEquals(0, s.deviceAllocRoundBytes());
        assertNull(s.pointerLog());
        assertEquals("", s.gemmOnly());
        assertEquals(2000, s.gemmHoldMicros());
        assertEquals(0, s.forwardDevice());
        assertNull(s.suiteBuild());
    }

    @Test
    void everyPropertyIsReadUnderItsName() {
        Map<String, String> p = Map.ofEntries(Map.entry(Settings.RUN_DIR, "/tmp/run"),
                Map.entry(Settings.COMBINATION, "peer-bw-x"), Map.entry(Settings.PHASE_FILE, "/tmp/phases.txt"),
                Map.entry(Settings.GATE, "SPIN"), Map.entry(Settings.CUDA_DISABLE, "true"),
                Map.entry(Settings.CORRUPT, "GEMM"), Map.entry(Settings.LOCK_FILE, "/tmp/run.lock"),
                Map.entry(Settings.JMH_LOCK_FILE, "/tmp/jmh.lock"), Map.entry(Settings.MIGRATE_LOCK_FILE, "/tmp/m.lock"),
                Map.entry(Settings.CDS, "false"), Map.entry(Settings.DEVICE_ALLOC_ROUND, "2097152"),
                Map.entry(Settings.POINTER_LOG, "/tmp/pointers.txt"), Map.entry(Settings.RANK_WORKLOAD, "standin"),
                Map.entry(Settings.SUITE_BUILD, "other"), Map.entry(Settings.GEMM_ONLY, "8x4096x6144"),
                Map.entry(Settings.GEMM_HOLD_MICROS, "500"), Map.entry(Settings.FORWARD_DEVICE, "3"));
        Settings s = Settings.read(p::get);
        assertEquals(Path.of("/tmp/run"), s.runDir());
        assertEquals("peer-bw-x", s.combination());
        assertEquals(Path.of("/tmp/phases.txt"), s.phaseFile());
        assertEquals("spin", s.gateMode());
        assertTrue(s.cudaDisabled());
        assertFalse(s.corruptAll());
        assertTrue(s.corrupts("GEMM"));
        assertFalse(s.corrupts("ATTENTION"));
        assertEquals(Path.of("/tmp/run.lock"), s.runLockFile());
        assertEquals(Path.of("/tmp/jmh.lock"), s.jmhLockFile());
        assertEquals(Path.of("/tmp/m.lock"), s.migrateLockFile());
        assertFalse(s.classDataSharing());
        assertEquals(2097152, s.deviceAllocRoundBytes());
        assertEquals(Path.of("/tmp/pointers.txt"), s.pointerLog());
        assertEquals("standin", s.rankWorkload());
        assertEquals("other", s.suiteBuild());
        assertEquals("8x4096x6144", s.gemmOnly());
        assertEquals(500, s.gemmHoldMicros());
        assertEquals(3, s.forwardDevice());
    }

    @Test
    void trueCorruptsEverything() {
        Settings s = Settings.read(Map.of(Settings.CORRUPT, "true")::get);
        assertTrue(s.corruptAll());
        assertTrue(s.corrupts("GEMM"));
    }

    @Test
    void aValueThePropertyDoesNotAcceptIsOneErrorNamingThePropertyTheValueAndWhatIsAccepted() {
        assertRefused(Settings.DEVICE_ALLOC_ROUND, "abc", "a number of bytes, 0 or more (0: exact)");
        assertRefused(Settings.DEVICE_ALLOC_ROUND, "2M", "a number of bytes, 0 or more (0: exact)");
        assertRefused(Settings.DEVICE_ALLOC_ROUND, "-1", "a number of bytes, 0 or more (0: exact)");
        assertRefused(Settings.GEMM_HOLD_MICROS, "-5", "a number of microseconds, 0 or more");
        assertRefused(Settings.FORWARD_DEVICE, "first", "a GPU index, 0 or more");
        assertRefused(Settings.FORWARD_DEVICE, "4294967296", "a GPU index, 0 or more up to 2147483647");
        assertRefused(Settings.GATE, "banana", "auto, wait, spin");
        assertRefused(Settings.CDS, "maybe", "true, false");
        assertRefused(Settings.HOST_CHECK, "maybe", "true, false");
        assertRefused(Settings.CUDA_DISABLE, "yes", "true, false");
        assertRefused(Settings.COMPARE_ACROSS_HOSTS, "on", "true, false");
    }

    @Test
    void wordsAreReadWhateverTheirCase() {
        Settings s = Settings.read(Map.of(Settings.CDS, "FALSE", Settings.HOST_CHECK, "False",
                Settings.CUDA_DISABLE, "TRUE", Settings.GATE, "Wait", Settings.COMPARE_ACROSS_HOSTS, "True")::get);
        assertTrue(s.compareAcrossHosts());
        assertFalse(Settings.read(Map.<String, String>of()::get).compareAcrossHosts(), "off unless asked");
        assertFalse(s.classDataSharing());
        assertFalse(s.hostCheck());
        assertTrue(s.cudaDisabled());
        assertEquals("wait", s.gateMode());
    }

    private static void assertRefused(String name, String value, String accepted) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.read(Map.of(name, value)::get));
        assertEquals("-D" + name + "='" + value + "' is not accepted; use " + accepted, e.getMessage());
    }
}
