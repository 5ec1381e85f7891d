package io.p2pbench.doctor;

import io.p2pbench.topology.TopologyPrinter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Text renderings of a {@link Diagnosis}: the whole of it ({@code p2pbench doctor}), and a short
 * form for the topology output and a report's machine section (a verdict matrix and each cause once).
 */
public final class DoctorText {
    private static final Map<Verdict, String> CODES = new EnumMap<>(Map.of(Verdict.P2P_DIRECT, "D",
            Verdict.P2P_THROUGH_CPU, "C", Verdict.P2P_PATH_UNKNOWN, "P", Verdict.HOST_STAGED_ONLY, "H",
            Verdict.UNKNOWN, "?"));

    private DoctorText() {}

    /**
     * The pairs by {@code SRC|DST}, the first of each as {@link Diagnosis#pair} finds it: looked up once per pair,
     * a scan each time made the output of 200 GPUs (39,800 pairs) take quadratic time in the pairs.
     */
    private static Map<String, PairDiagnosis> byEnds(Diagnosis d) {
        Map<String, PairDiagnosis> out = new HashMap<>();
        d.pairs().forEach(p -> out.putIfAbsent(p.src() + "|" + p.dst(), p));
        return out;
    }

    /** Everything {@code p2pbench doctor} prints. */
    public static String render(Diagnosis d) {
        StringBuilder sb = new StringBuilder("p2pbench doctor: ").append(d.source()).append('\n');
        sb.append("Read-only: nothing was changed. cause = why P2P is off or slow; check = may be, confirm as the fix "
                + "says; unknown = could not be read (the reason says why); info; ok.\n\nHost\n");
        d.host().forEach(f -> finding(sb, f, "  ", false, true));
        for (GpuDiagnosis g : d.gpus()) {
            sb.append('\n').append(g.label().equals(g.pciBusId()) ? g.label() : g.label() + " " + g.pciBusId())
                    .append(g.name() == null ? "" : " " + g.name()).append('\n');
            g.findings().forEach(f -> finding(sb, f, "  ", false, true));
        }
        sb.append('\n');
        if (d.pairs().isEmpty()) {
            sb.append("Pairs: none (").append(d.gpus().size() == 1 ? "one GPU" : d.gpus().size() + " GPUs")
                    .append("): nothing travels between GPUs here\n");
        } else {
            sb.append("Pairs (source -> destination)\n");
            Set<String> done = new LinkedHashSet<>();
            Map<String, PairDiagnosis> byEnds = byEnds(d);
            for (PairDiagnosis p : d.pairs()) {
                if (!done.add(p.src() + "|" + p.dst())) {
                    continue;
                }
                PairDiagnosis back = byEnds.get(p.dst() + "|" + p.src());
                done.add(p.dst() + "|" + p.src());
                pairLine(sb, p);
                if (back != null) {
                    pairLine(sb, back);
                }
                boolean same = back != null && back.causes().equals(p.causes());
                causes(sb, p, same ? "both directions" : p.src() + " -> " + p.dst());
                if (!same && back != null) {
                    causes(sb, back, back.src() + " -> " + back.dst());
                }
            }
            sb.append('\n').append(counts(d)).append('\n');
        }
        d.notes().forEach(n -> sb.append("Note: ").append(n).append('\n'));
        return sb.toString();
    }

