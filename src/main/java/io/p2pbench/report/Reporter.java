package io.p2pbench.report;

import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.chart.FileNames;
import io.p2pbench.report.chart.PngCharts;
import io.p2pbench.report.chart.ServingCharts;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.render.BenchmarkActionExport;
import io.p2pbench.report.render.HtmlReport;
import io.p2pbench.report.render.MarkdownSafety;
import io.p2pbench.report.render.ReportContent;
import io.p2pbench.report.render.SummaryWriter;
import io.p2pbench.report.stats.HockneyFit;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.report.verdict.PartitionVerdict;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.results.ResultFolder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code p2pbench report}: reads result folders, computes the statistics and alpha-beta fits,
 * draws the charts and writes, into one output folder, {@code summary.md}, {@code statistics.md},
 * the charts (SVG; PNG too when asked, where the machine has fonts), github-action-benchmark files and each
 * run's JMH JSON untouched.
 * The folder is the report's ({@link ReportFolder}): a rerun replaces the previous report's files and
 * removes those it does not write again; a folder holding anything else is refused. The report is written
 * whole or not at all ({@link StagedOutput}). Needs no GPU. Run: {@code p2pbench report results/FINGERPRINT/UTC-TIME}.
 */
public final class Reporter {
    /** Name of the summary file. */
    public static final String SUMMARY = "summary.md";
    /** Name of the full per-size statistics file. */
    public static final String STATISTICS = SummaryWriter.STATISTICS;
    /** Where reports go when no folder is named: {@value #DEFAULT_ROOT}, ignored by git in a checkout. */
    public static final String DEFAULT_ROOT = "reports";

    private Reporter() {}

    /**
     * Checks, before anything is measured or written, that a report may write into {@code dir}: a new or
     * empty folder, or one an earlier report wrote ({@link ReportFolder}); else one line saying why.
     */
    public static void requireReportFolder(Path dir) throws BadInputException {
        try {
            ReportFolder.claim(dir);
        } catch (BadInputException e) {
            throw e;
        } catch (IOException e) {
            throw new BadInputException("cannot read the report folder " + dir + ": " + e.getMessage());
        }
    }

    /**
     * The default output folder for a machine: {@code reports/<fingerprint>} (its name bounded,
     * {@link FileNames#bounded}). Never {@code charts/}, where a checkout keeps its committed example reports:
     * a default must never change tracked files.
     */
    public static Path defaultOutDir(String fingerprint) {
        return Path.of(DEFAULT_ROOT, FileNames.bounded(fingerprint));
    }

    /**
     * Renders the report of {@code resultDirs} into {@link #defaultOutDir} of their machine (machines
     * joined with {@code +} when they differ); returns the path of summary.md.
     */
    public static Path render(List<Path> resultDirs) throws IOException {
        return write(readAll(resultDirs), null, null).summary();
    }

    /**
     * Renders the report of {@code resultDirs} into {@code outDir} (created if needed); returns the path
     * of summary.md. This is what {@code p2pbench run --report} calls after a run. Bad input throws a
     * {@link BadInputException} with one line saying what is wrong.
     */
    public static Path render(List<Path> resultDirs, Path outDir) throws IOException {
        return write(readAll(resultDirs), outDir);
    }

    /**
     * As {@link #render(List, Path)}, with an nvbandwidth {@code -j} output beside the runs (its buffer
     * size {@code nvbandwidthBytes}, which its JSON does not record): the headline's nvbandwidth column
     * shows its figure for the same copy and size. It stays a separate source (its own machine label),
     * so it never replaces a run's figure.
     */
    public static Path render(List<Path> resultDirs, Path nvbandwidth, long nvbandwidthBytes, Path outDir)
            throws IOException {
        return render(resultDirs, nvbandwidth, nvbandwidthBytes, outDir, (PngCharts) null).summary();
    }

    /**
     * What a report wrote.
     *
     * @param summary the path of summary.md
     * @param pngNote one line on the PNG charts (how many, or why none were written), empty when none were asked for
     */
    public record Report(Path summary, String pngNote) {}

