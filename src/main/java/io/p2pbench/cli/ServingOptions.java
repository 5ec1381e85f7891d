package io.p2pbench.cli;

import io.p2pbench.run.RunPlanner;
import io.p2pbench.serving.Target;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** {@code run}'s serving options: the latency target of the serving sweeps ({@code --paths SERVING}). */
final class ServingOptions {
    @Option(names = "--ttft-p99", paramLabel = "DURATION", defaultValue = "2s",
            description = "With --paths SERVING: the p99 time to first token a plan must stay within for its rate to "
                    + "count as capacity, e.g. 2s, 500ms (1ms..600s). Default: ${DEFAULT-VALUE}.")
    String ttftP99;

    @Option(names = "--tpot-p99", paramLabel = "DURATION", defaultValue = "100ms",
            description = "With --paths SERVING: the p99 time per output token after the first, e.g. 100ms, 0.05s "
                    + "(1ms..600s). Default: ${DEFAULT-VALUE}.")
    String tpotP99;

    /**
     * The target the flags set; a bad value, or a target given without the serving sweeps, is bad input
     * (one line, exit 2).
     */
    Target target(CommandLine cl, Set<String> paths) {
        CommandLine.ParseResult parsed = cl.getParseResult();
        boolean given = parsed != null && (parsed.hasMatchedOption("--ttft-p99") || parsed.hasMatchedOption("--tpot-p99"));
        if (given && (paths == null || !paths.contains(RunPlanner.SERVING))) {
            throw new CommandLine.ParameterException(cl, "--ttft-p99 and --tpot-p99 set the serving sweeps' latency "
                    + "target; add --paths SERVING");
        }
        try {
            return new Target(Target.parseDuration("--ttft-p99", ttftP99), Target.parseDuration("--tpot-p99", tpotP99));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
    }
}
