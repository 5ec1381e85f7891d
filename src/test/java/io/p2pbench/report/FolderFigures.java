package io.p2pbench.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.results.ResultFolder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A format-independent fingerprint of what {@code report} and {@code compare} read from a result
 * folder: every measurement (key, labels and every sample's exact bits), what was not measured and
 * why, unknown kinds, and the manifest without its format and file names; and, apart, the JMH JSON
 * that {@code report} exports. Two forms of a folder with equal fingerprints give the same figures.
 *
 * @param measurements how many measurements the folder yields
 * @param figures SHA-256 of the measurements, not-measured list and manifest
 * @param jmhExport SHA-256 of the exported JMH JSON, or "none"
 */
public record FolderFigures(int measurements, String figures, String jmhExport) {

    /** The fingerprint of one folder. */
    public static FolderFigures of(Path dir) throws IOException {
        ResultData d = ResultReader.read(dir);
        StringBuilder text = new StringBuilder();
        for (Measurement m : d.measurements()) {
            text.append(m.key()).append('|').append(m.machine()).append('|').append(m.link()).append('|')
                    .append(m.singleGpu()).append('|').append(m.group()).append('|').append(m.id()).append('|')
                    .append(m.samplesFrom()).append('|');
            for (double v : m.samples()) {
                text.append(Long.toHexString(Double.doubleToRawLongBits(v))).append(',');
            }
            text.append('\n');
        }
        d.notMeasured().forEach(n -> text.append(n).append('\n'));
        text.append(d.unknownKinds()).append('\n').append(d.label()).append('\n').append(d.origin()).append('\n');
        ObjectNode manifest = ResultFolder.mapper().valueToTree(d.manifest());
        manifest.remove("format");
        manifest.path("entries").forEach(e -> {
            ((ObjectNode) e).remove("jmhFile");
            ((ObjectNode) e).remove("samplesFile");
            ((ObjectNode) e).remove("logFile");
        });
        text.append(ResultFolder.mapper().writeValueAsString(manifest));
        var export = ResultFolder.open(dir).jmhResultsJson();
        return new FolderFigures(d.measurements().size(), sha256(text.toString().getBytes(StandardCharsets.UTF_8)),
                export.isPresent() ? sha256(export.get()) : "none");
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
