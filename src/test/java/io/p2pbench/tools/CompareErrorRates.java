package io.p2pbench.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.p2pbench.report.render.VerdictWords;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.text.Markdown;
import io.p2pbench.report.verdict.Comparison;
import io.p2pbench.report.verdict.NoiseFloors;
import io.p2pbench.report.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Measures {@code compare}'s error rates on A/A reruns (same preset, same build, same machine):
 * how often a pair of reruns is called worse (false alarms), and how often known changes injected
 * by {@link ScaleResults} into a copy of a rerun are found, with baselines of one, two and three of
 * the other runs (every such subset) and of all the others together. Writes a Markdown table; run by
 * {@code tools/compare-error-rates.sh}.
 *
 * <p>Usage: {@code CompareErrorRates OUT.md WORK_DIR THRESHOLD_PCT RUN RUN [RUN...]}; the injected rows are
 * chosen with {@code -Drates.bandwidthRow=ID}, {@code -Drates.latencyRow=ID}, {@code -Drates.smallLatencyRow=ID}
 * when the runs do not hold the default ones (e.g. a 1 GiB subset).
 */
public final class CompareErrorRates {
    /** The entry scaled by 0.9 in the one-row bandwidth injection. */
    static final String BANDWIDTH_ROW = System.getProperty("rates.bandwidthRow", "host-bw-H2D-PINNED-LOCAL-gpu0-64MiB");
    /** An entry scaled by 1.25 in a latency injection: a class whose floor (14.6%) is below 25%. */
    static final String LATENCY_ROW = System.getProperty("rates.latencyRow", "host-lat-H2D-PINNED-LOCAL-gpu0-1MiB");
    /** Another: a 4 KiB peer copy, whose class floor on this VM (53%) is above 25%: shows the limit. */
    static final String SMALL_LATENCY_ROW = System.getProperty("rates.smallLatencyRow", "peer-lat-CE_P2P_READ-0-0-4KiB");
    /**
     * With {@code -Drates.everyEntry=true} (the script's RATES_EVERY_ENTRY=1): every bandwidth entry in turn scaled by
     * {@link #LONE_FACTOR} alone, with baselines of one and two other runs: on how many entries a lone change is caught
     * (exit 1 with that entry named) every time.
     */
    static final boolean EVERY_ENTRY = Boolean.getBoolean("rates.everyEntry");
    /** The factor of a lone change in the entry-by-entry measurement. */
    static final double LONE_FACTOR = 0.9;

    private CompareErrorRates() {}

    /** One injected change. */
    private record Injection(String name, Predicate<JsonNode> which, double factor) {}

    /** Tally of one kind of comparison. */
    private static final class Tally {
        int comparisons;
        int exit1;
        int changedNamed;
        int changed;
        int unchangedNamed;
        int unchanged;
        int unjudged;
        int measurements;
        int bandwidthUnjudged;
        int bandwidth;
        final List<String> examples = new ArrayList<>();

        void add(Comparison.Result r, Set<String> changedIds, String label) {
            comparisons++;
            boolean worse = r.count(Verdict.WORSE) > 0;
            exit1 += worse ? 1 : 0;
            for (Comparison.Group g : r.groups()) {
                boolean bw = g.headline().candidate().key().biggerIsBetter();
                boolean cannot = g.verdict() == Verdict.UNJUDGED;
                measurements++;
                bandwidth += bw ? 1 : 0;
                bandwidthUnjudged += bw && cannot ? 1 : 0;
                boolean isChanged = changedIds.contains(g.headline().candidate().id());
                boolean named = g.verdict() == Verdict.WORSE || g.verdict() == Verdict.BETTER;
                unjudged += g.verdict() == Verdict.UNJUDGED ? 1 : 0;
                if (isChanged) {
                    changed++;
                    changedNamed += g.verdict() == Verdict.WORSE ? 1 : 0;
                } else {
                    unchanged++;
                    unchangedNamed += named ? 1 : 0;
                    if (named && examples.size() < 5) {
                        Measurement c = g.headline().candidate();
                        examples.add(label + ": " + VerdictWords.word(g.verdict()) + " " + c.key().kind() + " " + c.key().path() + " "
                                + c.key().direction() + " " + io.p2pbench.transfer.Sizes.format(c.key().sizeBytes())
                                + " " + Markdown.change(g.headline().ratio()));
                    }
                }
            }
        }
    }

