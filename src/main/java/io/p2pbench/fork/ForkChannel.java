package io.p2pbench.fork;

import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Everything the run's executor (the parent) and a benchmark JVM (the fork) say to each other, both ends
 * in one class. Parent to fork: the combination to record, named by the JVM options of {@link #jvmArgs}
 * (the run folder, the combination id, the phase file). Fork to parent: its records in the run folder
 * ({@link BenchmarkRecords.Target}: skip reason, bytes verified, samples), its phases ({@link ForkPhases}) and,
 * in a fork group's JVM, one {@link #startLine} and one {@link #doneLine} per combination on standard output
 * ({@link Done#parse}). Outside a run (plain JMH) the fork has no {@link #target()} and records nothing.
 */
public final class ForkChannel {
    /** System property of the fork: the run folder. */
    public static final String RUN_DIR = Settings.RUN_DIR;
    /** System property of the fork: the combination id. */
    public static final String COMBINATION = Settings.COMBINATION;
    /** System property of the fork: the file its phases are appended to. */
    public static final String PHASE_FILE = Settings.PHASE_FILE;
    /**
     * The JMH {@code @Param} of the host-staged copies' chunk: a setting of the whole run, not of a plan row, so the
     * executor passes it to every benchmark (JMH gives it only to those that declare it) and plans, their
     * parameters and digests do not carry it; JMH's JSON records it for the benchmarks that use it.
     */
    public static final String STAGING_CHUNK_PARAM = "stagingChunk";
    /** A fork group's line before a combination: {@code P2PBENCH-START index micros}. */
    public static final String START = "P2PBENCH-START";
    /** A fork group's line after a combination: {@code P2PBENCH-DONE index micros ok|error message}. */
    public static final String DONE = "P2PBENCH-DONE";

    private ForkChannel() {}

    /** Parent side: the JVM options that name the records of combination {@code id} (and where its phases go). */
    public static List<String> jvmArgs(Path runDir, String id, Path phaseFile) {
        return phaseFile == null ? List.of("-D" + RUN_DIR + "=" + runDir.toAbsolutePath(), "-D" + COMBINATION + "=" + id)
                : List.of("-D" + RUN_DIR + "=" + runDir.toAbsolutePath(), "-D" + COMBINATION + "=" + id,
                "-D" + PHASE_FILE + "=" + phaseFile);
    }

    /** Fork side, a fork group's JVM: from now on this JVM records combination {@code id}, its phases in {@code phaseFile}. */
    public static void switchTo(String id, String phaseFile) {
        System.setProperty(COMBINATION, id);
        System.setProperty(PHASE_FILE, phaseFile);
    }

    /** Fork side: the run folder and combination id of this fork, if it is part of a p2pbench run. */
    public static Optional<BenchmarkRecords.Target> target() {
        Settings s = Settings.current();
        return s.runDir() == null || s.combination() == null ? Optional.empty()
                : Optional.of(new BenchmarkRecords.Target(s.runDir(), s.combination()));
    }

    /** Fork side: this fork's combination id, or "" outside a run. */
    public static String combinationId() {
        return target().map(BenchmarkRecords.Target::id).orElse("");
    }

    /** Fork side: records how many bytes this fork checked and found right over the trial (no-op outside a run). */
    public static void writeVerified(long bytes) {
        target().ifPresent(t -> write(() -> AtomicFiles.write(t.verifiedFile(), bytes + "\n")));
    }

    /** Fork side: writes the samples of this fork's combination (no-op outside a run). */
    public static void writeSamples(BatchSamples samples) {
        target().ifPresent(t -> write(() -> AtomicFiles.writeGzip(t.samplesFile(), BenchmarkRecords.samplesJson(samples))));
    }

    /** Fork side: records why this fork's combination is skipped (no-op outside a run). */
    public static void writeSkip(String reason) {
        target().ifPresent(t -> write(() -> AtomicFiles.write(t.skipFile(), reason.strip() + "\n")));
    }

    private interface FileWrite {
        void run() throws IOException;
    }

    private static void write(FileWrite w) {
        try {
            w.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fork group's line before the combination at plan index {@code index}. */
    public static String startLine(int index, long micros) {
        return START + " " + index + " " + micros;
    }

    /** A fork group's line after the combination at plan index {@code index}; {@code error} null when it ran. */
    public static String doneLine(int index, long micros, String error) {
        return DONE + " " + index + " " + micros + " "
                + (error == null ? "ok" : "error " + error.replaceAll("\\s+", " ").strip());
    }

    /** Whether {@code line} is a fork group's {@link #startLine}. */
    public static boolean isStart(String line) {
        return line.startsWith(START + " ");
    }

    /**
     * A combination's end as a fork group reported it.
     *
     * @param micros when it ended, wall-clock microseconds ({@link ForkPhases#nowMicros})
     * @param error null when the benchmark ran, else why not
     */
    public record Done(long micros, String error) {
        /** The {@link #doneLine} {@code line} holds, or null when it is not one (the fork's own output). */
        public static Done parse(String line) {
            if (!line.startsWith(DONE + " ")) {
                return null;
            }
            String[] f = line.split(" ", 5);
            return new Done(Long.parseLong(f[2]), f[3].equals("ok") ? null : f.length > 4 ? f[4] : "the benchmark failed");
        }
    }
}
