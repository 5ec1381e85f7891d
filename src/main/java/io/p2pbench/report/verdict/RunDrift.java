package io.p2pbench.report.verdict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How much a row drifts between runs beyond what its rounds show: the between-run part of its noise. Rounds of
 * one run are a minute apart at most; on the H100 node a state of the machine that moved small peer copies by 7%
 * lasted longer than some runs, so two runs' rounds could agree closely inside each run and differ between them.
 * Per class of rows ({@link NoiseFloors#classOf}), tau is the spread of a run's mean log figure that its rounds do
 * not explain: tau^2 = max(0, var(run means) - mean(var within a run) / rounds), averaged over the class's rows.
 * {@link io.p2pbench.report.stats.RoundTest} adds tau^2 / runs of each side to the variance of the difference.
 *
 * <p>Where it comes from, in this order: the baseline's own runs when it has two or more (measured in rounds),
 * together with the machine's committed table if there is one (the larger tau of the two per class); else the
 * machine's committed table ({@code drift-FINGERPRINT.json}, learned from reruns of that machine by {@code
 * tools/learn-run-drift.sh}); else none, and compare says that a one-run baseline cannot see between-run drift.
 */
public final class RunDrift {
    /** No drift known. */
    public static final RunDrift NONE = new RunDrift("none", Map.of(), 0);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String source;
    private final Map<String, Double> tau;
    private final int runs;

    private RunDrift(String source, Map<String, Double> tau, int runs) {
        this.source = source;
        this.tau = Map.copyOf(tau);
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
     * tau of a row's class (a spread of log figures); where the class is unknown but others of the metric are,
     * the largest of those; 0 when nothing is known.
     */
    public double tau(Measurement.Key k) {
        Double t = tau.get(NoiseFloors.classOf(k));
        if (t != null) {
            return t;
        }
        return tau.entrySet().stream().filter(e -> e.getKey().startsWith(k.metric() + " |"))
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
        Map<String, Double> all = new TreeMap<>(tau);
        other.tau.forEach((c, t) -> all.merge(c, t, Math::max));
        return new RunDrift(name, all, runs + other.runs);
    }

    /** The drift of the rows {@code runs} (two or more, measured in rounds) share; {@link #NONE} if they cannot say. */
    public static RunDrift learn(String name, List<ResultData> runs) {
        if (runs.size() < 2) {
            return NONE;
        }
        Map<String, List<Measurement>> byRow = new LinkedHashMap<>();
        for (ResultData r : runs) {
            for (Measurement m : r.measurements()) {
                byRow.computeIfAbsent(m.key().toString(), k -> new ArrayList<>()).add(m);
            }
        }
        Map<String, double[]> sums = new TreeMap<>(); // class -> {sum of tau^2, rows}
        for (List<Measurement> row : byRow.values()) {
            if (row.size() < 2 || row.stream().anyMatch(m -> m.roundCount() < 2)) {
                continue;
            }
            double[] means = new double[row.size()];
            double within = 0;
            int rounds = 0;
            boolean positive = true;
            for (int i = 0; i < row.size(); i++) {
                double[] logs = Arrays.stream(RoundRows.roundFigures(row.get(i))).map(Math::log).toArray();
                positive &= Arrays.stream(logs).allMatch(Double::isFinite);
                means[i] = Arrays.stream(logs).average().orElse(Double.NaN);
                within += variance(logs);
                rounds += logs.length;
            }
            if (!positive) {
                continue;
            }
            double perRun = rounds / (double) row.size();
            double tau2 = Math.max(0, variance(means) - within / row.size() / perRun);
            double[] s = sums.computeIfAbsent(NoiseFloors.classOf(row.get(0).key()), c -> new double[2]);
            s[0] += tau2;
            s[1]++;
        }
        if (sums.isEmpty()) {
            return NONE;
        }
        Map<String, Double> tau = new TreeMap<>();
        sums.forEach((c, s) -> tau.put(c, Math.sqrt(s[0] / s[1])));
        return new RunDrift(name, tau, runs.size());
    }

    /** The committed table of {@code machine}, or {@link #NONE}. */
    public static RunDrift forMachine(String machine) {
        String resource = "/io/p2pbench/report/drift-" + machine + ".json";
        try (InputStream in = RunDrift.class.getResourceAsStream(resource)) {
            if (in == null) {
                return NONE;
            }
            JsonNode doc = MAPPER.readTree(in);
            Map<String, Double> tau = new TreeMap<>();
            doc.path("tau").properties().forEach(e -> tau.put(e.getKey(), e.getValue().asDouble()));
            return new RunDrift("the table of " + machine + " (" + doc.path("about").asText() + ")", tau,
                    doc.path("runs").size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The drift a comparison uses for {@code baselines} of {@code machine} (see the class comment). */
    public static RunDrift of(String machine, List<ResultData> baselines) {
        RunDrift table = forMachine(machine);
        RunDrift own = learn("the baseline's " + baselines.size() + " runs", baselines);
        return own.known() ? own.max(table, own.source() + (table.known() ? " and " + table.source() : ""))
                : table;
    }

    /** This table as JSON: {@code about}, the runs it was learned from, tau per class. */
    public String toJson(String about, List<String> from) throws IOException {
        ObjectNode doc = MAPPER.createObjectNode();
        doc.put("about", about);
        from.forEach(doc.putArray("runs")::add);
        ObjectNode t = doc.putObject("tau");
        new TreeMap<>(tau).forEach((c, v) -> t.put(c, Math.round(v * 1e6) / 1e6));
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
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
        new TreeMap<>(d.tau).forEach((c, t) -> System.out.printf(Locale.ROOT, "%-55s tau %.2f%%%n", c, 100 * t));
    }

    private static double variance(double[] v) {
        if (v.length < 2) {
            return 0;
        }
        double mean = Arrays.stream(v).average().orElse(0);
        return Arrays.stream(v).map(a -> (a - mean) * (a - mean)).sum() / (v.length - 1);
    }
}
