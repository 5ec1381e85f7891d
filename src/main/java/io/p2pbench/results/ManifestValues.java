package io.p2pbench.results;

import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The values of a manifest that every reader relies on, checked once where it is read
 * ({@link ResultFolder#readManifest()}), so that a damaged or crafted folder is one line naming the
 * field instead of a failure deep in the report: when the run started (runs are ordered by it), its
 * state and preset (the report's table of runs), and each combination's transfer size (the charts'
 * size axes; a size of 0 made the log axis run from minus infinity, and the report spin until the heap
 * ran out). The paths and names it holds are {@link ManifestPaths}' job.
 */
final class ManifestValues {
    private ManifestValues() {}

    /** Checks {@code m}, read from {@code manifestFile}; an {@link IOException} of one line otherwise. */
    static void check(Path manifestFile, RunManifest m) throws IOException {
        if (m.startedAt() == null) {
            throw new IOException(manifestFile + " has no \"startedAt\"; a manifest says when its run started, e.g. "
                    + "\"startedAt\": \"2026-12-02T14:27:49Z\"");
        }
        try {
            Instant.parse(m.startedAt());
        } catch (DateTimeParseException e) {
            throw new IOException(manifestFile + ": startedAt " + ManifestPaths.quote(m.startedAt()) + " is not a "
                    + "UTC time; expected e.g. \"2026-12-02T14:27:49Z\"");
        }
        if (m.runStatus() == null || m.preset() == null) {
            throw new IOException(manifestFile + " has no \"" + (m.runStatus() == null ? "state" : "preset") + "\"; a "
                    + "manifest names its run's " + (m.runStatus() == null ? "state (running, complete or interrupted)"
                    : "preset (quick, standard or full)"));
        }
        List<RunManifest.Entry> entries = m.entries() == null ? List.of() : m.entries();
        for (int i = 0; i < entries.size(); i++) {
            RunManifest.Entry e = entries.get(i);
            if (e != null && (e.outcome() == null || e.roundsOrSelf().stream().anyMatch(r -> r.outcome() == null))) {
                throw new IOException(manifestFile + ": entries[" + i + "] or a round of it has no \"status\"; "
                        + "accepted: " + List.of(Outcome.values()));
            }
            if (e != null && e.combination() != null) {
                String problem = Sizes.recordedSizeProblem(e.combination().sizeBytes());
                if (problem != null) {
                    throw new IOException(manifestFile + ": entries[" + i + "].combination.sizeBytes " + problem);
                }
                String param = e.combination().params() == null ? null : e.combination().params().get("sizeBytes");
                if (param != null && !param.equals(Long.toString(e.combination().sizeBytes()))) {
                    // The benchmark ran at its parameter's size; the report labels the row with the other one.
                    throw new IOException(manifestFile + ": entries[" + i + "].combination.sizeBytes "
                            + e.combination().sizeBytes() + " is not its params.sizeBytes " + ManifestPaths.quote(param)
                            + "; a combination has one size");
                }
            }
            if (e != null) {
                List<Long> verified = new ArrayList<>();
                verified.add(e.bytesVerified());
                if (e.rounds() != null) {
                    e.rounds().forEach(r -> verified.add(r == null ? null : r.bytesVerified()));
                }
                for (Long bytes : verified) {
                    if (bytes != null && bytes < 0) {
                        throw new IOException(manifestFile + ": entries[" + i + "] or a round of it has bytesVerified "
                                + bytes + "; expected 0 or more bytes");
                    }
                }
            }
        }
    }
}
