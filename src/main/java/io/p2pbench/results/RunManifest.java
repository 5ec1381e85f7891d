package io.p2pbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
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
 * @param runStatus the run's {@code state}: {@code running}, {@code complete} or {@code interrupted}; null only in a
 *     manifest that names none (which the reader refuses)
 * @param settings preset timing and knobs, as given to JMH
 */
public record RunManifest(String format, String suiteVersion, String suiteBuild, String command, String preset, String fingerprint,
                          String startedAt, String finishedAt, @JsonProperty("state") RunStatus runStatus,
                          Map<String, Object> settings, List<Entry> entries) {
    /** The result format this suite writes: per-benchmark files gzip-compressed, no merged JMH file. */
    public static final String FORMAT = "p2pbench-results/2";
    /** The first format (plain JSON, JMH's JSON also merged into jmh-results.json): still read. */
    public static final String FORMAT_1 = "p2pbench-results/1";
    /** The formats this suite reads. */
    public static final Set<String> READABLE = Set.of(FORMAT_1, FORMAT);

    /** A manifest with its state as the manifest's word ({@link RunStatus#of}: any other text is refused). */
    public RunManifest(String format, String suiteVersion, String suiteBuild, String command, String preset,
                       String fingerprint, String startedAt, String finishedAt, String state,
                       Map<String, Object> settings, List<Entry> entries) {
        this(format, suiteVersion, suiteBuild, command, preset, fingerprint, startedAt, finishedAt,
                state == null ? null : RunStatus.of(state), settings, entries);
    }

    /** The run's state as the manifest's word, for people; decisions read {@link #runStatus()}. */
    public String state() {
        return runStatus == null ? null : runStatus.text();
    }

    /**
     * One planned benchmark and its outcome.
     *
     * @param outcome its {@code status}: {@code pending}, {@code ok}, {@code skipped}, {@code failed},
     *     {@code timeout} or {@code interrupted}
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
    public record Entry(Combination combination, @JsonProperty("status") Outcome outcome, String reason, String jmhFile,
                        String samplesFile, String logFile, Double seconds, String headline, Long bytesVerified,
                        @JsonInclude(JsonInclude.Include.NON_NULL) RankPlacement placement,
                        @JsonInclude(JsonInclude.Include.NON_NULL) List<RoundResult> rounds,
                        @JsonInclude(JsonInclude.Include.NON_NULL) SkipCause skipCause) {
        /** An entry with its rounds, not skipped. */
        public Entry(Combination combination, Outcome status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified, RankPlacement placement,
                     List<RoundResult> rounds) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified, placement,
                    rounds, null);
        }

        /** An entry measured once. */
        public Entry(Combination combination, Outcome status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified, RankPlacement placement) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified, placement,
                    null);
        }

        /** An entry of a one-process run. */
        public Entry(Combination combination, Outcome status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified, null);
        }

        /** An entry without a verification count: not ok, or not yet run. */
        public Entry(Combination combination, Outcome status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline) {
            this(combination, status, reason, jmhFile, samplesFile, logFile, seconds, headline, null);
        }

        /** An entry placed in a job, its status as the manifest's word ({@link Outcome#of}: other text is refused). */
        public Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified, RankPlacement placement) {
            this(combination, Outcome.of(status), reason, jmhFile, samplesFile, logFile, seconds, headline,
                    bytesVerified, placement);
        }

        /** An entry of a one-process run, its status as the manifest's word. */
        public Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline, Long bytesVerified) {
            this(combination, Outcome.of(status), reason, jmhFile, samplesFile, logFile, seconds, headline,
                    bytesVerified);
        }

        /** An entry without a verification count, its status as the manifest's word. */
        public Entry(Combination combination, String status, String reason, String jmhFile, String samplesFile,
                     String logFile, Double seconds, String headline) {
            this(combination, Outcome.of(status), reason, jmhFile, samplesFile, logFile, seconds, headline);
        }

        /** The status as the manifest's word, for people; decisions read {@link #outcome()}. */
        public String status() {
            return outcome == null ? null : outcome.text();
        }

        /** This entry's outcome as one round's. */
        public RoundResult asRound() {
            return new RoundResult(outcome, reason, jmhFile, samplesFile, logFile, seconds, headline, bytesVerified);
        }

        /** The rounds of this entry: its own list, or the entry itself as its one round. */
        public List<RoundResult> roundsOrSelf() {
            return rounds != null ? rounds : List.of(asRound());
        }

        /** A skipped entry: its cause as a type, its reason in words. */
        public static Entry skipped(Combination c, SkipCause cause, String reason, String logFile, Double seconds) {
            return new Entry(c, Outcome.SKIPPED, reason, null, null, logFile, seconds, null, null, null, null, cause);
        }

        /**
         * Why it was skipped, as a type; null when it was not skipped. A skip recorded without its cause (a manifest
         * written before causes were, or by a tool that gives none) has the cause its reason's words meant: this
         * is the manifest reader's one reading of a reason ({@link LegacySkipCauses}); nothing else reads one.
         */
        @JsonIgnore
        public SkipCause cause() {
            if (outcome != Outcome.SKIPPED) {
                return null;
            }
            return skipCause != null ? skipCause : LegacySkipCauses.of(reason);
        }

        /** A not-yet-run entry (or a planned skip, with the cause the planner gave). */
        public static Entry planned(Combination c) {
            return c.plannedSkip() ? skipped(c, c.skipCause(), c.skipReason(), null, 0.0)
                    : new Entry(c, Outcome.PENDING, null, null, null, null, null, null);
        }
    }

    /**
     * One round of a combination measured in several rounds: the fields of an {@link Entry} for that round alone
     * ({@code jmh/NNN-ID.rK.json.gz}, {@code samples/ID.rK.json.gz}).
     */
    public record RoundResult(@JsonProperty("status") Outcome outcome, String reason, String jmhFile,
                              String samplesFile, String logFile, Double seconds, String headline, Long bytesVerified) {
        /** The status as the manifest's word, for people; decisions read {@link #outcome()}. */
        public String status() {
            return outcome == null ? null : outcome.text();
        }
    }
}