    /**
     * As {@link #render(List, Path, long, Path)} ({@code nvbandwidth} may be null; {@code outDir} null: the
     * default folder, {@link #defaultOutDir}); with {@code png}, every chart also as PNG where this machine has
     * fonts, else one line saying why not and SVG only.
     */
    public static Report render(List<Path> resultDirs, Path nvbandwidth, long nvbandwidthBytes, Path outDir,
                                boolean png) throws IOException {
        return render(resultDirs, nvbandwidth, nvbandwidthBytes, outDir, png ? PngCharts.here() : null);
    }

    public static Report render(List<Path> resultDirs, Path nvbandwidth, long nvbandwidthBytes, Path outDir, PngCharts png)
            throws IOException {
        List<ResultData> sources = readAll(resultDirs);
        if (nvbandwidth != null) {
            ResultData reference = Compare.read(nvbandwidth, nvbandwidthBytes);
            if (reference.tool() != ResultData.Tool.NVBANDWIDTH) {
                throw new BadInputException("--nvbandwidth " + nvbandwidth + " is not nvbandwidth -j JSON; give the file "
                        + "nvbandwidth -j wrote");
            }
            sources.add(reference);
        }
        return write(sources, outDir, png);
    }

    /**
     * Writes the report whole into {@code outDir} (null: the default folder of the sources' machines) through
     * a staging folder ({@link StagedOutput}): when that fails (a full disk) or is interrupted, the folder
     * holds what it held before, and the one-line message names the file that could not be written.
     */
    private static Path write(List<ResultData> sources, Path outDir) throws IOException {
        return write(sources, outDir, null).summary();
    }

    private static Report write(List<ResultData> sources, Path outDir, PngCharts png) throws IOException {
        if (outDir == null) {
            Path dir = defaultOutDir(String.join("+", sources.stream().map(ResultData::machine).distinct().toList()));
            return StagedOutput.writeDefault(dir, "report", (staging, written) -> writeInto(sources, staging, dir,
                    png, written));
        }
        return StagedOutput.write(outDir, "report", (staging, written) -> writeInto(sources, staging, outDir, png,
                written));
    }

    /** Writes the report into {@code outDir} (a staging folder); {@code target} is where it will be. */
    private static Report writeInto(List<ResultData> sources, Path outDir, Path target, PngCharts png,
                                    List<Path> written) throws IOException {
        Merged merged = merge(sources);
        List<Measurement> measurements = merged.measurements();
        List<Charts.ChartFile> charts = new ArrayList<>();
        Map<String, ResultData> machines = new LinkedHashMap<>();
        sources.stream().filter(ResultData::isRun).forEach(d -> machines.putIfAbsent(d.machine(), d));
        for (ResultData machine : machines.values()) {
            String prefix = machines.size() > 1 ? Charts.stem(machine.machine()) + "-" : "";
            charts.addAll(Charts.forMachine(machine,
                    measurements.stream().filter(m -> m.machine().equals(machine.machine())).toList(), outDir, prefix));
        }
        List<ResultData> runs = sources.stream().filter(ResultData::isRun).toList();
        List<PartitionVerdict.Figure> partition = PartitionVerdict.figures(sources);
        Map<String, String> descriptions = new LinkedHashMap<>();
        machines.values().forEach(d -> descriptions.put(d.machine(), d.machineDescription()));
        charts.addAll(PartitionVerdict.writeCharts(partition, descriptions, outDir));
        List<ServingResults.Sweep> serving = ServingResults.read(sources);
        charts.addAll(ServingCharts.write(serving, descriptions, outDir));
        List<String> exports = new ArrayList<>(exports(runs, measurements.stream()
                .filter(m -> runs.stream().anyMatch(d -> d.machine().equals(m.machine()))).toList(), outDir, written));
        ReportContent content = new ReportContent(sources, measurements, merged.superseded(), merged.runOf(),
                HockneyFit.fitAll(measurements), charts, exports, partition, serving);
        SummaryWriter.Documents docs = SummaryWriter.render(content, outDir);
        AtomicFiles.write(outDir.resolve(STATISTICS), MarkdownSafety.document(docs.statistics()));
        Path summary = outDir.resolve(SUMMARY);
        AtomicFiles.write(summary, MarkdownSafety.document(docs.summary()));
        AtomicFiles.write(outDir.resolve(HtmlReport.FILE), HtmlReport.render(docs.page(), outDir));
        charts.forEach(c -> written.add(c.svg()));
        written.addAll(List.of(outDir.resolve(STATISTICS), summary, outDir.resolve(HtmlReport.FILE)));
        String pngNote = "";
        if (png != null) {
            Optional<String> why = png.unavailable();
            if (why.isPresent()) {
                pngNote = "PNG: none written: " + why.get() + "; the charts are SVG only";
            } else {
                written.addAll(png.write(charts));
                pngNote = "PNG: " + charts.size() + " charts beside their SVG in " + target;
            }
        }
        return new Report(target.resolve(SUMMARY), pngNote);
    }

