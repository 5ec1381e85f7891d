package io.p2pbench.tools;

import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.report.verdict.GatedFigures;
import io.p2pbench.report.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Measures {@code compare}'s gate on partition and serving figures over A/A reruns of one machine: every ordered pair
 * of distinct runs judged as {@code compare BASELINE CANDIDATE} judges them ({@link GatedFigures#compare}, threshold 5%),
 * the pairs of one host (GPU UUIDs alike) apart from those of two hosts; then every host's runs together as one side
 * ({@code compare HOST_RUNS RUN} and {@code compare RUN HOST_RUNS}) against each run, of its host or another, both ways.
 * Per kind of pair: how many exit 1 (a false alarm: nothing changed), and per section, class (staged through host
 * memory or not) and figure the largest change between the two sides, with the pair that showed it. These are the
 * figures of docs/compare.md's partition and serving floors tables. Writes a Markdown file; run by
 * {@code tools/gated-pairs.sh}.
 *
 * <p>Usage: {@code GatedPairs OUT.md RUN RUN [RUN...]}.
 */
public final class GatedPairs {
    private GatedPairs() {}

    /** The threshold the pairs are judged at, in percent: compare's default. */
    static final double THRESHOLD_PCT = 5;

    /** One side of a comparison: its name and its runs, all of one host. */
    record Side(String name, List<ResultData> runs) {
        /** The host its runs ran on (their GPU UUIDs). */
        String host() {
            return runs.get(0).host();
        }
    }

    /** What the pairs of one kind showed: how many, how many exit 1 and their worst row, the largest change by figure. */
    static final class Tally {
        int pairs;
        final List<String> alarms = new ArrayList<>();
        /** Key: section | class | figure; value: the largest change and where it was seen. */
        final Map<String, Largest> largest = new TreeMap<>();
    }

    /** The largest change of one figure seen so far, in percent, and the configuration and pair that showed it. */
    static final class Largest {
        double pct = -1;
        String where = "";
    }

    /** Writes the tables of the runs named to the file named first, and prints them. */
    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: GatedPairs OUT.md RUN RUN [RUN...]");
            System.exit(2);
        }
        List<Path> paths = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            paths.add(Path.of(args[i]));
        }
        try {
            String md = report(paths);
            Files.writeString(Path.of(args[0]), md);
            System.out.print(md);
        } catch (BadInputException bad) {
            System.err.println("gated-pairs: " + bad.getMessage());
            System.exit(2);
        }
    }

    /** The tables of {@code runs}, read as stored. */
    static String report(List<Path> runs) throws IOException {
        List<Side> single = new ArrayList<>();
        for (Path p : runs) {
            ResultData d = ResultReader.read(p);
            single.add(new Side(String.valueOf(p.toAbsolutePath().normalize().getFileName()), List.of(d)));
        }
        Map<String, List<Side>> byHost = new LinkedHashMap<>();
        single.forEach(s -> byHost.computeIfAbsent(s.host(), h -> new ArrayList<>()).add(s));
        Map<String, Tally> tallies = new LinkedHashMap<>();
        for (Side a : single) {
            for (Side b : single) {
                if (a != b) {
                    judge(tallies, a.host().equals(b.host()) ? "one run a side, one host" : "one run a side, two hosts",
                            a, b);
                }
            }
        }
        for (List<Side> host : byHost.values()) {
            if (host.size() < 2) {
                continue;
            }
            List<ResultData> all = host.stream().flatMap(s -> s.runs().stream()).toList();
            Side together = new Side(host.size() + " runs of " + shortHost(host.get(0).host()), all);
            for (Side other : single) {
                String of = other.host().equals(together.host()) ? "one of them" : "a run of another host";
                judge(tallies, "a host's runs as the baseline, " + of + " as the candidate", together, other);
                judge(tallies, "a host's runs as the candidate, " + of + " as the baseline", other, together);
            }
        }
        StringBuilder md = new StringBuilder("# compare's gate on partition and serving figures, A/A\n\n");
        md.append("Written by `tools/gated-pairs.sh` (no GPU) from ").append(runs.size()).append(" runs on ")
                .append(byHost.size()).append(" hosts (GPU UUIDs): ")
                .append(String.join("; ", byHost.entrySet().stream().map(e -> shortHost(e.getKey()) + " "
                        + String.join(", ", e.getValue().stream().map(s -> "`" + s.name() + "`").toList())).toList()))
                .append(String.format(Locale.ROOT, ". Threshold ±%s%%; exit 1 is a false alarm (nothing changed). "
                        + "Change: max(ratio, 1/ratio) - 1 of the two sides' medians. Staged: through host memory "
                        + "(HOST_STAGED).%n%n", Markdown.plain(THRESHOLD_PCT)));
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, Tally> e : tallies.entrySet()) {
            Tally t = e.getValue();
            rows.add(List.of(e.getKey(), Integer.toString(t.pairs), Integer.toString(t.alarms.size())));
        }
        md.append(Markdown.table(List.of("pairs", "comparisons", "exit 1"), rows)).append('\n');
        for (Map.Entry<String, Tally> e : tallies.entrySet()) {
            md.append("## ").append(e.getKey()).append("\n\n");
            List<List<String>> largest = new ArrayList<>();
            e.getValue().largest.forEach((k, v) -> {
                String[] parts = k.split("\\|", 3);
                largest.add(List.of(parts[0], parts[1], parts[2], String.format(Locale.ROOT, "%.1f%%", v.pct),
                        v.where));
            });
            md.append(Markdown.table(List.of("section", "class", "figure", "largest change", "where"), largest));
            for (String alarm : e.getValue().alarms) {
                md.append("\n- exit 1: ").append(alarm);
            }
            md.append("\n\n");
        }
        return md.toString();
    }

    /** {@code compare BASE CAND} on the gated figures, tallied under {@code kind}. */
    static void judge(Map<String, Tally> tallies, String kind, Side base, Side cand) throws BadInputException {
        GatedFigures.Result r = GatedFigures.compare(base.runs(), cand.runs(), THRESHOLD_PCT);
        Tally t = tallies.computeIfAbsent(kind, k -> new Tally());
        t.pairs++;
        String pair = base.name() + " -> " + cand.name();
        GatedFigures.Group worst = null;
        for (GatedFigures.Group g : r.groups()) {
            if (g.verdict() == Verdict.WORSE && worst == null) {
                worst = g;
            }
            String cls = g.what().contains(" HOST_STAGED ") ? "staged" : "not staged";
            for (GatedFigures.Row row : g.rows()) {
                double ratio = row.ratio();
                if (!(ratio > 0) || !Double.isFinite(ratio)) {
                    continue;
                }
                double change = (Math.max(ratio, 1 / ratio) - 1) * 100;
                Largest seen = t.largest.computeIfAbsent(g.section() + "|" + cls + "|" + row.figure(),
                        k -> new Largest());
                if (change > seen.pct) {
                    seen.pct = change;
                    seen.where = g.what() + ": " + pair;
                }
            }
        }
        if (worst != null) {
            GatedFigures.Row h = worst.headline();
            t.alarms.add(String.format(Locale.ROOT, "%s: %s, %s %s -> %s (floor %.1f%%)", pair, worst.what(),
                    h.figure(), Markdown.number(h.baselineValue()), Markdown.number(h.candidateValue()),
                    100 * h.floor()));
        }
    }

    /** The first GPU UUID's first eight hex digits ({@code GPU-3a22b4e3}), or {@code no GPU UUID}. */
    static String shortHost(String host) {
        String first = host.split(",")[0];
        return first.isEmpty() ? "no GPU UUID" : first.substring(0, Math.min(12, first.length()));
    }
}
