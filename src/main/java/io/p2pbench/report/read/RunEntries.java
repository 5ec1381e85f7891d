package io.p2pbench.report.read;

import io.p2pbench.results.RunManifest;
import io.p2pbench.spec.Combination;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.WorkloadSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns a manifest entry into its {@link RunEntry}, for {@link ResultReader}: the one place a report reads a
 * combination's string form. A kind this version knows must give its spec, and every file an entry names must lie
 * inside its result folder; anything else is one line naming the manifest and the entry.
 */
final class RunEntries {
    private RunEntries() {}

    /** The typed entry of {@code e}, a manifest entry of the result folder {@code dir} (its combination present). */
    static RunEntry of(Path dir, RunManifest.Entry e) throws BadInputException {
        Combination c = e.combination();
        WorkloadSpec spec = null;
        if (Kind.find(c.kind()) != null) {
            try {
                spec = WorkloadSpec.of(c);
            } catch (IllegalArgumentException bad) {
                throw new BadInputException(dir.resolve("manifest.json") + ": entry " + c.id() + " of kind "
                        + bad.getMessage());
            }
        }
        Metric metric = Arrays.stream(Metric.values()).filter(m -> m.label().equals(c.metric())).findFirst()
                .orElse(null);
        List<RunEntry.Round> rounds = new ArrayList<>();
        for (RunManifest.RoundResult r : e.roundsOrSelf()) {
            rounds.add(new RunEntry.Round(r.outcome(), inside(dir, c, "JMH", r.jmhFile()),
                    inside(dir, c, "samples", r.samplesFile())));
        }
        return new RunEntry(c.id(), spec, metric, c.singleGpu(), e.outcome(), e.cause(), e.reason(),
                inside(dir, c, "JMH", e.jmhFile()), inside(dir, c, "samples", e.samplesFile()), List.copyOf(rounds),
                e.bytesVerified());
    }

    /** {@code name} resolved in {@code dir}, which it must not lead out of; null for null. */
    private static Path inside(Path dir, Combination c, String what, String name) throws BadInputException {
        if (name == null) {
            return null;
        }
        Path folder = dir.toAbsolutePath().normalize();
        if (!folder.resolve(name).normalize().startsWith(folder)) {
            throw new BadInputException(dir.resolve("manifest.json") + ": entry " + c.id() + " names " + what
                    + " file '" + name + "' outside its result folder");
        }
        return dir.resolve(name);
    }
}