    /**
     * The short form: the verdict matrix and every cause, possible cause and unknown of the pairs
     * once, with its fix; host and GPU facts that bear on no pair are left to {@code p2pbench doctor}.
     */
    public static String summary(Diagnosis d) {
        StringBuilder sb = new StringBuilder("P2P diagnosis (p2pbench doctor: ").append(d.source()).append(")\n");
        if (d.pairs().isEmpty()) {
            sb.append("No GPU pair: ").append(d.gpus().size() == 1 ? "one GPU" : d.gpus().size() + " GPUs").append('.');
            Finding vm = d.host(Check.VIRTUAL_MACHINE);
            Finding iommu = d.host(Check.IOMMU);
            for (Finding f : new Finding[] {vm, iommu}) {
                if (f != null) {
                    sb.append(' ').append(f.check().title()).append(": ").append(f.summary()).append('.');
                }
            }
            return sb.append('\n').toString();
        }
        List<String[]> rows = new ArrayList<>();
        List<String> labels = d.gpus().stream().map(GpuDiagnosis::label).toList();
        String[] header = new String[labels.size() + 1];
        header[0] = "";
        for (int j = 0; j < labels.size(); j++) {
            header[j + 1] = labels.get(j);
        }
        rows.add(header);
        Map<String, PairDiagnosis> byEnds = byEnds(d);
        for (String src : labels) {
            String[] row = new String[labels.size() + 1];
            row[0] = src;
            for (int j = 0; j < labels.size(); j++) {
                PairDiagnosis p = byEnds.get(src + "|" + labels.get(j));
                row[j + 1] = src.equals(labels.get(j)) ? "X" : p == null ? "?" : CODES.get(p.verdict())
                        + (p.causes().stream().anyMatch(Finding::matters) ? "*" : "");
            }
            rows.add(row);
        }
        sb.append(TopologyPrinter.table(rows));
        sb.append("Legend: D = P2P direct, C = P2P through the CPU, H = host-staged only, P = P2P with the path unknown, "
                + "? = unknown; * = a cause or possible cause below\n");
        Map<String, Finding> unique = new LinkedHashMap<>();
        Map<String, List<String>> pairsOf = new LinkedHashMap<>();
        for (PairDiagnosis p : d.pairs()) {
            for (Finding f : p.causes()) {
                String key = f.check() + "|" + f.subject() + "|" + f.summary();
                unique.putIfAbsent(key, f);
                pairsOf.computeIfAbsent(key, k -> new ArrayList<>()).add(p.src() + "->" + p.dst());
            }
        }
        if (!unique.isEmpty()) {
            sb.append("Causes:\n");
            Map<String, Set<String>> pairsWith = pairsWith(d);
            unique.forEach((key, f) -> sb.append("  - ").append(f.status().label()).append(": [").append(f.check().title())
                    .append(", ").append(f.subject()).append("] ").append(f.summary())
                    .append(" (").append(pairsText(d, f, pairsOf.get(key), pairsWith)).append(')')
                    .append(f.fix().isEmpty() ? "" : " Fix: " + f.fix()).append('\n'));
        }
        d.pairs().stream().filter(p -> !p.unconfirmed().isEmpty()).map(p -> "  - unconfirmed " + p.src() + "->" + p.dst()
                + ": " + p.unconfirmed() + "\n").distinct().forEach(sb::append);
        d.notes().forEach(n -> sb.append("Note: ").append(n).append('\n'));
        return sb.append(counts(d)).append('\n').toString();
    }

    /** The pairs {@code SRC->DST} each GPU label is an end of, once for the whole summary (not once per cause). */
    private static Map<String, Set<String>> pairsWith(Diagnosis d) {
        Map<String, Set<String>> out = new HashMap<>();
        for (PairDiagnosis p : d.pairs()) {
            out.computeIfAbsent(p.src(), k -> new HashSet<>()).add(p.src() + "->" + p.dst());
            out.computeIfAbsent(p.dst(), k -> new HashSet<>()).add(p.src() + "->" + p.dst());
        }
        return out;
    }