    /** Writes the error-rate table of {@code runs} to {@code out}. */
    public static void main(String[] args) throws IOException {
        if (args.length < 5) {
            System.err.println("usage: CompareErrorRates OUT.md WORK_DIR THRESHOLD_PCT RUN RUN [RUN...]");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Path work = Path.of(args[1]);
        double threshold = Double.parseDouble(args[2]);
        List<Path> runPaths = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            runPaths.add(Path.of(args[i]));
        }
        List<ResultData> runs = new ArrayList<>();
        for (Path p : runPaths) {
            runs.add(ResultReader.read(p));
        }
        NoiseFloors defaults = NoiseFloors.defaults();
        List<Injection> injections = List.of(
                new Injection("one bandwidth row -10% (" + BANDWIDTH_ROW + ")", ScaleResults.entry(BANDWIDTH_ROW), 0.9),
                new Injection("every bandwidth row -7%", ScaleResults.metric(Measurement.BANDWIDTH), 0.93),
                new Injection("one latency row +25% p50 (" + LATENCY_ROW + ")", ScaleResults.entry(LATENCY_ROW), 1.25),
                new Injection("one latency row +25% p50 (" + SMALL_LATENCY_ROW + ")",
                        ScaleResults.entry(SMALL_LATENCY_ROW), 1.25),
                new Injection("every latency row +10% p50", ScaleResults.metric(Measurement.LATENCY), 1.10));

        StringBuilder md = new StringBuilder();
        md.append("Written by `").append(threshold == 5 ? "" : "THRESHOLD=" + Markdown.plain(threshold) + " ")
                .append("tools/compare-error-rates.sh ").append(String.join(" ",
                        runPaths.stream().map(p -> p.toString().replace('\\', '/')).toList()))
                .append("` (no GPU; without arguments it reads the runs listed in `tools/aa-runs.txt`), from the "
                        + "result folders as stored (results format ").append(String.join(", ", runs.stream()
                        .map(r -> "`" + r.manifest().format() + "`").distinct().toList()))
                .append("); injected changes are scaled copies made by `tools/scale-results.sh`.\n\n");
        md.append("Runs (A/A: same preset, same build, same machine): ").append(String.join(", ",
                runPaths.stream().map(p -> "`" + p.getFileName() + "`").toList())).append(". Threshold ±")
                .append(Markdown.plain(threshold)).append("%. Rows measured in rounds: Student t over the rounds with the machine's between-run drift "
                        + "(its committed table, and the baseline's own runs when there are two or more); other rows: "
                        + "the committed noise floors '").append(defaults.name()).append("'.\n\n");
        md.append("| comparison | baseline | comparisons | exit 1 | changed measurements found worse | unchanged "
                + "measurements named | measurements that cannot be judged (per comparison) | judged: all, bandwidth |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        List<String> examples = new ArrayList<>();

        List<Integer> modes = new ArrayList<>();
        for (int k = 1; k <= Math.min(3, runs.size() - 1); k++) {
            modes.add(k);
        }
        if (runs.size() - 1 > 3) {
            modes.add(runs.size() - 1);
        }
        for (int mode : modes) {
            Tally aa = new Tally();
            for (int c = 0; c < runs.size(); c++) {
                for (List<ResultData> base : baselines(runs, c, mode)) {
                    aa.add(Comparison.compare(base, List.of(runs.get(c)), threshold, defaults), Set.of(),
                            "A/A " + label(base) + " vs " + runs.get(c).label());
                }
            }
            row(md, "A/A (no change)", mode, aa);
            examples.addAll(aa.examples);
            for (Injection inj : injections) {
                Tally t = new Tally();
                for (int c = 0; c < runs.size(); c++) {
                    Path copy = work.resolve(mode + "-" + injections.indexOf(inj) + "-" + c);
                    deleteRecursively(copy);
                    Set<String> ids = new HashSet<>(ScaleResults.scaledCopy(runPaths.get(c), copy, inj.which(),
                            inj.factor()));
                    ResultData scaled = ResultReader.read(copy);
                    for (List<ResultData> base : baselines(runs, c, mode)) {
                        t.add(Comparison.compare(base, List.of(scaled), threshold, defaults), ids,
                                inj.name() + ", " + label(base) + " vs scaled " + runs.get(c).label());
                    }
                }
                row(md, inj.name(), mode, t);
                examples.addAll(t.examples);
            }
        }
        if (EVERY_ENTRY) {
            md.append(everyEntry(runPaths, runs, work, threshold, defaults));
        }
        if (!examples.isEmpty()) {
            md.append("\nUnchanged measurements named (first few per line of the table):\n\n");
            examples.forEach(e -> md.append("- ").append(e).append('\n'));
        }
        Files.writeString(out, md.toString());
        System.out.print(md);
    }

    /**
     * Every bandwidth entry of the first run, scaled alone by {@link #LONE_FACTOR} in a copy of each run: with one and
     * with two other runs as the baseline, on how many of every such comparison compare exits 1 naming it.
     */
    static String everyEntry(List<Path> runPaths, List<ResultData> runs, Path work, double threshold,
                             NoiseFloors defaults) throws IOException {
        List<String> ids = runs.get(0).measurements().stream().filter(m -> m.key().metric().equals(Measurement.BANDWIDTH))
                .map(Measurement::id).distinct().toList();
        List<Integer> modes = List.of(1, 2).stream().filter(k -> k < runs.size()).toList();
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%nA lone x%s change, entry by entry (each "
                + "bandwidth entry of the preset scaled alone in a copy of each run; caught: exit 1 with the entry "
                + "named):%n%n| entry | %s |%n|---|%s%n", Markdown.plain(LONE_FACTOR), String.join(" | ",
                modes.stream().map(k -> k == 1 ? "one other run" : k + " other runs").toList()),
                "---|".repeat(modes.size())));
        int[] always = new int[modes.size()];
        for (String id : ids) {
            int[] caught = new int[modes.size()];
            int[] total = new int[modes.size()];
            for (int c = 0; c < runs.size(); c++) {
                // One scaled copy of run c serves every baseline size.
                Path copy = work.resolve("lone-" + c);
                deleteRecursively(copy);
                Set<String> changed = new HashSet<>(ScaleResults.scaledCopy(runPaths.get(c), copy,
                        ScaleResults.entry(id), LONE_FACTOR));
                ResultData scaled = ResultReader.read(copy);
                for (int i = 0; i < modes.size(); i++) {
                    for (List<ResultData> base : baselines(runs, c, modes.get(i))) {
                        Comparison.Result r = Comparison.compare(base, List.of(scaled), threshold, defaults);
                        total[i]++;
                        caught[i] += r.count(Verdict.WORSE) > 0 && r.groups().stream().anyMatch(g -> g.verdict()
                                == Verdict.WORSE && changed.contains(g.headline().candidate().id())) ? 1 : 0;
                    }
                }
            }
            md.append("| ").append(id);
            for (int i = 0; i < modes.size(); i++) {
                always[i] += caught[i] == total[i] ? 1 : 0;
                md.append(" | ").append(caught[i]).append(" of ").append(total[i]);
            }
            md.append(" |\n");
        }
        md.append("| **caught every time** |");
        for (int a : always) {
            md.append(" **").append(a).append(" of ").append(ids.size()).append(" entries** |");
        }
        return md.append('\n').toString();
    }

