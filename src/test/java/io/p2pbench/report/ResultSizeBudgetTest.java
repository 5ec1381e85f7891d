package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.report.read.CommittedResultsTest;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import io.p2pbench.serving.ServingSamples;
import io.p2pbench.spec.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The size budget of a result folder ({@code docs/results-format.md}), so that it stays a property of the
 * code: per benchmark at most {@link #FIXED_BYTES} for everything but {@code samples/}, and at most
 * {@link #BYTES_PER_SAMPLE} per recorded per-batch value plus {@link #BYTES_PER_SAMPLES_FILE} per samples
 * file; over all committed runs at most
 * {@link #AVERAGE_BYTES} per benchmark. Sizes are file bytes.
 *
 * <p>And the budget of the whole tracked tree, {@link #TREE_BYTES}: the checkout travels to the GPU node
 * beside its bundle and the GPU tests (64 MiB in all there), so {@code results/} keeps reference runs and
 * the runs a test or document cites, not every diagnostic run ({@code results/h200x1-single-r580/README.md}).
 */
class ResultSizeBudgetTest {
    /** The tracked tree (every file {@code git ls-files} lists): at most 15 MiB. */
    static final long TREE_BYTES = 15L << 20;
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
    void theTrackedTreeStaysWithinItsBudget() throws Exception {
        Map<String, Long> byFolder = new TreeMap<>();
        long bytes = 0;
        for (Path f : trackedFiles()) {
            if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                long size = Files.size(f);
                bytes += size;
                byFolder.merge(f.getNameCount() > 1 ? f.getName(0) + "/" : f.toString(), size, Long::sum);
            }
        }
        StringBuilder where = new StringBuilder();
        byFolder.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(5)
                .forEach(e -> where.append(String.format(Locale.ROOT, " %s %.1f MiB;", e.getKey(), e.getValue() / 1048576.0)));
        assertTrue(bytes > 1 << 20, "found only " + bytes + " bytes of tracked files: " + byFolder);
        assertTrue(bytes <= TREE_BYTES, String.format(Locale.ROOT, "the tracked tree holds %.2f MiB, over its budget "
                + "of %d MiB (largest:%s): keep in results/ only reference runs and runs a test or document cites, "
                + "their figures in docs/notes for the rest (results/h200x1-single-r580/README.md)",
                bytes / 1048576.0, TREE_BYTES >> 20, where));
    }

    /**
     * The tracked files, as {@code git ls-files} lists them where this is a git checkout with git installed;
     * elsewhere (a source archive) every file under {@code results/}, {@code charts/} and {@code docs/}, the
     * folders that grow.
     */
    static List<Path> trackedFiles() throws Exception {
        try {
            Process git = new ProcessBuilder("git", "ls-files", "-z").redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            byte[] out = git.getInputStream().readAllBytes();
            if (git.waitFor() == 0 && out.length > 0) {
                List<Path> files = new ArrayList<>();
                for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
                    if (!name.isEmpty()) {
                        files.add(Path.of(name));
                    }
                }
                return files;
            }
        } catch (IOException e) {
            // No git here: measure the folders instead.
        }
        List<Path> files = new ArrayList<>();
        for (String folder : List.of("results", "charts", "docs")) {
            if (Files.isDirectory(Path.of(folder))) {
                try (Stream<Path> s = Files.walk(Path.of(folder))) {
                    s.filter(Files::isRegularFile).forEach(files::add);
                }
            }
        }
        return files;
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
        System.setProperty(ForkChannel.RUN_DIR, run.toString());
        System.setProperty(ForkChannel.COMBINATION, "host-bidir-PINNED-LOCAL-gpu0-4B");
        try {
            ForkChannel.writeSamples(new BatchSamples("host-bidir-PINNED-LOCAL-gpu0-4B",
                    List.of("host->GPU0", "GPU0->host"), 4, 128, batches, 1L << 20));
            Path file = ForkChannel.target().orElseThrow().samplesFile();
            long size = Files.size(file);
            assertTrue(size <= BYTES_PER_SAMPLE * 6000, file + " holds 6000 values in " + size + " bytes");
            assertTrue(AtomicFiles.read(file).length > 2 * size, "samples are stored compressed");
        } finally {
            System.clearProperty(ForkChannel.RUN_DIR);
            System.clearProperty(ForkChannel.COMBINATION);
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
                    Path file = dir.resolve(e.samplesFile());
                    if (Kind.of(e.combination().kind()) == Kind.SERVING) { // per-request records of a serving sweep
                        for (ServingSamples.Point p : ServingSamples.read(AtomicFiles.read(file)).points()) {
                            values += (long) p.requests().size() * ServingSamples.REQUEST_COLUMNS.size();
                        }
                        continue;
                    }
                    for (BatchSamples.Batch b : BenchmarkRecords.readSamples(file).batches()) {
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
