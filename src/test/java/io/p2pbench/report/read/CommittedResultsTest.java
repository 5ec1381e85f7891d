package io.p2pbench.report.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.FolderFigures;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The runs committed under {@code results/}: each is in the current format and gives exactly the
 * figures it gave before it was migrated (recorded in {@link #DIGEST} from the old form), and their size
 * stays within the budget of {@code docs/results-format.md}.
 *
 * <p>To add runs written in an older format: record their figures first, then migrate, then run this test:
 * <pre>
 *   mvn -B -o -q test -Dtest=CommittedResultsTest -Dp2pbench.figures.record=true
 *   bin/p2pbench migrate results/      (or: java -cp ... io.p2pbench.cli.Main migrate results/)
 *   mvn -B -o -q test -Dtest=CommittedResultsTest
 * </pre>
 * Recording keeps the lines of folders already listed, so a migrated folder's line is never rewritten.
 */
public class CommittedResultsTest {
    public static final Path RESULTS = Path.of("results");
    static final Path DIGEST = Path.of("src/test/resources/committed-results-figures.tsv");

    @Test
    void everyCommittedRunIsMigratedAndGivesTheFiguresItGaveBefore() throws Exception {
        Map<String, String> recorded = readDigest();
        List<Path> folders = ResultMigration.find(RESULTS);
        if (Boolean.getBoolean("p2pbench.figures.record")) {
            for (Path dir : folders) {
                String key = key(dir);
                if (!recorded.containsKey(key)) {
                    recorded.put(key, line(FolderFigures.of(dir)));
                }
            }
            writeDigest(recorded);
        }
        for (Path dir : folders) {
            String key = key(dir);
            assertTrue(recorded.containsKey(key), dir + " has no recorded figures in " + DIGEST
                    + "; record them before migrating (see this test's Javadoc)");
            assertEquals(RunManifest.FORMAT, ResultFolder.open(dir).readManifest().format(),
                    dir + " is not migrated: run p2pbench migrate " + dir);
            assertEquals(recorded.get(key), line(FolderFigures.of(dir)), dir + ": figures differ from the recorded ones");
        }
    }

    private static String key(Path dir) {
        return RESULTS.relativize(dir).toString().replace('\\', '/');
    }

    private static String line(FolderFigures f) {
        return f.measurements() + "\t" + f.figures() + "\t" + f.jmhExport();
    }

    private static Map<String, String> readDigest() throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        if (Files.isRegularFile(DIGEST)) {
            for (String l : Files.readAllLines(DIGEST)) {
                if (!l.isBlank() && !l.startsWith("#")) {
                    int tab = l.indexOf('\t');
                    m.put(l.substring(0, tab), l.substring(tab + 1));
                }
            }
        }
        return m;
    }

    private static void writeDigest(Map<String, String> m) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# Figures of the runs under results/, recorded from their original form before migration");
        lines.add("# (CommittedResultsTest, FolderFigures): folder, measurements, SHA-256 of measurements with every");
        lines.add("# sample's bits + not-measured + manifest without format and file names, SHA-256 of the exported JMH JSON.");
        m.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> lines.add(e.getKey() + "\t" + e.getValue()));
        Files.writeString(DIGEST, String.join("\n", lines) + "\n");
    }
}
