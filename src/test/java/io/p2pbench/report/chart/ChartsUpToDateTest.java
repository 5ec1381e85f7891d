package io.p2pbench.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.p2pbench.cli.Main;
import io.p2pbench.report.ReportFolder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed {@code charts/} folders are what {@code p2pbench report} renders today from the committed
 * results, with the command {@code docs/results.md} gives. Every artefact is text (SVG, Markdown, JSON), so
 * they are compared byte for byte. When this fails, {@link #REPAIR} renders those commands again into
 * {@code charts/} through the command line itself; the report owns its folder ({@link ReportFolder}), so
 * files of any other report written there are replaced or removed, and only files no report wrote (named
 * in the failure) are left for you to remove.
 */
class ChartsUpToDateTest {
    /** The command that repairs a stale {@code charts/}: run it, then review and commit the result. */
    static final String REPAIR = "mvn -B -o -q test -Dtest=ChartsUpToDateTest -Dp2pbench.charts.record=true";
    /** The page that gives the commands the committed charts were rendered with. */
    static final String RESULTS_PAGE = "docs/results.md";
    private static final Pattern COMMAND = Pattern.compile("^p2pbench (report .+ --out (charts/\\S+))$",
            Pattern.MULTILINE);

    @TempDir
    Path tmp;

    @Test
    void committedChartsMatchWhatTheResultsPageCommandRendersToday() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        Matcher m = COMMAND.matcher(Files.readString(root.resolve(RESULTS_PAGE)));
        boolean record = Boolean.getBoolean("p2pbench.charts.record");
        int commands = 0;
        while (m.find()) {
            commands++;
            Path committed = root.resolve(m.group(2));
            List<String> words = new ArrayList<>(Arrays.asList(m.group(1).trim().split("\\s+")));
            if (record) {
                report(words);
            }
            Path fresh = tmp.resolve("c" + commands);
            words.set(words.size() - 1, fresh.toString());
            report(words);
            String hint = "; repair with " + REPAIR + " (it runs `p2pbench " + m.group(1) + "`), then commit charts/";
            TreeSet<String> extra = files(committed);
            extra.removeAll(files(fresh));
            assertEquals(List.of(), List.copyOf(extra), "files in " + committed + " that the command in " + RESULTS_PAGE + " does "
                    + "not write (the repair removes those an earlier report wrote there; remove others with git rm)" + hint);
            List<String> stale = new ArrayList<>();
            for (String f : files(fresh)) {
                Path c = committed.resolve(f);
                if (!Files.isRegularFile(c) || !Arrays.equals(Files.readAllBytes(c), Files.readAllBytes(fresh.resolve(f)))) {
                    stale.add(f);
                }
            }
            assertEquals(List.of(), stale, "missing or stale in " + committed + hint);
        }
        assertFalse(commands == 0, RESULTS_PAGE + " gives no `p2pbench report ... --out charts/...` command");
    }

    private static void report(List<String> words) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), words.toArray(String[]::new));
        assertEquals(0, code, "p2pbench " + String.join(" ", words) + ": " + out + err);
    }

    private static TreeSet<String> files(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return new TreeSet<>();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/'))
                    .collect(TreeSet::new, TreeSet::add, TreeSet::addAll);
        }
    }
}
