package io.p2pbench.topology;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A short, stable, path-safe name for a machine kind: GPU model and count, the link classes
 * between distinct GPUs, and the driver's major version, e.g. {@code h200x8-nv18-r580} or
 * {@code h200x1-single-r580}. Two machines with the same fingerprint should give comparable
 * results; result folders are grouped by it.
 */
public final class Fingerprint {
    private Fingerprint() {}

    /** The fingerprint of {@code t}. */
    public static String of(Topology t) {
        Map<String, Integer> models = new TreeMap<>();
        t.gpus().forEach(g -> models.merge(modelSlug(g.name()), 1, Integer::sum));
        String gpus = models.entrySet().stream().map(e -> e.getKey() + "x" + e.getValue())
                .collect(Collectors.joining("+"));
        TreeSet<LinkClass> links = t.pairs().stream().filter(p -> !p.self()).map(PairInfo::link)
                .collect(Collectors.toCollection(TreeSet::new));
        String linkPart = links.isEmpty() ? "single" : links.stream()
                .map(l -> l.kind() == LinkClass.Kind.UNKNOWN ? "unknown" : l.label().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining("+"));
        return gpus + "-" + linkPart + "-r" + driverMajor(t.host().driverVersion());
    }

    /** Longest plain name: a file name, with room for the suffixes the suite adds. */
    public static final int MAX_PLAIN_NAME = 200;

    /**
     * Why {@code name} cannot be a file name of its own, or null when it can: a plain name is 1 to
     * {@value #MAX_PLAIN_NAME} letters, digits and {@code . _ - +} (fingerprints join machines with
     * {@code +}), and not {@code .} or {@code ..}. Fingerprints and combination ids name folders and
     * files, so one read from a file (a topology, a manifest) must be plain before it is used.
     */
    public static String plainNameProblem(String name) {
        if (name == null || name.isEmpty()) {
            return "is empty; expected a plain name (letters, digits and . _ - +), e.g. h200x8-nv18-r580";
        }
        if (name.length() > MAX_PLAIN_NAME || name.equals(".") || name.equals("..")
                || !name.chars().allMatch(c -> c < 128 && (Character.isLetterOrDigit(c) || ".-_+".indexOf(c) >= 0))) {
            return "is not a plain name; expected 1 to " + MAX_PLAIN_NAME + " letters, digits and . _ - + (not . or ..), "
                    + "e.g. h200x8-nv18-r580";
        }
        return null;
    }

    /** "NVIDIA H100 80GB HBM3" becomes "h100-80gb-hbm3". */
    static String modelSlug(String name) {
        String s = name == null ? "gpu" : name.toLowerCase(Locale.ROOT)
                .replace("nvidia", "").replace("geforce", "").replaceAll("[^a-z0-9]+", "-");
        s = s.replaceAll("^-+|-+$", "");
        return s.isEmpty() ? "gpu" : s;
    }

    static String driverMajor(String driverVersion) {
        if (driverVersion == null || driverVersion.isBlank()) {
            return "unknown";
        }
        int dot = driverVersion.indexOf('.');
        return dot > 0 ? driverVersion.substring(0, dot) : driverVersion;
    }
}
