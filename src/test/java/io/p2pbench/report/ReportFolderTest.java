package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.read.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report owns the files it writes in its folder ({@link ReportFolder}): a second report into the same
 * folder leaves no file of the first behind, never removes a file no report wrote, and a folder that holds
 * anything but an earlier report is refused before anything is written.
 */
class ReportFolderTest {
    @TempDir
    Path work;

    @Test
    void aSecondReportIntoTheSameFolderLeavesNothingOfTheFirstButFilesNoReportWrote() throws Exception {
        Path out = work.resolve("report");
        Reporter.render(List.of(Fixtures.X8), out);
        Set<String> first = files(out);
        assertTrue(first.contains(ReportFolder.INDEX), first.toString());
        assertTrue(first.stream().anyMatch(f -> f.startsWith("heatmap-")), "the 8-GPU fixture draws heatmaps: " + first);
        Files.writeString(out.resolve("my-notes.txt"), "mine\n");

        Reporter.render(List.of(Fixtures.X1), out);
        Path fresh = work.resolve("fresh");
        Reporter.render(List.of(Fixtures.X1), fresh);
        Set<String> expected = new TreeSet<>(files(fresh));
        expected.add("my-notes.txt");
        assertEquals(expected, files(out), "the second report's files, and the file no report wrote");
        assertEquals("mine\n", Files.readString(out.resolve("my-notes.txt")));
        for (String f : files(fresh)) {
            assertEquals(Files.readString(fresh.resolve(f)), Files.readString(out.resolve(f)), f);
        }
    }

    @Test
    void aFolderHoldingAnythingButAReportIsRefusedAndLeftAsItWas() throws Exception {
        Path out = work.resolve("documents");
        Files.createDirectories(out);
        Files.writeString(out.resolve("thesis.tex"), "x");
        Files.writeString(out.resolve("summary.md"), "my own summary");
        BadInputException e = assertThrows(BadInputException.class, () -> Reporter.render(List.of(Fixtures.X1), out));
        assertEquals(out + " is not empty and no p2pbench report was written there (it holds summary.md, thesis.tex); "
                + "name a new or empty folder, or one an earlier report wrote (it has .p2pbench-report)", e.getMessage());
        assertEquals(Set.of("summary.md", "thesis.tex"), files(out));
        assertEquals("my own summary", Files.readString(out.resolve("summary.md")));
    }

    @Test
    void anIndexNamingAFileOutsideTheFolderIsRefusedAndNothingIsTouched() throws Exception {
        Path victim = work.resolve("victim.txt");
        Files.writeString(victim, "keep");
        Path out = work.resolve("report");
        Reporter.render(List.of(Fixtures.X1), out);
        Files.writeString(out.resolve(ReportFolder.INDEX), "summary.md\n../victim.txt\n");
        BadInputException e = assertThrows(BadInputException.class, () -> Reporter.render(List.of(Fixtures.X8), out));
        assertTrue(e.getMessage().startsWith(out.resolve(ReportFolder.INDEX) + " line 2 names '../victim.txt', not a "
                + "file a report writes"), e.getMessage());
        assertEquals("keep", Files.readString(victim));
        assertFalse(files(out).stream().anyMatch(f -> f.startsWith("heatmap-")), "nothing of the second report written");
    }

    @Test
    void aCompareOutputInsideAReportFolderCountsAsP2pbenchs() throws Exception {
        Path out = work.resolve("charts");
        Compare.run(Fixtures.X8, List.of(Fixtures.X8), 5, 1L << 30, out.resolve("compare"));
        assertTrue(Files.isRegularFile(out.resolve("compare").resolve(ReportFolder.INDEX)));
        Reporter.render(List.of(Fixtures.X1), out);
        assertTrue(Files.isRegularFile(out.resolve(Reporter.SUMMARY)));
        assertTrue(Files.isRegularFile(out.resolve("compare").resolve(Compare.MARKDOWN)), "compare's files stay");
    }

    private static Set<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
