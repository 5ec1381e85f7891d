package io.p2pbench.cli;

import java.nio.file.Path;
import java.util.Arrays;
import picocli.CommandLine;

/**
 * Refuses an empty path on the command line, whatever the command: {@code Path.of("")} is the working
 * directory, so {@code migrate ""} (what an unset variable gives, {@code migrate "$DIR"}) would convert every
 * result folder below it and {@code report ""} read it. An empty value is a mistake, never a request for
 * the working directory ({@code .} says that). Checked once, after parsing and before any command runs.
 */
final class EmptyPaths {
    private EmptyPaths() {}

    /** A {@link CommandLine.ParameterException} of one line for the first empty path value in {@code parsed}. */
    static void check(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            for (CommandLine.Model.ArgSpec arg : p.matchedArgs()) {
                if (!takesPaths(arg)) {
                    continue;
                }
                for (String value : arg.originalStringValues()) {
                    if (value.isBlank()) {
                        String name = arg.isOption() ? ((CommandLine.Model.OptionSpec) arg).longestName()
                                : arg.paramLabel();
                        boolean file = arg.paramLabel() != null && arg.paramLabel().contains("FILE");
                        // An option that reads a file gets no hint of ".": "--topology ." is a folder, refused too.
                        throw new CommandLine.ParameterException(p.commandSpec().commandLine(), name + " '" + value
                                + "' is empty; " + (file ? "name a file" : "name a folder or file ("
                                + (arg.isOption() ? name + " ." : ".") + " is the working directory)"));
                    }
                }
            }
        }
    }

    private static boolean takesPaths(CommandLine.Model.ArgSpec arg) {
        return arg.type() == Path.class || Arrays.asList(arg.auxiliaryTypes()).contains(Path.class);
    }
}