    /**
     * The measurements of several runs.
     *
     * @param measurements one per machine and key: the run started last wins
     * @param superseded how many figures a later run replaced
     */
    record Merged(List<Measurement> measurements, int superseded, Map<Measurement, String> runOf) {}

    /** Merges the measurements of {@code sources}, which are ordered oldest first. */
    static Merged merge(List<ResultData> sources) {
        Map<String, Measurement> newest = new LinkedHashMap<>();
        Map<Measurement, String> runOf = new IdentityHashMap<>();
        int superseded = 0;
        for (ResultData d : sources) {
            for (Measurement m : d.measurements()) {
                runOf.put(m, d.label());
                if (newest.put(m.machine() + "|" + m.key(), m) != null) {
                    superseded++;
                }
            }
        }
        return new Merged(List.copyOf(newest.values()), superseded, runOf);
    }

    /** Reads every folder, oldest run first. */
    static List<ResultData> readAll(List<Path> resultDirs) throws BadInputException {
        if (resultDirs.isEmpty()) {
            throw new BadInputException("no result folder given");
        }
        List<ResultData> sources = new ArrayList<>();
        for (Path dir : resultDirs) {
            sources.add(ResultReader.read(dir));
        }
        sources.sort(Comparator.comparing(d -> String.valueOf(d.manifest().startedAt())));
        return sources;
    }

    /**
     * Writes the github-action-benchmark files and copies each run's JMH JSON, adding each file to {@code
     * written}; one line per export.
     */
    private static List<String> exports(List<ResultData> sources, List<Measurement> ms, Path outDir,
                                        List<Path> written) throws IOException {
        List<String> lines = new ArrayList<>();
        BenchmarkActionExport.write(ms, outDir);
        for (String name : List.of(BenchmarkActionExport.BIGGER, BenchmarkActionExport.SMALLER,
                BenchmarkActionExport.BENCHER)) {
            written.add(outDir.resolve(name));
        }
        lines.add("`" + BenchmarkActionExport.BIGGER + "`, `" + BenchmarkActionExport.SMALLER
                + "`: github-action-benchmark, tools `customBiggerIsBetter` (bandwidth medians) and "
                + "`customSmallerIsBetter` (latency p50, and p99 from " + Statistics.minSamples(99) + " samples).");
        lines.add("`" + BenchmarkActionExport.BENCHER + "`: Bencher Metric Format (`bencher run --adapter json --file "
                + BenchmarkActionExport.BENCHER + "`), measures `" + BenchmarkActionExport.BENCHER_BANDWIDTH
                + "` (GB/s median, bounds the t-interval), `latency` (p50, ns) and `" + BenchmarkActionExport.BENCHER_P99
                + "` (ns, from " + Statistics.minSamples(99) + " samples).");
        for (ResultData d : sources) {
            // Format 1 stores the merged array (jmh-results.json); format 2 keeps one gzipped file per benchmark.
            Optional<byte[]> jmh = ResultFolder.open(d.source()).jmhResultsJson();
            if (jmh.isEmpty()) {
                lines.add("`" + d.label() + "` has no jmh-results.json or per-benchmark JMH file (interrupted before the "
                        + "first result?).");
                continue;
            }
            Path copy = FileNames.fresh(outDir.resolve("jmh"), Charts.stem(d.label()), ".json");
            AtomicFiles.write(copy, jmh.get());
            written.add(copy);
            lines.add("`jmh/" + copy.getFileName() + "`: JMH's JSON of `" + d.label()
                    + "`, untouched (jmh-visualizer reads it).");
        }
        return lines;
    }
}
