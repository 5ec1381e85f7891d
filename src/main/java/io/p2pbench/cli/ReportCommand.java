package io.p2pbench.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder until its issue lands. */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Not yet available.")
final class ReportCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserInputException("'p2pbench report' is not available in this build");
    }
}
