package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36: text from a result folder's metadata (here a GPU name with control characters, a terminal escape
 * and a script tag) reaches every output made safe for it, by one function per kind of output: every SVG is
 * well-formed XML, no page holds a tag outside code, and the terminal gets no control character.
 */
class MetadataTextCliTest {
    /** A GPU name as a crafted folder could carry it: a control character, a terminal escape and a script. */
    static final String NAME = "NVIDIA \u0001\u001b]0;owned\u0007H200<script>alert(1)</script>";

    @TempDir
    Path work;

    private Path withGpuName(Path fixture, String name) throws Exception {
        Path dir = Fixtures.copy(fixture, work.resolve(name));
        Path topology = dir.resolve("topology.json");
        String json = Files.readString(topology);
        String named = json.replace("\"name\" : \"NVIDIA H200\"", "\"name\" : \"" + NAME.replace("\u0001", "\\u0001")
                .replace("\u001b", "\\u001b").replace("\u0007", "\\u0007") + "\"");
        assertFalse(named.equals(json), "the fixture names its GPU NVIDIA H200");
        Files.writeString(topology, named);
        return dir;
    }

    /** The lines of a Markdown page outside fenced code (inside it, a viewer shows text as written). */
    static List<String> outsideFences(String markdown) {
        boolean in = false;
        List<String> out = new java.util.ArrayList<>();
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                in = !in;
            } else if (!in) {
                out.add(line);
            }
        }
        return out;
    }

    private static void assertNoTagOrControl(Path file) throws Exception {
        String text = Files.readString(file);
        assertFalse(text.chars().anyMatch(c -> c != '\n' && c != '\t' && Character.isISOControl(c)),
                file + " holds a control character");
        List<String> checked = file.toString().endsWith(".md") ? outsideFences(text) : List.of(text);
        for (String line : checked) {
            assertFalse(line.contains("<script"), file + " holds a script tag: " + line);
        }
    }

    private static void assertWellFormed(Path svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.newDocumentBuilder().parse(svg.toFile()); // throws on a character XML does not allow
    }

    @Test
    void aGpuNameWithMarkupAndControlCharactersReachesNoOutputRaw() throws Exception {
        Path one = withGpuName(Fixtures.X1, "x1");
        Path out = work.resolve("report");
        CliTest.Result r = run("report", one.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        List<Path> svgs;
        try (Stream<Path> s = Files.list(out)) {
            svgs = s.filter(p -> p.toString().endsWith(".svg")).toList();
        }
        assertTrue(svgs.size() > 3, "charts: " + svgs);
        for (Path svg : svgs) {
            assertWellFormed(svg);
            assertNoTagOrControl(svg);
        }
        String summary = Files.readString(out.resolve("summary.md"));
        assertTrue(summary.contains("H200&lt;script>alert(1)&lt;/script>"), "the name is shown, escaped");
        for (String page : List.of("summary.md", "statistics.md", "report.html")) {
            assertNoTagOrControl(out.resolve(page));
        }

        Path compared = work.resolve("compare");
        r = run("compare", one.toString(), Fixtures.X1.toString(), "--out", compared.toString());
        assertEquals(0, r.code(), r.err());
        assertNoTagOrControl(compared.resolve("compare.md"));
        assertFalse(r.out().chars().anyMatch(c -> c == 0x1b || c == 0x07 || c == 0x01), "a control character on the "
                + "terminal: " + r.out());
    }

    @Test
    void doctorPrintsNoEscapeSequenceFromARecordedGpuName() throws Exception {
        Path dir = work.resolve("machine");
        Fixtures.copy(Path.of("src/test/resources/doctor/switch-acs-on"), dir);
        Path gpus = dir.resolve("gpus.json");
        String json = Files.readString(gpus);
        Files.writeString(gpus, json.replaceFirst("\"NVIDIA H100 PCIe\"", "\"H100 \\\\u001b]0;owned\\\\u0007\\\\u001b[2J\""));
        assertTrue(Files.readString(gpus).contains("\\u001b[2J"), "the fixture names its GPUs NVIDIA H100 PCIe");
        CliTest.Result r = run("doctor", "--machine", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("H100 ?]0;owned??[2J"), "the name is shown, its control characters as ?");
        assertFalse(r.out().chars().anyMatch(c -> c != '\n' && c != '\t' && Character.isISOControl(c)),
                "a control character on the terminal");
    }

    @Test
    void aLineBreakInARecordedDriverVersionSplitsNoLineOfTheDoctor() throws Exception {
        // Before: printed as it was, it made a line of its own ("ok GPUs: forged") in the doctor's output.
        Path dir = work.resolve("machine");
        Fixtures.copy(Path.of("src/test/resources/doctor/switch-acs-on"), dir);
        Path gpus = dir.resolve("gpus.json");
        String json = Files.readString(gpus);
        String version = json.replaceAll("(?s).*\"driverVersion\"\\s*:\\s*\"([^\"]*)\".*", "$1");
        Files.writeString(gpus, json.replace("\"" + version + "\"", "\"" + version + "\\nok GPUs: forged\""));
        CliTest.Result r = run("doctor", "--machine", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(version + "?ok GPUs: forged"), r.out());
        assertFalse(r.out().lines().anyMatch(l -> l.startsWith("ok GPUs: forged")), r.out());
    }
}
