package io.p2pbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.imports.NcclTestsImport;
import io.p2pbench.report.imports.NvbandwidthImport;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.JmhJson;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.render.ComparisonReport;
import io.p2pbench.report.render.GatedFiguresReport;
import io.p2pbench.report.render.MarkdownSafety;
import io.p2pbench.report.verdict.Comparison;
import io.p2pbench.report.verdict.GatedFigures;
import io.p2pbench.report.verdict.NoiseFloors;
import io.p2pbench.report.verdict.Verdict;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code p2pbench compare}: a baseline (a result folder, nvbandwidth {@code -j} JSON, nccl-tests
 * {@code -J} JSON or nccl-tests' printed table) against one or more candidate result folders; writes {@code compare.md} and
 * overlay charts. Partition and serving results are compared beside the measurements ({@link GatedFigures}). Needs no GPU. Run: {@code p2pbench compare results/<fp>/<baseline> results/<fp>/<new>}.
 */
public final class Compare {
    /** Name of the Markdown file. */
    public static final String MARKDOWN = "compare.md";

    private Compare() {}

    /** Most worse/better measurements printed on stdout per candidate; the rest are in compare.md. */
    public static final int SUMMARY_ROWS = 20;

    /**
     * What a comparison found.
     *
     * @param markdown every comparison's table, as written to compare.md
     * @param worse whether any measurement is worse
     * @param outDir where compare.md and the charts are
     * @param summary the lines for stdout: per candidate a verdict line and at most {@link #SUMMARY_ROWS} rows
     * @param charts how many charts were written (0 where this runtime cannot draw text)
     */
    public record Outcome(String markdown, boolean worse, Path outDir, List<String> summary, int charts) {}

    /** One run as the baseline, each candidate one run. */
    public static Outcome run(Path baseline, List<Path> candidates, double thresholdPct, long nvbandwidthBytes,
                              Path outDir) throws IOException {
        return run(List.of(baseline), candidates.stream().map(List::of).toList(), thresholdPct, nvbandwidthBytes,
                null, outDir);
    }

    /**
     * Compares each candidate (one run or several runs of one machine) with the baseline (the same).
     *
     * @param thresholdPct changes within this many percent count as the same
     * @param nvbandwidthBytes the buffer size of an nvbandwidth baseline (its JSON does not say)
     * @param ncclTestsOperation the collective of an nccl-tests text baseline that does not name its program
     *     ({@code ALL_REDUCE}, ...; null: from the text)
     * @param outDir output folder, or null for {@code reports/<first candidate's fingerprint>/compare}
     */
    public static Outcome run(List<Path> baseline, List<List<Path>> candidates, double thresholdPct,
                              long nvbandwidthBytes, String ncclTestsOperation, Path outDir) throws IOException {
        List<ResultData> base = new ArrayList<>();
        for (Path b : baseline) {
            base.add(read(b, nvbandwidthBytes, ncclTestsOperation));
        }
        List<List<ResultData>> cands = new ArrayList<>();
        for (List<Path> candidate : candidates) {
            List<ResultData> runs = new ArrayList<>();
            for (Path c : candidate) {
                runs.add(read(c, nvbandwidthBytes, ncclTestsOperation));
            }
            cands.add(runs);
        }
        NoiseFloors defaults = NoiseFloors.defaults();
        List<Comparison.Result> results = new ArrayList<>();
        List<GatedFigures.Result> gated = new ArrayList<>();
        for (List<ResultData> cand : cands) {
            // Partition and serving results beside the measurements; a side without measurements compares those alone.
            GatedFigures.Result g = GatedFigures.compare(base, cand, thresholdPct);
            results.add(!g.isEmpty() && !(GatedFigures.hasMeasurements(base) && GatedFigures.hasMeasurements(cand))
                    ? GatedFigures.noMeasurements(base, cand, thresholdPct)
                    : Comparison.compare(base, cand, thresholdPct, defaults));
            gated.add(g);
        }
        if (outDir == null) {
            Path dir = Reporter.defaultOutDir(Charts.stem(cands.get(0).get(0).machine())).resolve("compare");
            return StagedOutput.writeDefault(dir, "comparison", (staging, written) -> write(results, gated, base, cands,
                    staging, dir, written));
        }
        return StagedOutput.write(outDir, "comparison", (staging, written) -> write(results, gated, base, cands,
                staging, outDir, written));
    }

    /** Writes compare.md and the charts into {@code dir} (a staging folder); {@code target} is where they will be. */
    private static Outcome write(List<Comparison.Result> results, List<GatedFigures.Result> gated, List<ResultData> base,
                                 List<List<ResultData>> cands, Path dir, Path target, List<Path> written)
            throws IOException {
        StringBuilder md = new StringBuilder("# p2pbench compare\n\n");
        List<String> summary = new ArrayList<>();
        boolean worse = false;
        int charts = 0;
        for (int i = 0; i < results.size(); i++) {
            Comparison.Result r = results.get(i);
            GatedFigures.Result g = gated.get(i);
            md.append(r.groups().isEmpty() && !g.isEmpty() ? GatedFiguresReport.heading(r) : ComparisonReport.markdown(r))
                    .append(GatedFiguresReport.markdown(g, r.thresholdPct()));
            summary.addAll(ComparisonReport.summary(r, g, SUMMARY_ROWS));
            worse |= r.count(Verdict.WORSE) + g.count(Verdict.WORSE) > 0;
            String prefix = results.size() > 1 ? "candidate" + (i + 1) + "-" : "";
            for (Charts.ChartFile chart : ComparisonReport.charts(r, dir, prefix)) {
                md.append("![").append(chart.title()).append("](").append(chart.svg().getFileName()).append(")\n\n");
                written.add(chart.svg());
                charts++;
            }
        }
        for (ResultData imported : Stream.concat(base.stream(), cands.stream().flatMap(List::stream))
                .filter(d -> !d.isRun()).distinct().toList()) {
            List<String> unmapped = imported.notMeasured().stream()
                    .filter(n -> n.gap() == ResultData.Gap.NOT_MAPPED).map(ResultData.NotMeasured::id).toList();
            if (!unmapped.isEmpty()) {
                summary.add("Not compared: " + imported.label() + " testcases with no p2pbench counterpart (not mapped): "
                        + String.join(", ", unmapped));
            }
        }
        AtomicFiles.write(dir.resolve(MARKDOWN), MarkdownSafety.document(md.toString()));
        written.add(dir.resolve(MARKDOWN));
        summary.add("Full table: " + target.resolve(MARKDOWN) + (charts > 0 ? "; " + charts + " overlay charts (SVG) in "
                + target : "; no overlay charts (no path with two sizes or more)"));
        return new Outcome(md.toString(), worse, target, List.copyOf(summary), charts);
    }

    /**
     * Checks a {@code --nccl-tests-op} value before anything is read (null: none given) and returns
     * it as the suite names it; a one-line {@link BadInputException} listing the accepted ones otherwise.
     */
    public static String ncclTestsOperation(String given) throws BadInputException {
        return given == null ? null : NcclTestsImport.operation(given);
    }

    /**
     * Reads a result folder, or an nvbandwidth or nccl-tests JSON file; a one-line
     * {@link BadInputException} for anything else.
     */
    public static ResultData read(Path path, long nvbandwidthBytes) throws BadInputException {
        return read(path, nvbandwidthBytes, null);
    }

    /**
     * Reads a result folder, nvbandwidth or nccl-tests JSON, or nccl-tests' printed output (whose
     * collective is {@code ncclTestsOperation} when the text does not name its program); a one-line
     * {@link BadInputException} for anything else.
     */
    public static ResultData read(Path path, long nvbandwidthBytes, String ncclTestsOperation)
            throws BadInputException {
        if (!Files.exists(path)) {
            throw new BadInputException(path + " does not exist");
        }
        if (Files.isDirectory(path)) {
            return ResultReader.read(path);
        }
        String accepted = "; give a p2pbench result folder, nvbandwidth -j JSON, or nccl-tests -J JSON or printed output";
        if (!Files.isRegularFile(path)) {
            throw new BadInputException(path + " is not a regular file (a device, pipe or socket)" + accepted);
        }
        try {
            if (Files.size(path) == 0) {
                throw new BadInputException(path + " is empty, not a result" + accepted);
            }
        } catch (BadInputException e) {
            throw e;
        } catch (IOException e) {
            throw new BadInputException(path + " cannot be read: " + e.getMessage());
        }
        String text = NcclTestsImport.textOf(path);
        if (text != null && NcclTestsImport.recognisesText(text)) {
            return NcclTestsImport.readText(path, text, ncclTestsOperation);
        }
        JsonNode root = JmhJson.parse(path, "JSON");
        if (NvbandwidthImport.recognises(root)) {
            return NvbandwidthImport.read(path, root, nvbandwidthBytes);
        }
        if (NcclTestsImport.recognises(root)) {
            return NcclTestsImport.read(path, root);
        }
        throw new BadInputException(path + " is neither a p2pbench result folder nor nvbandwidth -j JSON nor "
                + "nccl-tests -J JSON or printed output");
    }
}
