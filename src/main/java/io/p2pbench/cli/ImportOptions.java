package io.p2pbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code --nvbandwidth-size} and {@code --nccl-tests-op} say how to read nvbandwidth and nccl-tests files. Given
 * where every input is a result folder they would do nothing, which is a mistake worth one line (a wrong input,
 * or an option meant for another command), not a silent no-op.
 */
final class ImportOptions {
    private ImportOptions() {}

    /** Refuses an import option given explicitly where none of {@code inputs} is a file (all are folders). */
    static void requireAFileInput(CommandLine cl, List<Path> inputs) {
        if (inputs.stream().anyMatch(p -> !Files.isDirectory(p))) {
            return;
        }
        CommandLine.ParseResult parsed = cl.getParseResult();
        for (String option : new String[] {"--nvbandwidth-size", "--nccl-tests-op"}) {
            if (parsed.hasMatchedOption(option)) {
                String of = option.equals("--nvbandwidth-size") ? "an nvbandwidth -j file"
                        : "nccl-tests printed output";
                throw new CommandLine.ParameterException(cl, option + " " + Main.asTyped(cl, option, null)
                        + " says how to read " + of + ", and " + (inputs.isEmpty()
                        ? "no input here is a file" : "every input here is a result folder")
                        + "; leave it out, or give the file");
            }
        }
    }
}
