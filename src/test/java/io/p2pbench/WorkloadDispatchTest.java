package io.p2pbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.spec.WorkloadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Code outside package {@code spec} never asks which workload a {@link WorkloadSpec} is: no {@code instanceof},
 * cast or {@code X.class.isInstance/cast} of a type that {@link WorkloadSpec} permits (followed recursively, so a
 * new record is covered without editing this test) or of an interface of {@code spec} that one of them
 * implements. Per-workload behaviour goes through {@link WorkloadSpec.Cases}, which the compiler checks for
 * every workload, or through a method of the spec. Read from the sources of {@code src/main/java} and
 * {@code src/jmh/java}, comments and string literals left out.
 */
class WorkloadDispatchTest {
    private static final List<Path> SOURCES = List.of(Path.of("src/main/java"), Path.of("src/jmh/java"));
    private static final Path SPEC = Path.of("io/p2pbench/spec");

    /** Simple names of the permitted subtypes of {@link WorkloadSpec} and of the spec interfaces they implement. */
    static Set<String> specTypes() {
        Set<String> out = new TreeSet<>();
        addPermitted(WorkloadSpec.class, out);
        return out;
    }

    private static void addPermitted(Class<?> sealed, Set<String> out) {
        Class<?>[] permitted = sealed.getPermittedSubclasses();
        if (permitted == null) {
            return;
        }
        for (Class<?> c : permitted) {
            out.add(c.getSimpleName());
            for (Class<?> i : c.getInterfaces()) {
                if (i.getPackage().equals(WorkloadSpec.class.getPackage()) && i != WorkloadSpec.class) {
                    out.add(i.getSimpleName());
                }
            }
            addPermitted(c, out);
        }
    }

    /** Each {@code instanceof}, cast or class test of one of {@code types} in {@code source}, as {@code line: text}. */
    static List<String> typeTests(String source, Set<String> types) {
        String code = withoutCommentsAndStrings(source);
        String names = String.join("|", types);
        String qualified = "(?:[A-Za-z_$][\\w$]*\\s*\\.\\s*)*";
        Pattern p = Pattern.compile("\\binstanceof\\s+" + qualified + "(?:" + names + ")\\b"
                + "|\\(\\s*" + qualified + "(?:" + names + ")\\s*\\)"
                + "|\\b(?:" + names + ")\\s*\\.\\s*class\\s*\\.\\s*(?:isInstance|cast)\\b");
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(code);
        while (m.find()) {
            int line = 1 + (int) code.substring(0, m.start()).chars().filter(ch -> ch == '\n').count();
            out.add(line + ": " + m.group().replaceAll("\\s+", " "));
        }
        return out;
    }

    /** {@code source} with comments and the contents of string, text block and char literals blanked, lines kept. */
    static String withoutCommentsAndStrings(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char ch = source.charAt(i);
            if (source.startsWith("//", i)) {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                blankKeepingLines(source, i, end, out);
                i = end;
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                blankKeepingLines(source, i, end, out);
                i = end;
            } else if (ch == '"' || ch == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != ch && source.charAt(j) != '\n') {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                out.append(ch).append(ch);
                i = Math.min(j + 1, n);
            } else {
                out.append(ch);
                i++;
            }
        }
        return out.toString();
    }

    private static void blankKeepingLines(String source, int from, int to, StringBuilder out) {
        out.append(' ');
        for (int k = from; k < to; k++) {
            if (source.charAt(k) == '\n') {
                out.append('\n');
            }
        }
    }

    @Test
    void noCodeOutsideSpecTestsWhichWorkloadASpecIs() throws IOException {
        Set<String> types = specTypes();
        List<String> found = new ArrayList<>();
        for (Path root : SOURCES) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            List<Path> files;
            try (Stream<Path> s = Files.walk(root)) {
                files = s.filter(p -> p.toString().endsWith(".java") && !root.relativize(p).startsWith(SPEC))
                        .sorted().toList();
            }
            for (Path file : files) {
                for (String hit : typeTests(Files.readString(file), types)) {
                    found.add(file + ":" + hit);
                }
            }
        }
        assertEquals(List.of(), found, "type tests of " + types + " outside package spec; dispatch through "
                + "WorkloadSpec.Cases (or a method of the spec) so that a new workload fails to compile until handled");
    }

    @Test
    void theTypesComeFromTheSealedHierarchy() {
        Set<String> types = specTypes();
        for (Class<?> c : WorkloadSpec.class.getPermittedSubclasses()) {
            assertTrue(types.contains(c.getSimpleName()), c.getName());
        }
        assertTrue(types.contains("HostBuffer"), "an interface of spec that host copies implement: " + types);
        assertTrue(!types.contains("WorkloadSpec") && !types.contains("Combination"), types.toString());
    }

    @Test
    void theScanFindsEachFormOfTypeTestAndNothingInCommentsOrStrings() {
        Set<String> types = Set.of("PeerCopy", "HostBuffer");
        String source = String.join("\n",
                "class X {",
                "  boolean a(WorkloadSpec s) { return s instanceof PeerCopy p && p.singleGpu(); }",
                "  Object b(Object s) { return (io.p2pbench.spec.PeerCopy) s; }",
                "  Object c(Object s) { return ( HostBuffer )s; }",
                "  boolean d(Object s) { return PeerCopy.class.isInstance(s); }",
                "  // s instanceof PeerCopy, (PeerCopy) s",
                "  /* (HostBuffer) s */ String e = \"instanceof PeerCopy (PeerCopy)\";",
                "  boolean f(Object s) { return s instanceof PeerCopyish || s instanceof Ring; }",
                "  void g(PeerCopy p, List<PeerCopy> q) { h(p); }",
                "}");
        assertEquals(List.of("2: instanceof PeerCopy", "3: (io.p2pbench.spec.PeerCopy)", "4: ( HostBuffer )",
                "5: PeerCopy.class.isInstance"), typeTests(source, types));
    }
}
