package io.p2pbench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.spec.Skip;
import io.p2pbench.transfer.SkipCause;
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
        ForkChannel.writeSkip(SkipCause.NO_PEER_ACCESS, "no peer access");
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
    void aSkipKeepsItsCauseBesideItsReason() throws Exception {
        BenchmarkRecords.Target t = inRun("part-step-DENSE_70B-SINGLE-P2P-DECODE-eager-g0");
        ForkChannel.writeSkip(SkipCause.DOES_NOT_FIT, "weights and KV need 150.0 GiB, the GPU has 80.0 GiB\n");
        assertEquals(new Skip(SkipCause.DOES_NOT_FIT, "weights and KV need 150.0 GiB, the GPU has 80.0 GiB"),
                BenchmarkRecords.readSkip(t.skipFile()));
    }

    @Test
    void aSkipFileWithoutACauseReadsAsOther() throws Exception {
        BenchmarkRecords.Target t = inRun("x");
        Files.createDirectories(t.skipFile().getParent());
        Files.writeString(t.skipFile(), "does not fit: written by hand\n");
        assertEquals(new Skip(SkipCause.OTHER, "does not fit: written by hand"), BenchmarkRecords.readSkip(t.skipFile()));
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

    @Test
    void progressLinesCarryTheTokenAndRoundTrip() {
        String token = ForkChannel.newToken();
        assertNotEquals(token, ForkChannel.newToken());
        ForkChannel.Start start = ForkChannel.Start.parse(ForkChannel.startLine(token, 3, 1234), token);
        assertEquals(new ForkChannel.Start("", 3, 1234), start);
        assertEquals(new ForkChannel.Done("", 3, 99, null, false),
                ForkChannel.Done.parse(ForkChannel.doneLine(token, 3, 99, null, false), token));
        assertEquals(new ForkChannel.Done("", 4, 99, "DataMismatchException: byte 7 wrong", false),
                ForkChannel.Done.parse(ForkChannel.doneLine(token, 4, 99, "DataMismatchException:\n byte 7  wrong",
                        false), token));
        assertEquals(new ForkChannel.Done("", 5, 99, "700 cudaErrorIllegalAddress", true),
                ForkChannel.Done.parse(ForkChannel.doneLine(token, 5, 99, "700 cudaErrorIllegalAddress", true), token));
    }

    @Test
    void aLineWithoutThisJvmsTokenIsOutputAndOneAfterAnUnfinishedLineCounts() {
        String token = ForkChannel.newToken();
        String line = ForkChannel.doneLine(token, 2, 5, null, false);
        assertNull(ForkChannel.Done.parse(line, ForkChannel.newToken()), "another JVM's token");
        assertNull(ForkChannel.Done.parse("P2PBENCH-DONE 2 5 ok", token), "no token: a native library's line");
        assertNull(ForkChannel.Start.parse("P2PBENCH-START 2 5", token));
        assertNull(ForkChannel.Done.parse("P2PBENCH-DONE:" + token + " two 5 ok", token), "not a number");
        assertEquals(new ForkChannel.Done("NCCL INFO unfinished", 2, 5, null, false),
                ForkChannel.Done.parse("NCCL INFO unfinished" + line, token));
    }
}
