package io.p2pbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative Markdown link in the README, {@code docs/} and the result folders' READMEs names a file or
 * folder of this repository: a run cited by a link that is later removed from {@code results/}, a renamed
 * note or a moved tool breaks this test, not the reader. Links inside code blocks and to web pages or
 * anchors are not checked.
 */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkNamesAFileOfTheRepository() throws Exception {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md")));
        for (String folder : List.of("docs", "results")) {
            try (Stream<Path> s = Files.walk(Path.of(folder))) {
                s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
            }
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path doc : documents) {
            boolean code = false;
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    code = !code;
                    continue;
                }
                if (code) {
                    continue;
                }
                Matcher m = LINK.matcher(line.replaceAll("`[^`]*`(?!\\]\\()", "``"));
                while (m.find()) {
                    String target = m.group(2);
                    if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("#")) {
                        continue;
                    }
                    links++;
                    Path resolved = doc.toAbsolutePath().getParent().resolve(target.replaceFirst("#.*", "")).normalize();
                    if (!Files.exists(resolved)) {
                        broken.add(doc + ":" + (i + 1) + ": [" + m.group(1) + "](" + target + ")");
                    }
                }
            }
        }
        assertTrue(links > 20, "found only " + links + " relative links in " + documents);
        assertEquals(List.of(), broken, "links to files that do not exist");
    }
}
