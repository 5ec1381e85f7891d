package io.p2pbench.run;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.p2pbench.fork.ForkPhases;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.spec.Combination;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.ResultMigration;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where each benchmark's wall time went ({@link ForkPhases}), kept in the result folder's {@code phases.json}. */
final class PhaseLog {
    private final ResultFolder folder;
    private final PrintWriter out;
    private final Map<String, ForkPhases.Breakdown> phases = new LinkedHashMap<>();

    PhaseLog(ResultFolder folder, PrintWriter out) {
        this.folder = folder;
        this.out = out;
    }

    /** Reads the fork's phases into {@code phases.json} and deletes its phase file; a benchmark's timing never fails the run. */
    void record(Combination c, Path phaseFile, long runnerStartMicros, long runnerEndMicros) {
        try {
            List<String> lines = Files.isRegularFile(phaseFile) ? Files.readAllLines(phaseFile) : List.of();
            Files.deleteIfExists(phaseFile);
            // A combination measured in rounds adds up its rounds.
            phases.merge(c.id(), ForkPhases.breakdown(lines, runnerStartMicros, runnerEndMicros),
                    ForkPhases.Breakdown::plus);
            ForkPhases.Breakdown all = total();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("about", "wall seconds per benchmark by phase; measured = the measurement iterations' timed part");
            doc.put("total", all);
            doc.put("overheadFraction", all.total() > 0 ? all.overhead() / all.total() : 0);
            doc.put("benchmarks", phases);
            AtomicFiles.write(folder.resolve(ResultMigration.PHASES), ResultFolder.mapper().writer()
                    .without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n");
        } catch (IOException e) {
            out.println("note: could not record the phases of " + c.id() + ": " + e.getMessage());
        }
    }

    /** How many benchmarks have phases. */
    int count() {
        return phases.size();
    }

    /** Every benchmark's phases added up. */
    ForkPhases.Breakdown total() {
        return phases.values().stream().reduce(ForkPhases.Breakdown.zero(), ForkPhases.Breakdown::plus);
    }
}
