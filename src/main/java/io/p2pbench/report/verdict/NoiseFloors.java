package io.p2pbench.report.verdict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * How much a figure moves between reruns of the same build on the same machine: the noise floor
 * below which {@code compare} calls no change. Kept per row class (metric x kind and memory x size
 * band, {@link #classOf}).
 *
 * <p>Model: between two runs, the log ratio of a row's run-level figure (median over batches;
 * latency: p50) is taken as normal with mean 0 and a class-wide spread s, estimated as the root mean
 * square of the log ratios of every row of the class over every pair of runs. Because few runs give
 * an uncertain s, the floor uses its one-sided 95% upper confidence bound
 * s_up = s sqrt(k / chi2_{0.05}(k)) with k the degrees of freedom: k independent log differences,
 * which n runs of one machine give n - 1 of (the n(n - 1)/2 run pairs are not independent: with
 * three runs, a/c is a/b times b/c), whatever the number of rows (rows of one run share its drift,
 * so they count as one); 7 runs: k = 6 and s_up = 1.92 s, not the 1.35 s of k = 21 pairs. And
 * because one comparison judges about {@value #FAMILY_ROWS} rows (the quick preset on one GPU), the
 * floor is exp(z s_up) - 1 with z = Phi^-1(1 - 0.05 / (2 x {@value #FAMILY_ROWS})) = 3.52, so that,
 * where the model holds, a whole A/A comparison raises a false alarm with probability at most about
 * 5% (Bonferroni). Drift has heavier tails than that model, so a floor is never below the largest
 * change actually seen in its class ({@code maxSeen}, kept beside it).
 *
 * <p>Evidence adds up: the committed default table {@code noise-floors-h200x1.json} (learned from
 * older committed reruns of the H200 node; regenerate with {@code tools/learn-noise-floors.sh}) is
 * the floor of a one-run baseline, and a baseline of several runs adds its own evidence to the
 * table's ({@link #pooledWith}): its runs are independent of the table's, so their degrees of
 * freedom add up, and the pooled mean square is the two weighted by their degrees of freedom; the
 * largest change joins maxSeen. More baseline runs therefore narrow the chi-square bound instead of
 * replacing the table's evidence by their own few (two runs alone are k = 1, whose bound is 16
 * times s). Classes the table lacks fall back to the largest floor of the same metric.
 *
 * @param name what the floors were learned from, for the output
 * @param machine the machine they were learned on
 * @param classes the evidence per class
 */
public record NoiseFloors(String name, String machine, Map<String, ClassNoise> classes) {
    /** Rows one comparison judges, for the Bonferroni z of the floor (the quick preset on one GPU). */
    public static final int FAMILY_ROWS = 114;
    /** z of the floor: Phi^-1(1 - 0.05 / (2 FAMILY_ROWS)). */
    static final double Z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(1 - 0.05 / (2.0 * FAMILY_ROWS));

    /** Resource name of the committed default table. */
    public static final String DEFAULT_RESOURCE = "/io/p2pbench/report/noise-floors-h200x1.json";

    /**
     * What is known of one class.
     *
     * @param meanSquare mean of the squared log ratios: s squared
     * @param ratios how many log ratios (rows x run pairs) went into it
     * @param degreesOfFreedom independent log differences behind it: runs minus one (per group of runs
     *     that share a row of the class), summed over independent sources
     * @param maxLog the largest |log ratio| seen
     */
    public record ClassNoise(double meanSquare, long ratios, int degreesOfFreedom, double maxLog) {
        /** The class spread s: RMS of the log ratios. */
        public double spread() {
            return Math.sqrt(meanSquare);
        }

        /** The largest change seen, as a fraction. */
        public double maxSeen() {
            return Math.exp(maxLog) - 1;
        }

        /** exp(z s_up) - 1, never below the largest change seen. */
        public double floor() {
            return Math.max(NoiseFloors.floor(spread(), degreesOfFreedom), maxSeen());
        }

        /** The evidence of independent runs together: mean squares weighted by degrees of freedom, which add. */
        ClassNoise plus(ClassNoise o) {
            int df = degreesOfFreedom + o.degreesOfFreedom;
            return new ClassNoise((meanSquare * degreesOfFreedom + o.meanSquare * o.degreesOfFreedom) / df,
                    ratios + o.ratios, df, Math.max(maxLog, o.maxLog));
        }
    }

    /** The committed default table. */
    public static NoiseFloors defaults() {
        try (InputStream in = NoiseFloors.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + DEFAULT_RESOURCE + " is missing from the build");
            }
            return fromJson(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The row class of a measurement: metric, kind (host: and memory; bidirectional lanes and their
     * sum apart), size band.
     */
    public static String classOf(Measurement.Key k) {
        return classOf(k, false);
    }

    /**
     * The same, with rows staged through host memory (peer copies, collectives and exchanges over {@code
     * HOST_STAGED}) in classes of their own when {@code forDrift}: {@code bandwidth | peer host-staged | > 16 MiB};
     * so are exchanges made of all-reduces ({@link #ALL_REDUCES}).
     * The drift between runs ({@link RunDrift}) is learned and looked up by these: a staged copy moves with the
     * host's memory and CPU, a device copy does not, and one class for both gave the staged 64 MiB copy the device
     * copies' tau of 0 (three false alarms in twelve A/A comparisons of four-round runs on the H100 node).
     */
    static String classOf(Measurement.Key k, boolean forDrift) {
        String kind = k.kind();
        boolean sum = k.lane().isSum();
        boolean bidir = k.lane().isBidirectional();
        if (k.is(Kind.HOST)) {
            kind = (bidir ? Kind.HOST_BIDIR : Kind.HOST).label() + " " + k.route().memory();
        } else if (k.is(Kind.PEER) && bidir) {
            kind = Kind.PEER_BIDIR.label();
        }
        if (forDrift && k.route().hostStaged()) {
            kind += " " + STAGED;
        }
        if (forDrift && k.route().allReduceExchange()) {
            kind += " " + ALL_REDUCES;
        }
        return k.metric() + " | " + kind + (sum ? " sum" : "") + " | " + sizeBand(k.sizeBytes());
    }

    /** How a drift class of rows staged through host memory names them. */
    static final String STAGED = "host-staged";

    /**
     * How a drift class of exchanges made of all-reduces (the TENSOR pattern) names them: they move like the ring
     * all-reduce (rounds 12-16% apart on the H100 node), the point-to-point exchanges within 1%; one class for both gave
     * the PIPELINE and EXPERT exchanges over P2P the TENSOR exchange's drift (3.3% against their own 0.1-0.2%).
     */
    static final String ALL_REDUCES = "all-reduces";

    /** Size bands: up to 64 KiB (launch and enqueue bound), up to 16 MiB, above. */
    static String sizeBand(long bytes) {
        if (bytes <= 64 * Sizes.KIB) {
            return "<= 64 KiB";
        }
        return bytes <= 16 * Sizes.MIB ? "64 KiB - 16 MiB" : "> 16 MiB";
    }

    /** The floor of a class (a fraction), with where it came from; NaN when nothing is known of the metric. */
    public Floor floorOf(Measurement.Key k) {
        String c = classOf(k);
        ClassNoise known = classes.get(c);
        if (known != null) {
            return new Floor(known.floor(), name + ", class " + c + " (" + known.degreesOfFreedom()
                    + " degrees of freedom)");
        }
        double widest = classes.entrySet().stream().filter(e -> e.getKey().startsWith(k.metric() + " |"))
                .mapToDouble(e -> e.getValue().floor()).max().orElse(Double.NaN);
        return new Floor(widest, name + ", no class " + c + ": widest " + k.metric() + " floor");
    }

    /**
     * A floor and its source.
     *
     * @param fraction the floor, 0.05 = 5%; NaN when unknown
     * @param source where it comes from
     * @param byRounds whether it is the interval of a row judged by its rounds ({@link RoundRows})
     * @param withMoreRuns the model's estimate of the floor with {@link Comparison#MORE_RUNS} more baseline runs like
     *     these (the same rounds a run, spread and drift between runs): what pooling baselines would buy; NaN where
     *     there is none (rows without rounds)
     */
    public record Floor(double fraction, String source, boolean byRounds, double withMoreRuns) {
        /** A floor from a table or from runs' figures, not from rounds. */
        public Floor(double fraction, String source) {
            this(fraction, source, false);
        }

        /** A floor without an estimate for more baseline runs. */
        public Floor(double fraction, String source, boolean byRounds) {
            this(fraction, source, byRounds, Double.NaN);
        }
    }

    /** This table's evidence and {@code more}'s together, class by class, named {@code name}. */
    public NoiseFloors pooledWith(NoiseFloors more, String name) {
        Map<String, ClassNoise> all = new TreeMap<>(classes);
        more.classes.forEach((c, n) -> all.merge(c, n, ClassNoise::plus));
        return new NoiseFloors(name, machine, all);
    }

    /** Floors learned from reruns: every pair of runs, every row they share ({@link NoiseFloors} gives the model). */
    public static NoiseFloors learn(String name, List<ResultData> runs) {
        Map<String, double[]> sums = new TreeMap<>(); // class -> {sum of squared log ratios, count, max |log ratio|}
        Map<String, int[]> linked = new TreeMap<>(); // class -> union-find parents of the runs that share a row of it
        List<Map<String, Measurement>> indexed = new ArrayList<>();
        for (ResultData r : runs) {
            Map<String, Measurement> byKey = new LinkedHashMap<>();
            r.measurements().forEach(m -> byKey.put(m.key().toString(), m));
            indexed.add(byKey);
        }
        for (int a = 0; a < runs.size(); a++) {
            for (int b = a + 1; b < runs.size(); b++) {
                for (Map.Entry<String, Measurement> e : indexed.get(a).entrySet()) {
                    Measurement other = indexed.get(b).get(e.getKey());
                    if (other == null) {
                        continue;
                    }
                    double x = Comparison.runFigure(e.getValue());
                    double y = Comparison.runFigure(other);
                    if (!(x > 0 && y > 0)) {
                        continue;
                    }
                    String c = classOf(e.getValue().key());
                    double log = Math.log(x / y);
                    double[] acc = sums.computeIfAbsent(c, k -> new double[3]);
                    acc[0] += log * log;
                    acc[1]++;
                    acc[2] = Math.max(acc[2], Math.abs(log));
                    union(linked.computeIfAbsent(c, k -> unlinked(runs.size())), a, b);
                }
            }
        }
        Map<String, ClassNoise> classes = new TreeMap<>();
        sums.forEach((c, acc) -> classes.put(c, new ClassNoise(acc[0] / acc[1], (long) acc[1],
                degreesOfFreedom(linked.get(c)), acc[2])));
        return new NoiseFloors(name, runs.isEmpty() ? "?" : runs.get(0).machine(), classes);
    }

    private static int[] unlinked(int runs) {
        int[] parent = new int[runs];
        for (int i = 0; i < runs; i++) {
            parent[i] = i;
        }
        return parent;
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        parent[root(parent, a)] = root(parent, b);
    }

    /**
     * Independent log differences among runs linked by shared rows: each group of g linked runs gives
     * g - 1 (a spanning tree of its pairs); the other pairs' ratios follow from those.
     */
    static int degreesOfFreedom(int[] parent) {
        int df = 0;
        for (int i = 0; i < parent.length; i++) {
            df += root(parent, i) != i ? 1 : 0;
        }
        return df;
    }

    /** exp(z s_up) - 1 for a class spread {@code s} with {@code degreesOfFreedom} independent log differences. */
    static double floor(double s, int degreesOfFreedom) {
        return Math.exp(Z * s * widening(degreesOfFreedom)) - 1;
    }

    /** s_up / s = sqrt(k / chi2_0.05(k)): 1.92 for k = 6 (7 runs), 16.0 for k = 1. */
    static double widening(int degreesOfFreedom) {
        double chi2 = new ChiSquaredDistribution(null, degreesOfFreedom).inverseCumulativeProbability(0.05);
        return Math.sqrt(degreesOfFreedom / chi2);
    }

    /** As JSON, for the committed table. */
    public ObjectNode toJson(List<String> learnedFrom) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("name", name);
        root.put("machine", machine);
        root.put("method", "per row class (metric | kind | size band): s = RMS of log(a/b) of run-level figures "
                + "(median over batches; latency p50, R-7) over every row and pair of runs; floor = exp(z s_up) - 1, "
                + "s_up = s sqrt(k / chi2_0.05(k)) with k degrees of freedom (runs - 1: the run pairs are not "
                + "independent), z = " + String.format(Locale.ROOT,
                "%.3f", Z) + " (Bonferroni over " + FAMILY_ROWS + " rows at 5%), never below the largest change seen");
        ArrayNode from = root.putArray("learnedFrom");
        learnedFrom.forEach(from::add);
        ArrayNode out = root.putArray("classes");
        classes.forEach((c, n) -> out.addObject().put("class", c).put("floor", Math.ceil(n.floor() * 1e4) / 1e4)
                .put("degreesOfFreedom", n.degreesOfFreedom()).put("maxSeen", Math.round(n.maxSeen() * 1e4) / 1e4)
                .put("meanSquare", n.meanSquare()).put("ratios", n.ratios()).put("maxLog", n.maxLog()));
        return root;
    }

    static NoiseFloors fromJson(JsonNode root) {
        Map<String, ClassNoise> classes = new TreeMap<>();
        for (JsonNode c : root.path("classes")) {
            classes.put(c.path("class").asText(), new ClassNoise(c.path("meanSquare").asDouble(),
                    c.path("ratios").asLong(), c.path("degreesOfFreedom").asInt(), c.path("maxLog").asDouble()));
        }
        return new NoiseFloors(root.path("name").asText("?"), root.path("machine").asText("?"), classes);
    }

    /**
     * Learns a table from result folders and writes it as JSON: {@code NoiseFloors OUT.json NAME RUN...}.
     * The committed default is made by {@code tools/learn-noise-floors.sh}.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println("usage: NoiseFloors OUT.json NAME RESULT_DIR RESULT_DIR...");
            System.exit(2);
        }
        List<ResultData> runs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            runs.add(ResultReader.read(Path.of(args[i])));
            names.add(args[i]);
        }
        NoiseFloors table = learn(args[1], runs);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(Path.of(args[0]).toFile(),
                table.toJson(names));
    }
}
