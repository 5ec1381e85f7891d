package io.p2pbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.p2pbench.spec.Combination;
import io.p2pbench.transfer.SkipCause;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code manifest.json} of a result folder: the provenance of a run (suite version, command,
 * machine, settings, times) and what became of every planned benchmark.
 *
 * @param format {@link #FORMAT} when written by this suite; readers accept {@link #READABLE}
 * @param suiteBuild the commit the suite was built from ({@code 4d047f6}, {@code 4d047f6-dirty} or
 *     {@code unknown}); null in results written before it was recorded
 * @param state {@code running}, {@code complete} or {@code interrupted}
 * @param settings preset timing and knobs, as given to JMH
 */
public record RunManifest(String format, String suiteVersion, String suiteBuild, String command, String preset, String fingerprint,
                          String startedAt, String finishedAt, String state, Map<String, Object> settings,
                          List<Entry> entries) {
    /** The result format this suite writes: per-benchmark files gzip-compressed, no merged JMH file. */
    public static final String FORMAT = "p2pbench-results/2";
    /** The first format (plain JSON, JMH's JSON also merged into jmh-results.json): still read. */
    public static final String FORMAT_1 = "p2pbench-results/1";
    /** The formats this suite reads. */
    public static final Set<String> READABLE = Set.of(FORMAT_1, FORMAT);

    /**
     * One planned benchmark and its outcome.
     *
     * @param status {@code pending}, {@code ok}, {@code skipped}, {@code failed}, {@code timeout} or
     *     {@code interrupted}
     * @param reason why it was skipped or failed, else null
     * @param jmhFile JMH's JSON for it, relative to the folder, when ok ({@code .json.gz} from format 2)
     * @param samplesFile per-batch samples, relative, for bandwidth benchmarks ({@code .json.gz} from format 2)
     * @param logFile JMH's console output, relative (format 2: kept, as {@code .log.gz}, only for
     *     benchmarks that did not finish ok)
     * @param seconds wall time it took
     * @param headline the figure printed when it finished, e.g. {@code 54.1 GB/s (device, median)}
     * @param bytesVerified bytes the fork checked against the expected data and found right (every
     *     iteration, warm-up included), when ok; null otherwise and in results from before it was recorded
     * @param placement host, rank and GPU of the process that measured it, in a job of several processes
     *     ({@code docs/multiprocess.md}); absent (null) in one-process runs, so their manifests are unchanged
     * @param rounds each round's outcome, in order, for a combination measured in several rounds (the entry's own
     *     status is ok only when every round is; its files and headline are the first round's); absent (null)
     *     for a combination measured once, so such manifests are unchanged
     * @param skipCause why it was skipped, as a type, beside {@code reason} (which is for people): what decisions
     *     read through {@link #cause()}; absent (null) when not skipped, and in manifests written before it was
     *     recorded
     */
    public record Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                        String logFile, Double seconds, String headline, Long bytesVerified,
                        @JsonInclude(JsonInclude.Include.NON_NULL) RankPlacement placement,
                        @JsonInclude(JsonInclude.Include.NON_NULL) List<RoundResult> rounds,
                        @JsonInclude(JsonInclude.Include.NON_NULL) SkipCause skipCause) {
        /** An entry with its rounds, not skipped. */
        public Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified, RankPlacement placement,
                     List<RoundResult> rounds) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified, placement,
                    rounds, null);
        }

        /** An entry measured once. */
        public Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified, RankPlacement placement) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified, placement,
                    null);
        }

        /** An entry of a one-process run. */
        public Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified, null);
        }

        /** An entry without a verification count: not ok, or not yet run. */
        public Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, null);
        }

        /** This entry's outcome as one round's. */
        public RoundResult asRound() {
            return new RoundResult(status, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified);
        }

        /** The rounds of this entry: its own list, or the entry itself as its one round. */
        public List<RoundResult> roundsOrSelf() {
            return rounds != null ? rounds : List.of(asRound());
        }

        /** A skipped entry: its cause as a type, its reason in words. */
        public static Entry skipped(Combination c, SkipCause cause, String reason, String logFile, Double seconds) {
            return new Entry(c, "skipped", reason, null, null, logFile, seconds, null, null, null, null, cause);
        }

        /**
         * Why it was skipped, as a type; null when it was not skipped. A skip recorded without its cause (a manifest
         * written before causes were, or by a tool that gives none) has the cause its reason's words meant: this
         * is the manifest reader's one reading of a reason ({@link LegacySkipCauses}); nothing else reads one.
         */
        @JsonIgnore
        public SkipCause cause() {
            if (!"skipped".equals(status)) {
                return null;
            }
            return skipCause != null ? skipCause : LegacySkipCauses.of(reason);
        }

        /** A not-yet-run entry (or a planned skip, with the cause the planner gave). */
        public static Entry planned(Combination c) {
            return c.plannedSkip() ? skipped(c, c.skipCause(), c.skipReason(), null, 0.0)
                    : new Entry(c, "pending", null, null, null, null, null, null);
        }
    }

    /**
     * One round of a combination measured in several rounds: the fields of an {@link Entry} for that round alone
     * ({@code jmh/NNN-ID.rK.json.gz}, {@code samples/ID.rK.json.gz}).
     */
    public record RoundResult(String status, String reason, String jmhFile, String samplesFile, String logFile,
                              Double seconds, String headline, Long bytesVerified) {}
}
