package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The size budget of a result folder ({@code docs/results-format.md}), so that it stays a property of the
 * code: per benchmark at most {@link #FIXED_BYTES} for everything but {@code samples/}, and at most
 * {@link #BYTES_PER_SAMPLE} per recorded per-batch value plus {@link #BYTES_PER_SAMPLES_FILE} per samples
 * file; over all committed runs at most
 * {@link #AVERAGE_BYTES} per benchmark. Sizes are file bytes.
 */
class ResultSizeBudgetTest {
    /** The target: 6 kB (6,000 bytes) per benchmark on average over the committed runs. */
    static final long AVERAGE_BYTES = 6_000;
    /** Manifest entry, JMH JSON and share of topology.json per benchmark (committed runs: 2.0 to 3.4 kB). */
    static final long FIXED_BYTES = 4_000;
    /** One per-batch lane value in samples/ (committed runs: 1.5 to 8.1 bytes, file overhead included). */
    static final double BYTES_PER_SAMPLE = 10;
    /** A samples file's own overhead (gzip header, id, lanes): 150 to 250 bytes. */
    static final long BYTES_PER_SAMPLES_FILE = 300;

    @Test
    void committedRunsStayWithinTheBudget() throws Exception {
        long bytes = 0;
        long benchmarks = 0;
        for (Path dir : ResultMigration.find(CommittedResultsTest.RESULTS)) {
            Budget b = Budget.of(dir);
            b.check();
            bytes += b.total();
            benchmarks += b.benchmarks;
        }
        assertTrue(bytes <= AVERAGE_BYTES * benchmarks, "committed runs hold " + bytes / benchmarks
                + " bytes per benchmark on average, over the budget of " + AVERAGE_BYTES);
    }

    @Test
    void aMigratedFixtureStaysWithinTheBudget(@TempDir Path work) throws Exception {
        for (Path fixture : List.of(Fixtures.X1, Fixtures.X8)) {
            Path dir = Fixtures.copy(fixture, work.resolve(fixture.getFileName().toString()));
            ResultMigration.migrate(dir);
            Budget.of(dir).check();
        }
    }

    /** What a fork writes for a 3 s run of 4-byte copies: thousands of noisy batches. */
    @Test
    void samplesAsTheForkWritesThemStayWithinTheBudget(@TempDir Path run) throws Exception {
        Random random = new Random(15);
        List<BatchSamples.Batch> batches = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            batches.add(new BatchSamples.Batch(false, List.of(3.8e-4 * (1 + 0.05 * random.nextGaussian()),
                    3.7e-4 * (1 + 0.05 * random.nextGaussian()))));
        }
        System.setProperty(BenchmarkRecords.RUN_DIR, run.toString());
        System.setProperty(BenchmarkRecords.COMBINATION, "host-bidir-PINNED-LOCAL-gpu0-4B");
        try {
            BenchmarkRecords.writeSamples(new BatchSamples("host-bidir-PINNED-LOCAL-gpu0-4B",
                    List.of("host->GPU0", "GPU0->host"), 4, 128, batches, 1L << 20));
            Path file = BenchmarkRecords.target().orElseThrow().samplesFile();
            long size = Files.size(file);
            assertTrue(size <= BYTES_PER_SAMPLE * 6000, file + " holds 6000 values in " + size + " bytes");
            assertTrue(AtomicFiles.read(file).length > 2 * size, "samples are stored compressed");
        } finally {
            System.clearProperty(BenchmarkRecords.RUN_DIR);
            System.clearProperty(BenchmarkRecords.COMBINATION);
        }
    }

    /** A folder's bytes and what they may be. */
    private record Budget(Path dir, long benchmarks, long fixed, long samples, long values, long files) {
        static Budget of(Path dir) throws Exception {
            RunManifest m = io.p2pbench.results.ResultFolder.open(dir).readManifest();
            long values = 0;
            long files = 0;
            for (RunManifest.Entry e : m.entries()) {
                if (e.samplesFile() != null) {
                    files++;
                    for (BatchSamples.Batch b : BenchmarkRecords.readSamples(dir.resolve(e.samplesFile())).batches()) {
                        values += b.laneGBps().size();
                    }
                }
            }
            long samples = Files.isDirectory(dir.resolve("samples")) ? bytes(dir.resolve("samples")) : 0;
            return new Budget(dir, m.entries().size(), bytes(dir) - samples, samples, values, files);
        }

        long total() {
            return fixed + samples;
        }

        void check() {
            assertTrue(fixed <= FIXED_BYTES * benchmarks, dir + ": " + fixed / benchmarks
                    + " bytes per benchmark outside samples/, over the budget of " + FIXED_BYTES);
            assertTrue(samples <= BYTES_PER_SAMPLE * values + BYTES_PER_SAMPLES_FILE * files, dir + ": samples/ holds "
                    + values + " values in " + files + " files, " + samples + " bytes, over the budget of "
                    + BYTES_PER_SAMPLE + " bytes per value and " + BYTES_PER_SAMPLES_FILE + " per file");
        }

        private static long bytes(Path p) throws Exception {
            return io.p2pbench.results.ResultMigration.size(p);
        }
    }
}
