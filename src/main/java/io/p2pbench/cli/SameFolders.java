package io.p2pbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One result folder given twice (the same path, or two paths to one folder through {@code ..} or a
 * link) is one run: read twice it would count every figure and every skip twice. Kept once, at its
 * first place, with a line saying so.
 */
final class SameFolders {
    private SameFolders() {}

    /** {@code given} without repeats by real path; says on {@code out} which were dropped. */
    static List<Path> once(List<Path> given, PrintWriter out) {
        Map<Path, Path> first = new LinkedHashMap<>();
        List<Path> kept = new ArrayList<>();
        for (Path p : given) {
            Path real;
            try {
                real = p.toRealPath();
            } catch (IOException missing) {
                real = p.toAbsolutePath().normalize(); // reading it says what is wrong
            }
            Path earlier = first.putIfAbsent(real, p);
            if (earlier == null) {
                kept.add(p);
            } else {
                out.println("Read once: " + p + (p.equals(earlier) ? " is given twice" : " is the same folder as "
                        + earlier));
                out.flush();
            }
        }
        return kept;
    }
}
