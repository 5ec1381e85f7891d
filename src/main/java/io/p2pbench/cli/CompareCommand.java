package io.p2pbench.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "compare", mixinStandardHelpOptions = true, description = "Not yet available.")
final class CompareCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserInputException("'p2pbench compare' is not available in this build");
    }
}
