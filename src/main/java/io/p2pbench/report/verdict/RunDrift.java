package io.p2pbench.report.verdict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.stats.RoundTest;
import io.p2pbench.spec.Kind;
import io.p2pbench.spec.Metric;
import io.p2pbench.transfer.HostMemory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;

/**
 * How much a row drifts between runs beyond what its rounds show: the between-run part of its noise. Rounds of
 * one run are a minute apart at most; on the H100 node a state of the machine that moved small peer copies by 7%
 * lasted longer than some runs, so two runs' rounds could agree closely inside each run and differ between them.
 * Per class of rows ({@link NoiseFloors#classOf(Measurement.Key, boolean)}: rows staged through host memory apart),
 * tau is the spread of a run's mean log figure that its rounds do not explain: tau^2 = max(0, var(run means) -
 * mean(var within a run) / rounds), averaged over the class's rows. {@link io.p2pbench.report.stats.RoundTest} adds
 * tau^2 / runs of each side to the variance of the difference.
 *
 * <p>Where it comes from, in this order: the baseline's own runs when it has two or more (measured in rounds),
 * together with the machine's committed table if there is one (the larger tau of the two per class); else the
 * machine's committed table ({@code drift-FINGERPRINT.json}, learned from reruns of that machine by {@code
 * tools/learn-run-drift.sh}); a machine without one takes the table of {@link #PRIOR} as a prior, named as such.
 */
