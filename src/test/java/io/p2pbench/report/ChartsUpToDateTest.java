package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
 * results, with the command the README gives. Every artefact is text (SVG, Markdown, JSON), so they are
 * compared byte for byte; when this fails, run the README's command and commit the result.
 */
class ChartsUpToDateTest {
    private static final Pattern COMMAND = Pattern.compile("^p2pbench report (.+) --out (charts/\\S+)$",
            Pattern.MULTILINE);

    @TempDir
    Path tmp;

    @Test
    void committedChartsMatchWhatTheReadmeCommandRendersToday() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        Matcher m = COMMAND.matcher(Files.readString(root.resolve("README.md")));
        int commands = 0;
        while (m.find()) {
            commands++;
            List<String> words = new ArrayList<>(Arrays.asList(m.group(1).trim().split("\\s+")));
            Path nvbandwidth = null;
            long nvbandwidthBytes = 512L << 20;
            int at = words.indexOf("--nvbandwidth");
            if (at >= 0) {
                nvbandwidth = root.resolve(words.get(at + 1));
                words.subList(at, at + 2).clear();
            }
            int sizeAt = words.indexOf("--nvbandwidth-size");
            if (sizeAt >= 0) {
                nvbandwidthBytes = io.p2pbench.transfer.Sizes.parse(words.get(sizeAt + 1));
                words.subList(sizeAt, sizeAt + 2).clear();
            }
            List<Path> runs = words.stream().map(root::resolve).toList();
            Path committed = root.resolve(m.group(2));
            Path fresh = tmp.resolve("c" + commands);
            Reporter.render(runs, nvbandwidth, nvbandwidthBytes, fresh);
            assertEquals(files(committed), files(fresh), "files in " + committed + " (rerun: " + m.group(0) + ")");
            List<String> stale = new ArrayList<>();
            for (String f : files(fresh)) {
                if (!Arrays.equals(Files.readAllBytes(committed.resolve(f)), Files.readAllBytes(fresh.resolve(f)))) {
                    stale.add(f);
                }
            }
            assertEquals(List.of(), stale, "stale in " + committed + "; rerun: " + m.group(0));
        }
        assertFalse(commands == 0, "README.md gives no `p2pbench report ... --out charts/...` command");
    }

    private static TreeSet<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/'))
                    .collect(TreeSet::new, TreeSet::add, TreeSet::addAll);
        }
    }
}
