package io.p2pbench.cli;

import io.p2pbench.files.FileProblem;
import io.p2pbench.report.Compare;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code p2pbench compare}: matches a baseline's results with each candidate's and prints, per
 * candidate, a verdict line and at most 20 worse/better measurements, then where compare.md and the
 * charts are. A candidate of another machine (another fingerprint) is printed side by side instead:
 * a line saying which machine is which, then every measurement's two figures and their ratio, with no
 * verdict. Exit 0: compared, nothing worse on the same machine; 1: a measurement worse beyond the
 * threshold and the noise floor on the same machine; 2: bad input. BASELINE and each CANDIDATE may be
 * comma lists of runs of one machine.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares candidate result folders with a baseline: result folders, nvbandwidth -j JSON, "
            + "nccl-tests -J JSON or nccl-tests' printed output. A comma list (a,b,c) is several runs of one side.",
            "A candidate of another machine (another fingerprint) is shown side by side: both figures and their "
                + "ratio per measurement, no verdicts.",
            "Exit code 0: compared, nothing worse on the same machine; 1: a measurement worse beyond the threshold "
                + "and the noise floor of reruns on the same machine; 2: bad input."})
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BASELINE",
            description = "Result folder(s) of one machine (comma list: several runs), nvbandwidth -j JSON or "
                    + "nccl-tests -J JSON or printed output.")
    String baseline;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "CANDIDATE",
            description = "Result folders; a comma list is several runs of one candidate.")
    List<String> candidates;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
            description = "Changes within this many percent count as the same. Default: ${DEFAULT-VALUE}.")
    double thresholdPct;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where compare.md and the overlay charts go. Default: reports/<fingerprint>/compare/.")
    Path out;

    @CommandLine.Mixin
    NvbandwidthSizeOption nvbandwidthSize;

    @Option(names = "--nccl-tests-op", paramLabel = "OP",
            description = "Collective of an nccl-tests printed-output baseline that does not name its program: "
                    + "ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER or ALL_TO_ALL.")
    String ncclTestsOperation;

    /** The paths of a comma list; an empty element is bad input. */
    private List<Path> runs(String list) {
        List<Path> out = new ArrayList<>();
        for (String part : list.split(",", -1)) {
            if (part.isBlank()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "'" + list + "' has an empty element; "
                        + "give a result folder or file, or several separated by commas (a,b,c)");
            }
            out.add(Path.of(part.strip()));
        }
        return SameFolders.once(out, spec.commandLine().getOut());
    }

    @Override
    public Integer call() {
        if (!(thresholdPct > 0 && thresholdPct < 100)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threshold "
                    + Main.asTyped(spec.commandLine(), "--threshold", thresholdPct)
                    + " is not a percentage above 0 and below 100, e.g. 5");
        }
        if (out != null) {
            OutputFolder.requireCanWrite("--out", out);
        }
        Compare.Outcome outcome;
        try {
            String op = Compare.ncclTestsOperation(ncclTestsOperation);
            List<Path> base = runs(baseline);
            List<List<Path>> cands = candidates.stream().map(this::runs).toList();
            ImportOptions.requireAFileInput(spec.commandLine(), Stream.concat(base.stream(),
                    cands.stream().flatMap(List::stream)).toList());
            outcome = Compare.run(base, cands, thresholdPct, nvbandwidthSize.bytes, op, out);
        } catch (IOException e) {
            throw new UserInputException(FileProblem.of(e));
        }
        outcome.summary().forEach(spec.commandLine().getOut()::println);
        spec.commandLine().getOut().flush();
        return outcome.worse() ? 1 : 0;
    }
}
