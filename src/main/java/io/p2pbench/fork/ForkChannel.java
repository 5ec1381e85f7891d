package io.p2pbench.fork;

import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.settings.Settings;
import io.p2pbench.transfer.SkipCause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;

/**
 * Everything the run's executor (the parent) and a benchmark JVM (the fork) say to each other, both ends
 * in one class. Parent to fork: the combination to record, named by the JVM options of {@link #jvmArgs}
 * (the run folder, the combination id, the phase file). Fork to parent: its records in the run folder
 * ({@link BenchmarkRecords.Target}: skip reason, bytes verified, samples), its phases ({@link ForkPhases}) and,
 * in a fork group's JVM, one {@link #startLine} and one {@link #doneLine} per combination on standard output
 * ({@link Done#parse}), each with the token the parent gave that JVM, so that no native library's output passes
 * for one. Outside a run (plain JMH) the fork has no {@link #target()} and records nothing.
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
    /**
     * A fork group's line before a combination: {@code P2PBENCH-START:token index micros}, where {@code token} is
     * the one {@link #newToken} the parent gave this JVM.
     */
    public static final String START = "P2PBENCH-START";
    /**
     * A fork group's line after a combination: {@code P2PBENCH-DONE:token index micros ok}, {@code ... error message}
     * or {@code ... poisoned message} (it failed and left the JVM's CUDA context unusable: the JVM ends after it).
     */
    public static final String DONE = "P2PBENCH-DONE";

    private static final SecureRandom TOKENS = new SecureRandom();

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

    /** Fork side: records why this fork's combination is skipped, its cause and reason (no-op outside a run). */
    public static void writeSkip(SkipCause cause, String reason) {
        target().ifPresent(t -> write(() -> AtomicFiles.write(t.skipFile(), BenchmarkRecords.skipText(cause, reason))));
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

    /**
     * Parent side: a new token for the progress lines of one fork group's JVM. Native libraries write to the same
     * standard output; a line counts as progress only with the token, which nothing else in the JVM knows.
     */
    public static String newToken() {
        return Long.toHexString(TOKENS.nextLong() | Long.MIN_VALUE);
    }

    /** A fork group's line before the combination at plan index {@code index}. */
    public static String startLine(String token, int index, long micros) {
        return START + ":" + token + " " + index + " " + micros;
    }

    /**
     * A fork group's line after the combination at plan index {@code index}; {@code error} null when it ran;
     * {@code poisoned} when it failed with a sticky CUDA error, after which this JVM runs nothing more.
     */
    public static String doneLine(String token, int index, long micros, String error, boolean poisoned) {
        return DONE + ":" + token + " " + index + " " + micros + " "
                + (error == null && !poisoned ? "ok" : (poisoned ? "poisoned " : "error ")
                + (error == null ? "" : error.replaceAll("\\s+", " ").strip()));
    }

    /**
     * The fields after {@code marker + ":" + token + " "} in {@code line}, and what came before the marker (a native
     * library's output that did not end its line); null when the line holds no such marker.
     */
    private static String[] fields(String line, String marker, String token, int limit) {
        String tag = marker + ":" + token + " ";
        int at = line.indexOf(tag);
        if (at < 0) {
            return null;
        }
        String[] rest = line.substring(at + tag.length()).split(" ", limit);
        String[] out = new String[rest.length + 1];
        out[0] = line.substring(0, at);
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    /**
     * A combination's start as a fork group reported it.
     *
     * @param before what the line held before the progress marker (another writer's unfinished line), often ""
     * @param index the combination's plan index
     * @param micros when it started, wall-clock microseconds ({@link ForkPhases#nowMicros})
     */
    public record Start(String before, int index, long micros) {
        /** The {@link #startLine} with {@code token} that {@code line} holds, or null when it holds none. */
        public static Start parse(String line, String token) {
            String[] f = fields(line, START, token, 2);
            if (f == null || f.length < 3) {
                return null;
            }
            try {
                return new Start(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2].strip()));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * A combination's end as a fork group reported it.
     *
     * @param before what the line held before the progress marker (another writer's unfinished line), often ""
     * @param index the plan index of the combination that ended
     * @param micros when it ended, wall-clock microseconds ({@link ForkPhases#nowMicros})
     * @param error null when the benchmark ran, else why not
     * @param poisoned whether its failure left the JVM's CUDA context unusable (the JVM ends after this line)
     */
    public record Done(String before, int index, long micros, String error, boolean poisoned) {
        /** The {@link #doneLine} with {@code token} that {@code line} holds, or null when it holds none. */
        public static Done parse(String line, String token) {
            String[] f = fields(line, DONE, token, 4);
            if (f == null || f.length < 4) {
                return null;
            }
            try {
                int index = Integer.parseInt(f[1]);
                long micros = Long.parseLong(f[2]);
                String message = f.length > 4 && !f[4].isBlank() ? f[4] : "the benchmark failed";
                return switch (f[3]) {
                    case "ok" -> new Done(f[0], index, micros, null, false);
                    case "error" -> new Done(f[0], index, micros, message, false);
                    case "poisoned" -> new Done(f[0], index, micros, message, true);
                    default -> null;
                };
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
