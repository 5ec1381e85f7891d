package io.p2pbench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkChannelTest {
    @TempDir
    Path run;

    @AfterEach
    void clear() {
        System.clearProperty(ForkChannel.RUN_DIR);
        System.clearProperty(ForkChannel.COMBINATION);
    }

    private BenchmarkRecords.Target inRun(String id) {
        System.setProperty(ForkChannel.RUN_DIR, run.toString());
        System.setProperty(ForkChannel.COMBINATION, id);
        return ForkChannel.target().orElseThrow();
    }

    @Test
    void outsideARunNothingIsWritten() throws Exception {
        assertTrue(ForkChannel.target().isEmpty());
        ForkChannel.writeVerified(4096);
        ForkChannel.writeSkip("no peer access");
        try (var files = Files.list(run)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void verifiedBytesRoundTripPerCombination() throws Exception {
        BenchmarkRecords.Target t = inRun("peer-lat-CE_P2P_READ-0-1-4B");
        assertNull(BenchmarkRecords.readVerified(t.verifiedFile()), "nothing written yet");
        ForkChannel.writeVerified(123_731_968L);
        assertEquals(run.resolve("verified").resolve("peer-lat-CE_P2P_READ-0-1-4B.txt"), t.verifiedFile());
        assertEquals(123_731_968L, BenchmarkRecords.readVerified(t.verifiedFile()));
    }

    @Test
    void aFileWithoutACountReadsAsNone() throws Exception {
        BenchmarkRecords.Target t = inRun("x");
        Files.createDirectories(t.verifiedFile().getParent());
        Files.writeString(t.verifiedFile(), "12 bytes\n");
        assertNull(BenchmarkRecords.readVerified(t.verifiedFile()));
    }

    @Test
    void samplesRoundTrip() throws Exception {
        BenchmarkRecords.Target t = inRun("ring-bw-FLOAT32-P2P-g0.1-64MiB");
        BatchSamples s = new BatchSamples(t.id(), List.of("algbw", "busbw"), 1 << 26, 8,
                List.of(new BatchSamples.Batch(false, List.of(40.5, 40.5))), 1L << 28);
        ForkChannel.writeSamples(s);
        assertEquals(s, BenchmarkRecords.readSamples(t.samplesFile()));
        assertFalse(Files.exists(t.skipFile()));
    }
}
