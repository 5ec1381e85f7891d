package io.p2pbench.cli;

import io.p2pbench.files.FileProblem;
import io.p2pbench.report.Reporter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code p2pbench report}: statistics, charts, summary.md and exports of result folders; no GPU needed. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Renders result folders into summary.md, statistics.md, report.html, charts (SVG; with --png "
            + "also PNG), github-action-benchmark files and the runs' JMH JSON.", "Needs no GPU."})
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RESULT_DIR",
            description = "Result folders as run writes them: results/<machine>/<UTC start time>.")
    List<Path> resultDirs;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output folder: a new or empty folder, or one an earlier report wrote. Default: "
                    + "reports/<fingerprint>/.")
    Path out;

    @Option(names = "--nvbandwidth", paramLabel = "FILE",
            description = "nvbandwidth -j output from the same machine: the headline shows its figure beside ours.")
    Path nvbandwidth;

    @CommandLine.Mixin
    NvbandwidthSizeOption nvbandwidthSize;

    @Option(names = "--png", description = "Also write every chart as PNG (for tools that show no SVG), where this "
            + "machine has fonts; without fonts one line says so and the charts stay SVG only.")
    boolean png;

    @Override
    public Integer call() {
        if (out != null) {
            OutputFolder.requireCanWrite("--out", out);
        }
        if (nvbandwidth == null && spec.commandLine().getParseResult().hasMatchedOption("--nvbandwidth-size")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nvbandwidth-size says how to read the "
                    + "--nvbandwidth file, and none is given; add --nvbandwidth FILE, or leave it out");
        }
        List<Path> runs = SameFolders.once(resultDirs, spec.commandLine().getOut());
        Reporter.Report report;
        try {
            report = Reporter.render(runs, nvbandwidth, nvbandwidthSize.bytes, out, png); // out null: the default
        } catch (IOException e) {
            throw new UserInputException(FileProblem.of(e));
        }
        spec.commandLine().getOut().println("Report: " + report.summary() + (out == null
                ? " (the default folder; --out DIR writes elsewhere)" : ""));
        if (!report.pngNote().isEmpty()) {
            spec.commandLine().getOut().println(report.pngNote());
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
