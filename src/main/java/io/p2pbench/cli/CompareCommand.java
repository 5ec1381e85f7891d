package io.p2pbench.cli;

import io.p2pbench.report.Compare;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code p2pbench compare}: matches a baseline's results with each candidate's and prints a verdict
 * table; exit 1 when a match is significantly worse beyond the threshold, 0 otherwise, 2 for bad input.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares candidate result folders with a baseline: a result folder, nvbandwidth -j JSON or "
            + "nccl-tests -J JSON.", "Exit code 1 when a match is worse beyond the threshold and significant, else 0."})
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BASELINE",
            description = "Result folder, nvbandwidth -j JSON or nccl-tests -J JSON.")
    Path baseline;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "CANDIDATE", description = "Result folders.")
    List<Path> candidates;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
            description = "Changes within this many percent count as the same. Default: ${DEFAULT-VALUE}.")
    double thresholdPct;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where compare.md and the overlay charts go. Default: charts/<fingerprint>/compare/.")
    Path out;

    @Option(names = "--nvbandwidth-size", paramLabel = "SIZE", converter = RunCommand.SizeConverter.class,
            defaultValue = "512M",
            description = "Buffer size of an nvbandwidth baseline (its -b; the JSON does not record it). "
                    + "Default: ${DEFAULT-VALUE}, nvbandwidth's default.")
    long nvbandwidthBytes;

    @Option(names = "--nccl-tests-op", paramLabel = "OP",
            description = "Collective of an nccl-tests printed-output baseline that does not name its program: "
                    + "ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER or ALL_TO_ALL.")
    String ncclTestsOperation;

    @Override
    public Integer call() {
        if (!(thresholdPct > 0 && thresholdPct < 100)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threshold " + thresholdPct
                    + " is not a percentage above 0 and below 100, e.g. 5");
        }
        if (out != null) {
            OutputFolder.requireWritable("--out", out);
        }
        Compare.Outcome outcome;
        try {
            outcome = Compare.run(baseline, candidates, thresholdPct, nvbandwidthBytes, ncclTestsOperation, out);
        } catch (IOException e) {
            throw new UserInputException(e.getMessage());
        }
        spec.commandLine().getOut().print(outcome.markdown());
        spec.commandLine().getOut().println("Written to " + outcome.outDir().resolve(Compare.MARKDOWN));
        spec.commandLine().getOut().flush();
        return outcome.worse() ? 1 : 0;
    }
}
