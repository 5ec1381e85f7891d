package io.p2pbench.launch;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.files.FileProblem;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The folder the ranks of one job share ({@code <--out>/.p2pbench-jobs/<job id>/}), on a file system every rank
 * reaches: the node's disk for a job on one host, a shared file system (home, scratch) across hosts. It carries
 * what the launcher does not: each rank's hello, its results as it goes, its end, and the CUDA IPC handles of a
 * copy between two ranks of one host. Every file is written atomically (temporary file, rename) by one rank and
 * read by others, who poll for it ({@link #await}); nothing here is a network protocol, and NCCL bootstraps by
 * itself ({@code NCCL_COMM_ID}).
 * <pre>
 *   job.json                 rank 0: the job (world size, launcher, build); others wait for it
 *   ranks/R/hello.json       rank R: host, GPU, build ({@link RankHello})
 *   ranks/R/part.json        rank R: its manifest entries so far, rewritten after every step
 *   ranks/R/samples/ID.json.gz  rank R: per-batch figures of its entries
 *   ranks/R/phase-NAME       rank R has finished phase NAME (the CUDA IPC copies, before NCCL starts)
 *   ranks/R/done.json        rank R has ended: complete, failed or refused, and why
 *   steps/ID/handle.json     the exporting rank of copy ID: its IPC handle (or why it has none)
 *   steps/ID/done.json       the importing rank of copy ID has unmapped it (or a rank gave up on it)
 *   collected.json           rank 0 has collected the job into a result folder
 * </pre>
 */
public final class JobFolder {
    /** Name of the folder under {@code --out} that holds the job folders. */
    public static final String JOBS = ".p2pbench-jobs";
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path dir;

    private JobFolder(Path dir) {
        this.dir = dir;
    }

    /** The folder of job {@code jobId} under the results root {@code out}. */
    public static JobFolder at(Path out, String jobId) {
        return new JobFolder(out.resolve(JOBS).resolve(jobId));
    }

    /** The folder. */
    public Path dir() {
        return dir;
    }

    /** The job, as rank 0 announced it. */
    public record JobInfo(String jobId, int worldSize, String launcher, String suiteVersion, String suiteBuild,
                          String startedAt, String command) {}

    /** One rank's results so far: its planned entries, in plan order. */
    public record RankPart(int rank, List<RunManifest.Entry> entries) {}

    /** A rank's end: its {@code state} complete, failed or refused ({@link RankEnd}), and why. */
    public record RankDone(int rank, @JsonProperty("state") RankEnd end, String message) {
        /** A rank's end, its state as {@code done.json}'s word ({@link RankEnd#of}: other text is refused). */
        public RankDone(int rank, String state, String message) {
            this(rank, RankEnd.of(state), message);
        }

        /** The state as {@code done.json}'s word, for people; decisions read {@link #end()}. */
        public String state() {
            return end == null ? null : end.text();
        }
    }

    /** An exporting rank's handle for one copy, base64, or {@code error} where it could not export. */
    public record HandleMessage(int exporter, String handle, long sizeBytes, int seed, String error) {}

    /** A copy is over for the exporter: unmapped by the importer, or given up by {@code by}. */
    public record StepDone(int by, String note) {}

    Path jobFile() {
        return dir.resolve("job.json");
    }

    Path rankDir(int rank) {
        return dir.resolve("ranks").resolve(Integer.toString(rank));
    }

    Path helloFile(int rank) {
        return rankDir(rank).resolve("hello.json");
    }

    Path partFile(int rank) {
        return rankDir(rank).resolve("part.json");
    }

    Path doneFile(int rank) {
        return rankDir(rank).resolve("done.json");
    }

    Path phaseFile(int rank, String phase) {
        return rankDir(rank).resolve("phase-" + phase);
    }

    /** Where rank {@code rank} writes the samples of entry {@code id}. */
    Path samplesFile(int rank, String id) {
        return rankDir(rank).resolve("samples").resolve(id + ".json.gz");
    }

    Path handleFile(String step) {
        return dir.resolve("steps").resolve(step).resolve("handle.json");
    }

    Path stepDoneFile(String step) {
        return dir.resolve("steps").resolve(step).resolve("done.json");
    }

    Path collectedFile() {
        return dir.resolve("collected.json");
    }

    /** Writes {@code value} as JSON to {@code file} atomically. */
    void write(Path file, Object value) {
        try {
            AtomicFiles.write(file, MAPPER.writeValueAsBytes(value));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads {@code file} as {@code type}; a file another rank wrote that does not parse is one line. */
    <T> T read(Path file, Class<T> type) {
        try {
            T value = MAPPER.readValue(file.toFile(), type);
            if (value == null) {
                throw new LaunchException(file + " holds JSON null, not a " + type.getSimpleName());
            }
            return value;
        } catch (JacksonException e) {
            throw new LaunchException(file + " is not a readable " + type.getSimpleName() + ": "
                    + FileProblem.of(e));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** What a wait watches besides the file: whether it can still come, and whether the writers still progress. */
    interface Watch {
        /** Null while the file may still come, else why it never will. */
        String whyNever();

        /** A value that changes whenever the awaited ranks make progress (their part files' times). */
        long progress();
    }

    /** A wait that ended without its file: the peer ended, died, or made no progress for the patience. */
    static final class Gone extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean silent;

        Gone(String message, boolean silent) {
            super(message);
            this.silent = silent;
        }

        /** Whether the writer is still there but made no progress (rather than ended or exited). */
        boolean silent() {
            return silent;
        }
    }

    /**
     * Waits for {@code file} and reads it. Polls the file system (no other channel reaches every host), 5 ms at
     * first, doubling up to 100 ms.
     *
     * @param what how the message names the file, e.g. {@code rank 1's hello}
     * @throws Gone when {@code watch} says it will never come, or after {@code patience} without progress
     */
    <T> T await(Path file, Class<T> type, Duration patience, Watch watch, String what) throws Gone {
        long pauseMillis = 5;
        long stamp = watch.progress();
        long since = System.nanoTime();
        while (true) {
            if (Files.isRegularFile(file)) {
                return read(file, type);
            }
            String never = watch.whyNever();
            if (never != null) {
                if (Files.isRegularFile(file)) {
                    return read(file, type);
                }
                throw new Gone(what + " will not come: " + never, false);
            }
            long now = watch.progress();
            if (now != stamp) {
                stamp = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since > patience.toNanos()) {
                throw new Gone(what + " did not come within " + patience.toSeconds() + " s without progress "
                        + "(P2PBENCH_RANK_TIMEOUT)", true);
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Gone(what + ": interrupted while waiting", false);
            }
            pauseMillis = Math.min(100, pauseMillis * 2);
        }
    }

    /** The last-modified time of {@code file} in milliseconds, 0 when it does not exist. */
    static long stamp(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }
}
