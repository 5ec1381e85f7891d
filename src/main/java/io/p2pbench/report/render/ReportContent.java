package io.p2pbench.report.render;

import io.p2pbench.report.chart.Charts;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ServingResults;
import io.p2pbench.report.stats.HockneyFit;
import io.p2pbench.report.verdict.PartitionVerdict;
import java.util.List;
import java.util.Map;

/**
 * What one report shows: the sources read, their measurements (one per machine and key), the
 * fits, the charts written and the export files.
 *
 * @param sources result folders in the order they started
 * @param measurements every figure, the newest run's where runs of one machine overlap
 * @param superseded how many figures were replaced by a newer run's
 * @param runOf the label of the run (or imported file) each measurement came from
 * @param fits alpha-beta fits
 * @param charts charts written
 * @param exports one line per export file, saying what reads it
 * @param partition the partition figures ({@link PartitionVerdict#figures}), read once per report
 * @param serving the serving sweeps ({@link ServingResults#read}), read once per report
 */
public record ReportContent(List<ResultData> sources, List<Measurement> measurements, int superseded,
                     Map<Measurement, String> runOf,
                     List<HockneyFit.Fit> fits, List<Charts.ChartFile> charts, List<String> exports,
                     List<PartitionVerdict.Figure> partition, List<ServingResults.Sweep> serving) {

    /** A report without partition figures. */
    public ReportContent(List<ResultData> sources, List<Measurement> measurements, int superseded,
                  Map<Measurement, String> runOf, List<HockneyFit.Fit> fits, List<Charts.ChartFile> charts,
                  List<String> exports) {
        this(sources, measurements, superseded, runOf, fits, charts, exports, List.of(), List.of());
    }

    /** The run a measurement came from, e.g. {@code FINGERPRINT/UTC-TIME}, the run folder's last two names. */
    String run(Measurement m) {
        String run = runOf.get(m);
        return run == null ? "?" : run;
    }

    /** The measurements of one machine. */
    public List<Measurement> measurementsOf(String machine) {
        return measurements.stream().filter(m -> m.machine().equals(machine)).toList();
    }
}