public final class RunDrift {
    /** No drift known. */
    public static final RunDrift NONE = new RunDrift("none", Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), 0);

    /**
     * Fewest hosts a drift between hosts is learned from. Leave-one-host-out over the four H100 hosts of 2026-12-06:
     * learned from three (with the 95% upper bound), the fourth still raised false alarms in 11 of 20 comparisons
     * (its host-staged 64 MiB copies 17% slower while the three agreed within 1%): hosts of one kind are a mixture,
     * not a normal spread, and three or four of them do not show it. Ten hosts (each held out, learned from nine)
     * did not either: the odd host raised 34 false alarms in 68. So compare judges no row in rounds across hosts
     * whatever this learns ({@link io.p2pbench.settings.Settings#COMPARE_ACROSS_HOSTS} turns it on for that check).
     */
    public static final int MIN_HOSTS = 8;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String source;
    private final Map<String, Double> tau;
    private final Map<String, Double> hostTau;
    private final Map<String, Double> total;
    private final Map<String, Double> rowTotal;
    private final Map<String, Double> rowDriftMax;
    private final int runs;

    private RunDrift(String source, Map<String, Double> tau, Map<String, Double> hostTau, Map<String, Double> total,
                     Map<String, Double> rowTotal, Map<String, Double> rowDriftMax, int runs) {
        this.source = source;
        this.tau = Map.copyOf(tau);
        this.hostTau = Map.copyOf(hostTau);
        this.total = Map.copyOf(total);
        this.rowTotal = Map.copyOf(rowTotal);
        this.rowDriftMax = Map.copyOf(rowDriftMax);
        this.runs = runs;
    }

    /** Where the drift comes from, for the verdict line. */
    public String source() {
        return source;
    }

    /** Whether anything is known. */
    public boolean known() {
        return !tau.isEmpty();
    }

    /**
     * tau of a row's class (a spread of log figures): between runs on one host; where the class is unknown but others
     * of the metric are, the largest of those; 0 when nothing is known.
     */
    public double tau(Measurement.Key k) {
        return lookup(tau, k);
    }

    /**
     * The between-host drift of a row's class: the spread of a host's mean log figure around the kind's, beyond what
     * its runs show (runs of one fingerprint on other physical GPUs); looked up as {@link #tau}. 0 when unknown.
     */
    public double hostTau(Measurement.Key k) {
        return lookup(hostTau, k);
    }

    /**
     * The spread of one round's log figure of the row, rounds and runs together, on a host of this kind: s^2 + tau^2
     * of each host (s the spread of its rounds within a run, tau its drift between runs), root mean square over the
     * hosts. Where a state of the machine decides a small copy's level (docs/notes/copy-level-per-process.md), one
     * host drew it anew in every process (a wide s, no tau) and another kept it for a whole run (a narrow s, a tau of
     * 4%): what the rounds of a comparison do not show of this total may lie between its runs ({@link RoundRows}).
     * Leave-one-host-out on four H100 hosts: without it, a table learned from three raised 2 false alarms in 12 A/A
     * comparisons of the fourth; with it, none in 72 (docs/compare-error-rates-h100.md). The largest host instead of
     * the mean also raised none and judged a third fewer rows. Per row where the table has it; else its class's (the
     * class mean of each host, root mean square over hosts); 0 when unknown.
     */
    public double total(Measurement.Key k) {
        Double row = rowTotal.get(rowId(k));
        return row != null ? row : lookup(total, k);
    }

    /**
     * The largest drift between runs any one host showed for the row (its tau on that host, beyond its rounds), where
     * the table saw the row on {@link #MIN_HOSTS} hosts or more and the row is not {@link #drawnAtContextLevel}; NaN
     * elsewhere. What a comparison's rounds do not show of {@link #total} is taken as drift between its runs up to this
     * much, not more: the total of a row is the root mean square over hosts of rounds and drift together, and hosts whose
     * rounds spread wide (a slow JVM, a staging buffer's CPU) make it wider than the drift any host showed between its
     * runs (on the H100 node a 1 MiB copy staged through host memory: total 2.0%, largest drift 0.9%). Rows
     * drawn at a context's level have no such cap: one host held their level for whole runs (a drift of 3.1% for 1 MiB
     * SM copies where the fifteen other hosts' largest was 1.1%), and a cap from the others raised a false alarm there
     * (leave-one-host-out, docs/compare-error-rates-h100.md).
     */
    public double rowDriftMax(Measurement.Key k) {
        return rowDriftMax.getOrDefault(rowId(k), Double.NaN);
    }

    /**
     * Whether a row's figure is drawn at a level of the CUDA context its process runs in
     * (docs/notes/copy-level-per-process.md), read from its key as {@code run.ForkGroups.drawsContextLevel} plans it: the
     * bandwidth of device copies up to 16 MiB through peer access by the copy engines or SMs, and of pinned host copies.
     */
    static boolean drawnAtContextLevel(Measurement.Key k) {
        return Metric.BANDWIDTH.label().equals(k.metric())
                && (k.is(Kind.PEER) && k.route().peerAccess() && k.sizeBytes() <= 16L << 20
                || k.is(Kind.HOST) && k.route().memory() == HostMemory.PINNED);
    }

    /**
     * Whether a row's rounds at a slow level are set aside ({@link RoundTest#kept}): bandwidth through pinned host memory
     * (pinned host copies, peer copies staged through host memory), whose rounds on some hosts now and then fall to a
     * slow level for a whole process (on the host of set T, 22 of the 816 rounds of such rows more than 10% below their
     * row's median; on set S's, none).
     */
    static boolean setsAside(Measurement.Key k) {
        return Metric.BANDWIDTH.label().equals(k.metric())
                && (k.is(Kind.HOST) && k.route().memory() == HostMemory.PINNED || k.is(Kind.PEER) && k.route().hostStaged());
    }

    /** A row's name in the table: metric, kind, path, lane, endpoints and size, as the key writes them. */
    static String rowId(Measurement.Key k) {
        return String.join(" | ", k.metric(), k.kind(), k.path(), k.direction(), k.pair(), Long.toString(k.sizeBytes()));
    }

    /** Whether a between-host drift is known (learned from runs on {@link #MIN_HOSTS} hosts or more). */
    public boolean knowsHosts() {
        return !hostTau.isEmpty();
    }

    private static double lookup(Map<String, Double> table, Measurement.Key k) {
        Double t = table.get(NoiseFloors.classOf(k, true));
        if (t != null) {
            return t;
        }
        return table.entrySet().stream().filter(e -> e.getKey().startsWith(k.metric() + " |"))
                .mapToDouble(Map.Entry::getValue).max().orElse(0);
    }

    /** The larger tau of this and {@code other} per class. */
    RunDrift max(RunDrift other, String name) {
        if (!other.known()) {
            return this;
        }
        if (!known()) {
            return other;
        }
        return new RunDrift(name, larger(tau, other.tau), larger(hostTau, other.hostTau), larger(total, other.total),
                larger(rowTotal, other.rowTotal), larger(rowDriftMax, other.rowDriftMax), runs + other.runs);
    }

    /** The larger value of {@code a} and {@code b} per key. */
    private static Map<String, Double> larger(Map<String, Double> a, Map<String, Double> b) {
        Map<String, Double> out = new TreeMap<>(a);
        b.forEach((c, t) -> out.merge(c, t, Math::max));
        return out;
    }

    /** The same table under another name. */
    private RunDrift named(String name) {
        return new RunDrift(name, tau, hostTau, total, rowTotal, rowDriftMax, runs);
    }

    /**
     * The drift of the rows {@code runs} (two or more, measured in rounds) share; {@link #NONE} if they cannot say.
     * Runs are grouped by host ({@link ResultData#host()}): tau from the runs of each host (pooled over hosts), the
     * between-host drift from the hosts' means where there are two hosts or more.
     */
    public static RunDrift learn(String name, List<ResultData> runs) {
        if (runs.size() < 2) {
            return NONE;
        }
        Map<String, Map<String, List<double[]>>> byRow = new LinkedHashMap<>(); // row -> host -> {mean, var, rounds}
        Map<String, Measurement.Key> keys = new LinkedHashMap<>();
        for (ResultData r : runs) {
            for (Measurement m : r.measurements()) {
                if (m.roundCount() < 2 || m.hostPaced()) {
                    continue; // a host-paced collective drifted with the host's CPU, not with what it now measures
                }
                double[] all = Arrays.stream(RoundRows.roundFigures(m)).map(Math::log).toArray();
                if (!Arrays.stream(all).allMatch(Double::isFinite) || RoundTest.disturbed(all, setsAside(m.key()))) {
                    continue; // a run disturbed on this row says how the machine was disturbed, not how runs drift
                }
                double[] logs = RoundTest.kept(all, setsAside(m.key()));
                String row = m.key().toString();
                keys.putIfAbsent(row, m.key());
                byRow.computeIfAbsent(row, k -> new LinkedHashMap<>()).computeIfAbsent(r.host(), h -> new ArrayList<>())
                        .add(new double[] {Arrays.stream(logs).average().orElseThrow(), variance(logs), logs.length});
            }
        }
        Map<String, double[]> tauSums = new TreeMap<>(); // class -> {sum of tau^2, rows}
        Map<String, double[]> hostSums = new TreeMap<>();
        Map<String, Map<String, double[]>> totalSums = new TreeMap<>(); // class -> host -> {sum of s^2 + tau^2, rows}
        Map<String, double[]> rowTotals = new TreeMap<>(); // row -> {sum over hosts of s^2 + tau^2, hosts}
        Map<String, double[]> rowMaxima = new TreeMap<>(); // row -> {largest tau_h^2, hosts}
        Set<String> contextLevel = new HashSet<>();
        byRow.forEach((row, hosts) -> {
            String cls = NoiseFloors.classOf(keys.get(row), true);
            String id = rowId(keys.get(row));
            if (drawnAtContextLevel(keys.get(row))) {
                contextLevel.add(id);
            }
            double[] drift = new double[2]; // {sum over hosts of (runs - 1) tau_h^2, sum of (runs - 1)}
            hosts.forEach((host, list) -> {
                if (list.size() < 2) {
                    return;
                }
                double mean = list.stream().mapToDouble(v -> v[0]).average().orElseThrow();
                double between = list.stream().mapToDouble(v -> (v[0] - mean) * (v[0] - mean)).sum() / (list.size() - 1);
                double within = list.stream().mapToDouble(v -> v[1]).average().orElseThrow();
                double perRunNoise = list.stream().mapToDouble(v -> v[1] / v[2]).average().orElseThrow();
                double hostTau2 = Math.max(0, between - perRunNoise);
                drift[0] += (list.size() - 1) * hostTau2;
                drift[1] += list.size() - 1;
                add(totalSums.computeIfAbsent(cls, c -> new TreeMap<>()), host, within + hostTau2);
                add(rowTotals, id, within + hostTau2);
                double[] most = rowMaxima.computeIfAbsent(id, r -> new double[2]);
                most[0] = Math.max(most[0], hostTau2);
                most[1]++;
            });
            double noise = 0; // mean over runs of (within-run variance / rounds): a run mean's spread from its rounds
            int n = 0;
            for (List<double[]> host : hosts.values()) {
                for (double[] v : host) {
                    noise += v[1] / v[2];
                    n++;
                }
            }
            double perRun = noise / n;
            // Each host's drift against its own rounds: a host whose rounds spread wide must not hide another's drift.
            double tau2 = drift[1] > 0 ? drift[0] / drift[1] : 0;
            if (drift[1] > 0) {
                add(tauSums, cls, tau2);
            }
            if (hosts.size() >= MIN_HOSTS) {
                double[] means = hosts.values().stream().mapToDouble(h -> h.stream().mapToDouble(v -> v[0]).average()
                        .orElseThrow()).toArray();
                double t2 = tau2;
                double expected = hosts.values().stream().mapToDouble(h -> (t2 + perRun) / h.size()).average()
                        .orElseThrow();
                // A few hosts say little about the next one: the one-sided 95% upper bound of the hosts' variance
                // (chi-square, hosts - 1 degrees of freedom); 3 hosts: 19.5 times the estimate, 4: 8.5 times.
                int k = means.length - 1;
                double upper = variance(means) * k / new ChiSquaredDistribution(null, k).inverseCumulativeProbability(0.05);
                add(hostSums, cls, Math.max(0, upper - expected));
            }
        });
        if (tauSums.isEmpty() && hostSums.isEmpty()) {
            return NONE;
        }
        Map<String, Double> totals = new TreeMap<>();
        totalSums.forEach((c, byHost) -> totals.put(c, Math.sqrt(byHost.values().stream().mapToDouble(v -> v[0] / v[1])
                .average().orElse(0))));
        Map<String, Double> maxima = new TreeMap<>();
        rowMaxima.forEach((row, m) -> {
            if (m[1] >= MIN_HOSTS && !contextLevel.contains(row)) {
                maxima.put(row, Math.sqrt(m[0]));
            }
        });
        return new RunDrift(name, roots(tauSums), roots(hostSums), totals, roots(rowTotals), maxima, runs.size());
    }

    private static void add(Map<String, double[]> sums, String c, double v) {
        double[] s = sums.computeIfAbsent(c, k -> new double[2]);
        s[0] += v;
        s[1]++;
    }

    private static Map<String, Double> roots(Map<String, double[]> sums) {
        Map<String, Double> out = new TreeMap<>();
        sums.forEach((c, s) -> out.put(c, Math.sqrt(s[0] / s[1])));
        return out;
    }

    /** The committed table of {@code machine}, or {@link #NONE}. */
    public static RunDrift forMachine(String machine) {
        String resource = "/io/p2pbench/report/drift-" + machine + ".json";
        try (InputStream in = RunDrift.class.getResourceAsStream(resource)) {
            if (in == null) {
                return NONE;
            }
            JsonNode doc = MAPPER.readTree(in);
            // The verdict line names the table by its first clause; its whole provenance stays in the resource.
            String about = doc.path("about").asText();
            int cut = about.indexOf(" (");
            return new RunDrift("the table of " + machine + " (" + (cut > 0 ? about.substring(0, cut)
                    + "; docs/compare.md names them" : about) + ")",
                    values(doc, "tau"), values(doc, "hostTau"), values(doc, "total"), values(doc, "rowTotal"),
                    values(doc, "rowDriftMax"), doc.path("runs").size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The numbers under {@code field} of a table's JSON, by name (none when it is absent). */
    private static Map<String, Double> values(JsonNode doc, String field) {
        Map<String, Double> out = new TreeMap<>();
        doc.path(field).properties().forEach(e -> out.put(e.getKey(), e.getValue().asDouble()));
        return out;
    }

    /**
     * The machine whose table stands in, as a prior, for a machine without one of its own: the only one learned so far
     * (72 runs on sixteen hosts). A prior only widens a floor (tau and total are maxima with what the runs show), so it can
     * make a row "cannot judge" that rounds alone would judge, never a false alarm that they would not raise. Rounds
     * alone, with no drift at all, raised 2 false alarms in 12 A/A comparisons of the first H100 set.
     */
    static final String PRIOR = "h100-80gb-hbm3x1-single-r580";

    /** The drift a comparison uses for {@code baselines} of {@code machine} (see the class comment). */
    public static RunDrift of(String machine, List<ResultData> baselines) {
        RunDrift table = forMachine(machine);
        if (!table.known() && !machine.equals(PRIOR)) {
            RunDrift prior = forMachine(PRIOR);
            table = prior.known() ? prior.named("the table of " + PRIOR + " as a prior (this machine has no table: "
                    + "learn one from its reruns with tools/learn-run-drift.sh)") : NONE;
        }
        return ofTables(learn("the baseline's " + baselines.size() + " runs", baselines), table);
    }

    /** The drift of a baseline's own runs ({@code own}, perhaps unknown) together with a committed {@code table}. */
    static RunDrift ofTables(RunDrift own, RunDrift table) {
        return own.known() ? own.max(table, own.source() + (table.known() ? " and " + table.source() : ""))
                .capsAtLeast(own) : table;
    }

    /**
     * This table with each row's {@link #rowDriftMax} raised to what {@code runs} (the baseline's own) spread to in the
     * row, rounds and runs together: the table's cap may shorten the drift its own total allows, never what the
     * machine's own runs show.
     */
    private RunDrift capsAtLeast(RunDrift runs) {
        Map<String, Double> caps = new TreeMap<>(rowDriftMax);
        caps.replaceAll((row, cap) -> Math.max(cap, runs.rowTotal.getOrDefault(row, 0.0)));
        return new RunDrift(source, tau, hostTau, total, rowTotal, caps, this.runs);
    }

    /** This table as JSON: {@code about}, the runs it was learned from, tau per class. */
    public String toJson(String about, List<String> from) throws IOException {
        ObjectNode doc = MAPPER.createObjectNode();
        doc.put("about", about);
        from.forEach(doc.putArray("runs")::add);
        ObjectNode t = doc.putObject("tau");
        new TreeMap<>(tau).forEach((c, v) -> t.put(c, Math.round(v * 1e6) / 1e6));
        put(doc, "hostTau", hostTau);
        put(doc, "total", total);
        put(doc, "rowTotal", rowTotal);
        put(doc, "rowDriftMax", rowDriftMax);
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
    }

    /** Writes {@code values} under {@code field}, rounded to 1e-6, unless there are none. */
    private static void put(ObjectNode doc, String field, Map<String, Double> values) {
        if (!values.isEmpty()) {
            ObjectNode o = doc.putObject(field);
            new TreeMap<>(values).forEach((c, v) -> o.put(c, Math.round(v * 1e6) / 1e6));
        }
    }

    /** {@code RunDrift OUT.json ABOUT RUN RUN [RUN...]}: learns a machine's table from its reruns. */
    public static void main(String[] args) throws Exception {
        List<ResultData> runs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            runs.add(ResultReader.read(Path.of(args[i])));
            names.add(Path.of(args[i]).getFileName().toString());
        }
        RunDrift d = learn(args[1], runs);
        Files.writeString(Path.of(args[0]), d.toJson(args[1], names));
        new TreeMap<>(d.tau).forEach((c, t) -> System.out.printf(Locale.ROOT, "%-55s tau %.2f%%, total %.2f%%%n", c,
                100 * t, 100 * d.total.getOrDefault(c, 0.0)));
        new TreeMap<>(d.hostTau).forEach((c, t) -> System.out.printf(Locale.ROOT, "%-55s between hosts %.2f%%%n", c,
                100 * t));
    }

    private static double variance(double[] v) {
        if (v.length < 2) {
            return 0;
        }
        double mean = Arrays.stream(v).average().orElse(0);
        return Arrays.stream(v).map(a -> (a - mean) * (a - mean)).sum() / (v.length - 1);
    }
}
