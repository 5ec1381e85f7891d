package io.p2pbench.report.chart;

import io.p2pbench.report.Reporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code InterruptedReportHarness OUT READY RESULT_DIR}: renders the report of {@code RESULT_DIR} into {@code OUT}
 * and stops when every file is written but before the report is in place (the PNG step asks whether fonts
 * are there): it writes {@code READY} and waits there for the signal {@link InterruptedReportTest} sends.
 */
public final class InterruptedReportHarness {
    private InterruptedReportHarness() {}

    public static void main(String[] args) throws Exception {
        Path ready = Path.of(args[1]);
        Reporter.render(List.of(Path.of(args[2])), null, 0, Path.of(args[0]), new PngCharts(() -> {
            try {
                Files.writeString(ready, "written, not yet in place\n");
                Thread.sleep(Long.MAX_VALUE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return Optional.empty();
        }));
    }
}