    /** {@code all pairs}, {@code every pair with GPU3}, or the pairs, {@code GPU0<->GPU1} for both directions. */
    private static String pairsText(Diagnosis d, Finding f, List<String> pairs, Map<String, Set<String>> pairsWith) {
        if (pairs.size() == d.pairs().size()) {
            return "all pairs";
        }
        Set<String> withSubject = pairsWith.getOrDefault(f.subject(), Set.of());
        if (!withSubject.isEmpty() && new HashSet<>(pairs).equals(withSubject)) {
            return "every pair with " + f.subject();
        }
        Set<String> out = new LinkedHashSet<>(); // a set: a list's contains() made this quadratic in the pairs
        Set<String> seen = new LinkedHashSet<>(pairs);
        for (String p : pairs) {
            String[] ends = p.split("->");
            String back = ends[1] + "->" + ends[0];
            if (seen.contains(back)) {
                if (!out.contains(ends[1] + "<->" + ends[0])) {
                    out.add(ends[0] + "<->" + ends[1]);
                }
            } else {
                out.add(p);
            }
        }
        return String.join(", ", out);
    }

    private static void pairLine(StringBuilder sb, PairDiagnosis p) {
        sb.append("  ").append(p.src()).append(" -> ").append(p.dst()).append(": ").append(p.verdict().label())
                .append(", over ").append(p.route());
        Measured m = p.measured();
        if (m != null) {
            sb.append("; measured at ").append(GpuChecks.size(m.sizeBytes())).append(": P2P on ")
                    .append(figure(m.onGBps(), m.onPath())).append(", off ").append(figure(m.offGBps(), m.offPath()));
        }
        if (!p.unconfirmed().isEmpty()) {
            sb.append("; unconfirmed: ").append(p.unconfirmed());
        }
        sb.append('\n');
    }

    private static String figure(Double gbps, String path) {
        return gbps == null ? "not measured" : String.format(Locale.ROOT, "%.1f GB/s (%s)", gbps, path);
    }

    private static void causes(StringBuilder sb, PairDiagnosis p, String which) {
        if (p.causes().isEmpty()) {
            return;
        }
        sb.append("    causes, ").append(which).append(":\n");
        for (Finding f : p.causes()) {
            finding(sb, f, "    ", true, !GPU_CHECKS.contains(f.check()) && !f.subject().equals(HostChecks.HOST));
        }
    }

    /** Checks whose findings are about one GPU, printed in full in that GPU's section. */
    private static final Set<Check> GPU_CHECKS = Set.of(Check.PCIE_LINK, Check.BAR1, Check.PERSISTENCE,
            Check.NVLINK_STATE, Check.NVLINK_ERRORS);

    /** One finding; {@code full} adds evidence and fix, else a pointer to the section that has them. */
    private static void finding(StringBuilder sb, Finding f, String indent, boolean subject, boolean full) {
        sb.append(indent).append(String.format(Locale.ROOT, "%-8s", f.status().label())).append(f.check().title());
        if (subject) {
            sb.append(" (").append(f.subject()).append(')');
        }
        sb.append(": ").append(f.summary());
        if (!full) {
            sb.append(" (see ").append(f.subject().equals(HostChecks.HOST) ? "Host" : f.subject()).append(")\n");
            return;
        }
        sb.append('\n');
        for (String e : f.evidence()) {
            sb.append(indent).append("          evidence: ").append(e).append('\n');
        }
        if (!f.fix().isEmpty()) {
            sb.append(indent).append("          fix: ").append(f.fix()).append('\n');
        }
    }

    /** {@code 56 ordered pair(s): 56 P2P direct, ...}. */
    static String counts(Diagnosis d) {
        Map<Verdict, Integer> n = new EnumMap<>(Verdict.class);
        d.pairs().forEach(p -> n.merge(p.verdict(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        for (Verdict v : Verdict.values()) {
            if (n.containsKey(v) || v == Verdict.P2P_DIRECT || v == Verdict.P2P_THROUGH_CPU
                    || v == Verdict.HOST_STAGED_ONLY) {
                parts.add(n.getOrDefault(v, 0) + " " + v.label());
            }
        }
        return "Verdicts: " + d.pairs().size() + " ordered pair(s): " + String.join(", ", parts);
    }
}
