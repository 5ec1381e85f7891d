package io.p2pbench.report.read;

import io.p2pbench.results.Outcome;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.PartitionRun;
import io.p2pbench.spec.Serving;
import io.p2pbench.spec.WorkloadSpec;
import io.p2pbench.transfer.SkipCause;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One planned combination of a run as {@link ResultReader} read it from the manifest: its workload typed, what
 * became of it, and its files resolved inside the result folder. The manifest's string form of the combination
 * stays in the reader; the report's sections read these ({@link ResultData#entries()}).
 *
 * @param id the combination's id: what its figures, files and messages are named by
 * @param spec the workload ({@code WorkloadSpec.of}); null for a kind this version does not know (counted in
 *     {@link ResultData#unknownKinds()} when ok)
 * @param metric what it measured, or null where the manifest names no metric this version knows
 * @param singleGpu whether nothing crossed an interconnect between GPUs
 * @param outcome what became of it
 * @param cause why it was skipped, as a type; null unless {@link Outcome#SKIPPED}
 * @param reason why it was not measured, as recorded for people; null where none was recorded
 * @param jmhFile its JMH JSON ({@code jmh/NNN-ID.json.gz}; the first round's of several), or null
 * @param samplesFile its per-batch or per-request samples ({@code samples/ID.json.gz}; the first round's), or null
 * @param rounds its rounds in order, each with its outcome and files (an entry measured once is its own one round)
 * @param bytesVerified bytes its fork checked and found right, when ok; null otherwise and in older results
 */
public record RunEntry(String id, WorkloadSpec spec, Metric metric, boolean singleGpu, Outcome outcome,
                       SkipCause cause, String reason, Path jmhFile, Path samplesFile, List<Round> rounds,
                       Long bytesVerified) {

    /**
     * One round of an entry: its outcome and files, each inside the result folder (null where none was recorded).
     *
     * @param outcome what became of the round
     * @param jmhFile its JMH JSON ({@code jmh/NNN-ID.json.gz})
     * @param samplesFile its per-batch or per-request samples ({@code samples/ID.json.gz})
     */
    public record Round(Outcome outcome, Path jmhFile, Path samplesFile) {}

    /** The serving sweep it ran, else empty (another workload, or a kind this version does not know). */
    public Optional<Serving> serving() {
        return spec == null ? Optional.empty() : spec.servingSweep();
    }

    /** The run of the partition study it was, else empty (another workload, or a kind this version does not know). */
    public Optional<PartitionRun> partitionRun() {
        return spec == null ? Optional.empty() : spec.partitionStudyRun();
    }

    /** Whether it was measured: its figures are in the result folder. */
    public boolean ok() {
        return outcome == Outcome.OK;
    }
}
