package io.p2pbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package dependency graph of {@code src/main/java}, read from its {@code import io.p2pbench...} lines
 * (static imports included; a fully qualified name written in the code is not seen), has no cycle beyond
 * the named allow-list {@link #KNOWN_CYCLIC_EDGES}, and keeps the documented one-way layering: nothing
 * imports {@code cli}, and only {@code cli} imports {@code run}.
 *
 * <p>An edge {@code a -> b} is cyclic when {@code b} also reaches {@code a} (both lie in one strongly
 * connected component). {@link #KNOWN_CYCLIC_EDGES} is empty: any cyclic edge fails this test (with every cycle
 * printed, one {@code file:line} per edge); an entry added to the list must still be cyclic, so the list only
 * shrinks.
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final String ROOT = "io.p2pbench";
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^\\s*import\\s+(?:static\\s+)?(io\\.p2pbench(?:\\.[a-z]\\w*)*)\\.[A-Z*]");

    /**
     * Package edges (short names, without {@code io.p2pbench.}) that lie on a cycle and are tolerated until broken;
     * empty: the graph is acyclic, and a new cyclic edge fails the build.
     */
    private static final Set<String> KNOWN_CYCLIC_EDGES = Set.of();

    /** package -> imported package -> first {@code file:line} that imports it. */
    private static Map<String, Map<String, String>> graph() throws IOException {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(MAIN)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            Matcher pm = PACKAGE.matcher(String.join("\n", lines));
            if (!pm.find()) {
                continue;
            }
            String from = pm.group(1);
            edges.computeIfAbsent(from, k -> new TreeMap<>());
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = IMPORT.matcher(lines.get(i));
                if (m.find() && !m.group(1).equals(from)) {
                    edges.get(from).putIfAbsent(m.group(1), file + ":" + (i + 1));
                    edges.computeIfAbsent(m.group(1), k -> new TreeMap<>());
                }
            }
        }
        return edges;
    }

    /** Tarjan's strongly connected components of more than one package. */
    private static List<Set<String>> cycles(Map<String, Map<String, String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : edges.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, edges, index, low, stack, out);
            }
        }
        return out;
    }

    private static void strongConnect(String v, Map<String, Map<String, String>> edges, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : edges.get(v).keySet()) {
            if (!index.containsKey(w)) {
                strongConnect(w, edges, index, low, stack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }

    private static String shortName(String pkg) {
        return pkg.equals(ROOT) ? "(root)" : pkg.substring(ROOT.length() + 1);
    }

    @Test
    void noPackageCycleBeyondTheNamedAllowList() throws IOException {
        Map<String, Map<String, String>> edges = graph();
        Set<String> cyclic = new TreeSet<>();
        StringBuilder report = new StringBuilder();
        for (Set<String> component : cycles(edges)) {
            report.append("cycle among ").append(component.stream().map(ArchitectureTest::shortName).toList())
                    .append(":\n");
            for (String a : component) {
                for (Map.Entry<String, String> e : edges.get(a).entrySet()) {
                    if (component.contains(e.getKey())) {
                        String edge = shortName(a) + " -> " + shortName(e.getKey());
                        cyclic.add(edge);
                        report.append("  ").append(edge).append("  (").append(e.getValue()).append(")")
                                .append(KNOWN_CYCLIC_EDGES.contains(edge) ? "" : "  NEW").append('\n');
                    }
                }
            }
        }
        Set<String> added = new TreeSet<>(cyclic);
        added.removeAll(KNOWN_CYCLIC_EDGES);
        Set<String> gone = new TreeSet<>(KNOWN_CYCLIC_EDGES);
        gone.removeAll(cyclic);
        assertTrue(added.isEmpty(), "package edges on a cycle that the allow-list does not name: " + added
                + "\n" + report);
        assertTrue(gone.isEmpty(), "allow-listed edges no longer on a cycle; remove them from KNOWN_CYCLIC_EDGES: "
                + gone);
    }

    @Test
    void nothingImportsCliAndOnlyCliImportsRun() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> e : graph().entrySet()) {
            String from = shortName(e.getKey());
            for (Map.Entry<String, String> to : e.getValue().entrySet()) {
                String target = shortName(to.getKey());
                if (target.equals("cli") || target.startsWith("cli.")) {
                    wrong.add(from + " imports cli (" + to.getValue() + ")");
                }
                if ((target.equals("run") || target.startsWith("run.")) && !from.equals("cli")) {
                    wrong.add(from + " imports run (" + to.getValue() + ")");
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * An import of the Markdown builder or of the renderer, or Markdown syntax opening a string: a heading, a table
     * rule, an image, a code fence.
     */
    private static final Pattern MARKDOWN = Pattern.compile(
            "^\\s*import\\s+(?:static\\s+)?io\\.p2pbench\\.report\\.(?:text\\.Markdown|render)\\b|\\bMarkdown\\."
                    + "|\"(?:#{2,} |!\\[|\\|-|```)");

    /**
     * {@code report.verdict} decides and {@code report.render} writes: the verdicts are records and the shared
     * {@code Verdict} enum, so no verdict class imports {@code report.text.Markdown} (or the renderer) or writes Markdown.
     */
    @Test
    void reportVerdictWritesNoMarkdown() throws IOException {
        List<String> wrong = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(MAIN.resolve("io/p2pbench/report/verdict"))) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(files.size() > 5, "the verdict package's files: " + files);
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (MARKDOWN.matcher(lines.get(i)).find()) {
                    wrong.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theMarkdownCheckFindsMarkdown() {
        for (String line : List.of("import io.p2pbench.report.text.Markdown;", "import io.p2pbench.report.render.Block;",
                "        sb.append(Markdown.table(header, rows));", "        sb.append(\"## Does splitting pay?\\n\\n\");",
                "        sb.append(\"![\").append(title);", "        return \"```text\\n\" + s;")) {
            assertTrue(MARKDOWN.matcher(line).find(), line);
        }
        for (String line : List.of("import io.p2pbench.report.text.Numbers;", "String.join(\"|\", k.metric(), k.kind());",
                "        return \"within ±\" + Numbers.plain(thresholdPct) + \"%\";")) {
            assertTrue(!MARKDOWN.matcher(line).find(), line);
        }
    }

    @Test
    void theCheckFindsACycleWhereThereIsOne() {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        edges.put("io.p2pbench.a", new TreeMap<>(Map.of("io.p2pbench.b", "A.java:3")));
        edges.put("io.p2pbench.b", new TreeMap<>(Map.of("io.p2pbench.c", "B.java:3")));
        edges.put("io.p2pbench.c", new TreeMap<>(Map.of("io.p2pbench.a", "C.java:3")));
        edges.put("io.p2pbench.d", new TreeMap<>(Map.of("io.p2pbench.a", "D.java:3")));
        assertEquals(List.of(Set.of("io.p2pbench.a", "io.p2pbench.b", "io.p2pbench.c")), cycles(edges));
    }
}
