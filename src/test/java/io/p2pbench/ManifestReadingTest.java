package io.p2pbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The report reads a run's manifest entries in one place, package {@code report.read} ({@code ResultReader}, which
 * gives each planned combination as a typed {@code RunEntry}): no other class under {@code report} calls
 * {@code .manifest().entries()} or names {@code RunManifest.Entry}, so none parses a combination's string form
 * again. Read from the sources of {@code src/main/java}, comments and string literals left out.
 */
class ManifestReadingTest {
    private static final Path REPORT = Path.of("src/main/java/io/p2pbench/report");
    private static final Path READ = REPORT.resolve("read");
    private static final Pattern ENTRIES = Pattern.compile(
            "\\.\\s*manifest\\s*\\(\\s*\\)\\s*\\.\\s*entries\\s*\\(\\s*\\)|\\bRunManifest\\s*\\.\\s*Entry\\b");

    /** Each read of manifest entries in {@code source}, as {@code line: text}. */
    static List<String> entryReads(String source) {
        String code = WorkloadDispatchTest.withoutCommentsAndStrings(source);
        List<String> out = new ArrayList<>();
        Matcher m = ENTRIES.matcher(code);
        while (m.find()) {
            int line = 1 + (int) code.substring(0, m.start()).chars().filter(ch -> ch == '\n').count();
            out.add(line + ": " + m.group().replaceAll("\\s+", ""));
        }
        return out;
    }

    @Test
    void onlyTheReaderReadsManifestEntries() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(REPORT)) {
            files = s.filter(p -> p.toString().endsWith(".java") && !p.startsWith(READ)).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no sources under " + REPORT);
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            for (String hit : entryReads(Files.readString(file))) {
                found.add(file + ":" + hit);
            }
        }
        assertEquals(List.of(), found, "manifest entries read outside report/read; use ResultData.entries(), the "
                + "typed entries ResultReader gives");
    }

    @Test
    void theScanFindsEachFormAndNothingInCommentsOrStrings() {
        String source = String.join("\n",
                "import io.p2pbench.results.RunManifest;",
                "class X {",
                "  long a(ResultData d) { return d.manifest().entries().size(); }",
                "  void b(List<RunManifest.Entry> e) {}",
                "  long c(ResultData d) { return d.manifest()",
                "      .entries ( ).size(); }",
                "  // d.manifest().entries(), RunManifest.Entry",
                "  /* RunManifest.Entry */ String e = \"d.manifest().entries()\";",
                "  Object f(ResultData d) { return d.manifest().startedAt(); }",
                "  Object g(RunManifest.EntryList l, RunEntry e) { return d.entries(); }",
                "}");
        assertEquals(List.of("3: .manifest().entries()", "4: RunManifest.Entry", "5: .manifest().entries()"),
                entryReads(source));
    }
}