    /** Baselines for candidate {@code c}: every subset of {@code size} of the other runs. */
    static List<List<ResultData>> baselines(List<ResultData> runs, int c, int size) {
        List<ResultData> others = new ArrayList<>(runs);
        others.remove(c);
        List<List<ResultData>> out = new ArrayList<>();
        subsets(others, size, 0, new ArrayList<>(), out);
        return out;
    }

    private static void subsets(List<ResultData> from, int size, int next, List<ResultData> chosen,
                                List<List<ResultData>> out) {
        if (chosen.size() == size) {
            out.add(List.copyOf(chosen));
            return;
        }
        for (int i = next; i < from.size(); i++) {
            chosen.add(from.get(i));
            subsets(from, size, i + 1, chosen, out);
            chosen.remove(chosen.size() - 1);
        }
    }

    private static String label(List<ResultData> runs) {
        return runs.size() == 1 ? runs.get(0).label() : runs.size() + " runs";
    }

    private static void row(StringBuilder md, String what, int mode, Tally t) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d (%.0f%%) | %s | %d of %d (%.1f%%) | %.1f | %.0f%%, %.0f%% |%n",
                what,
                mode == 1 ? "one other run" : mode + " other runs", t.comparisons, t.exit1,
                100.0 * t.exit1 / t.comparisons, t.changed == 0 ? "n/a" : String.format(Locale.ROOT,
                        "%d of %d (%.0f%%)", t.changedNamed, t.changed, 100.0 * t.changedNamed / t.changed),
                t.unchangedNamed, t.unchanged, 100.0 * t.unchangedNamed / Math.max(1, t.unchanged),
                (double) t.unjudged / Math.max(1, t.comparisons),
                100.0 * (t.measurements - t.unjudged) / Math.max(1, t.measurements),
                100.0 * (t.bandwidth - t.bandwidthUnjudged) / Math.max(1, t.bandwidth)));
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (var files = Files.walk(p)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
