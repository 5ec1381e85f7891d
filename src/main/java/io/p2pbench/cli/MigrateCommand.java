package io.p2pbench.cli;

import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code p2pbench migrate}: converts result folders to the current format in place
 * ({@code docs/results-format.md}); a folder already in it is left as it is, so running it twice is
 * harmless. Needs no GPU.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Converts result folders to format " + RunManifest.FORMAT + " in place: JMH JSON and "
            + "samples gzipped, the duplicate jmh-results.json and ok benchmarks' logs removed; every figure "
            + "unchanged. Folders already converted are left alone.",
            "Each PATH is a result folder or a folder holding result folders at any depth, e.g. results/."})
final class MigrateCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Result folders, or folders holding them.")
    List<Path> paths;

    @Override
    public Integer call() {
        Set<Path> folders = new LinkedHashSet<>();
        try {
            for (Path p : paths) {
                folders.addAll(ResultMigration.find(p));
            }
        } catch (IOException e) {
            throw new UserInputException(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        List<ResultMigration.Outcome> done = new ArrayList<>();
        for (Path dir : folders) {
            ResultMigration.Outcome o;
            try {
                o = ResultMigration.migrate(dir);
            } catch (IOException e) {
                out.flush();
                throw new UserInputException(e.getMessage());
            }
            done.add(o);
            out.println(dir + ": " + (RunManifest.FORMAT.equals(o.from())
                    ? "already " + RunManifest.FORMAT + (o.changed() ? ", leftover files removed" : "")
                    : o.from() + " -> " + RunManifest.FORMAT) + ", " + Sizes.format(o.bytesBefore()) + " -> "
                    + Sizes.format(o.bytesAfter()));
            out.flush();
        }
        long before = done.stream().mapToLong(ResultMigration.Outcome::bytesBefore).sum();
        long after = done.stream().mapToLong(ResultMigration.Outcome::bytesAfter).sum();
        out.println(done.size() + " result folder(s), " + Sizes.format(before) + " -> " + Sizes.format(after));
        out.flush();
        return 0;
    }
}
