package io.p2pbench.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Not yet available.")
final class RunCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserInputException("'p2pbench run' is not available in this build");
    }
}
