package io.p2pbench.whatif;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.collective.BusBandwidth;
import io.p2pbench.report.read.Endpoints;
import io.p2pbench.report.read.Lane;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.stats.Statistics;
import io.p2pbench.spec.Kind;
import io.p2pbench.transfer.CopyPath;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One machine a what-if predicts for: a p2pbench result folder, an nccl-tests or nvbandwidth file
 * (read through {@link io.p2pbench.report.Compare#read}), or a public reference machine shipped with
 * the suite. It holds every usable curve; {@link #curve} picks the one a message needs.
 *
 * <p>Collective curves are bus bandwidth (direction {@code bus}) of NCCL's collectives, or of
 * p2pbench's ring all-reduce; groups of one rank are left out (their bus bandwidth is 0 by
 * definition). Send curves are one-way copy bandwidth between two GPUs.
 */
public final class Source {
    /** Resource of the public reference machines. */
    static final String REFERENCES = "reference-machines.json";
    /** How every reference machine is labelled. */
    public static final String REFERENCE_LABEL = "public reference, not measured here";

    /**
     * A usable curve and what it is for.
     *
     * @param op the communication it measures
     * @param curve the curve
     * @param kind the kind of the rows it comes from ({@link Kind#NCCL}, {@link Kind#ALLREDUCE_RING}, {@link Kind#PEER},
     *     ...); null for a public reference machine
     * @param dtype its element type as the source spells it ({@code FLOAT32}), or empty
     * @param inSwitchReduction for an all-reduce the switch reduced (NVLink SHARP, "NVLS"), its name; else null.
     *     Such a curve's bus bandwidth can exceed the links' line rate, which reduce-scatter, all-gather and a
     *     send cannot: it is no curve to derive them from.
     * @param hostStaged whether its data went through host memory (a ring over {@code HOST_STAGED})
     */
    public record Candidate(Comm op, Curve curve, Kind kind, String dtype, String inSwitchReduction,
                            boolean hostStaged) {
        /** A curve whose data did not go through host memory. */
        public Candidate(Comm op, Curve curve, Kind kind, String dtype, String inSwitchReduction) {
            this(op, curve, kind, dtype, inSwitchReduction, false);
        }
    }

    /** The figures of one curve: a kind, a path and the GPUs, at every size. */
    private record Series(String kind, String path, Endpoints ends) {}

    /**
     * What a source says of its GPUs beyond its curves; NaN where it does not say.
     *
     * @param gpuMemoryBytes memory of its smallest GPU
     * @param memoryFrom where that figure comes from
     * @param lineRateGBps per-direction line rate of one GPU's links, decimal GB/s
     * @param lineRateFrom where that figure comes from
     */
    public record Hardware(double gpuMemoryBytes, String memoryFrom, double lineRateGBps, String lineRateFrom) {
        /** Nothing known. */
        static final Hardware UNKNOWN = new Hardware(Double.NaN, "", Double.NaN, "");
    }

    private final String label;
    private final String origin;
    private final List<Candidate> candidates;
    private final Hardware hardware;
    private final boolean reference;

    Source(String label, String origin, List<Candidate> candidates, Hardware hardware) {
        this(label, origin, candidates, hardware, false);
    }

    private Source(String label, String origin, List<Candidate> candidates, Hardware hardware, boolean reference) {
        this.label = label;
        this.origin = origin;
        this.candidates = List.copyOf(candidates);
        this.hardware = hardware;
        this.reference = reference;
    }

    /** What the source says of its GPUs' memory and links. */
    public Hardware hardware() {
        return hardware;
    }

    /** Short name for tables and the chart's bar groups. */
    public String label() {
        return label;
    }

    /** Where the figures come from: a folder, a tool's file, or a public reference with its citation. */
    public String origin() {
        return origin;
    }

    /** Every usable curve. */
    public List<Candidate> candidates() {
        return candidates;
    }

    /** Whether this is a public reference machine (not measured here). */
    public boolean isReference() {
        return reference;
    }

    /**
     * The best curve measuring {@code op} directly: a group of {@code gpus} ranks before others (then
     * the largest), NCCL before p2pbench's ring, ring over P2P before host-staged, {@code dtype}
     * before other types, then the most sizes.
     */
    public Optional<Candidate> curve(Comm op, GradientType dtype, int gpus) {
        return best(candidates.stream().filter(c -> c.op() == op).toList(), op, dtype, gpus);
    }

    /**
     * The all-reduce curve to derive reduce-scatter, all-gather or a send from: one whose links did the
     * reducing (a ring) before one the switch reduced.
     */
    public Optional<Candidate> allReduceToDeriveFrom(GradientType dtype, int gpus) {
        List<Candidate> allReduce = candidates.stream().filter(c -> c.op() == Comm.ALL_REDUCE).toList();
        List<Candidate> ring = allReduce.stream().filter(c -> c.inSwitchReduction() == null).toList();
        return best(ring.isEmpty() ? allReduce : ring, Comm.ALL_REDUCE, dtype, gpus);
    }

    private static Optional<Candidate> best(List<Candidate> of, Comm op, GradientType dtype, int gpus) {
        return of.stream().min(Comparator
                .comparing((Candidate c) -> op != Comm.SEND && c.curve().ranks() != gpus)
                .thenComparing(c -> -c.curve().ranks())
                .thenComparing(c -> c.curve().singleGpu())
                .thenComparing(c -> c.kind() != Kind.NCCL && c.kind() != null)
                .thenComparing(Candidate::hostStaged)
                .thenComparing(c -> !c.dtype().equalsIgnoreCase(dtype.resultName()))
                .thenComparing(c -> -c.curve().points().size()));
    }

    /** The communication a collective's operation is; null for one no strategy sends (all-to-all) or none. */
    private static Comm comm(BusBandwidth.Operation op) {
        if (op == null) {
            return null;
        }
        return switch (op) {
            case ALL_REDUCE -> Comm.ALL_REDUCE;
            case ALL_GATHER -> Comm.ALL_GATHER;
            case REDUCE_SCATTER -> Comm.REDUCE_SCATTER;
            case ALL_TO_ALL -> null;
        };
    }

    /** The curves of a result folder or an imported file. */
    public static Source of(ResultData data) {
        Map<Series, List<Measurement>> series = new LinkedHashMap<>();
        for (Measurement m : data.measurements()) {
            Measurement.Key k = m.key();
            if (!k.biggerIsBetter()) {
                continue;
            }
            boolean collective = (k.is(Kind.NCCL) || k.is(Kind.ALLREDUCE_RING))
                    && k.lane() == Lane.BUS && k.ends() instanceof Endpoints.Ranks r && r.size() > 1;
            boolean send = k.is(Kind.PEER) && k.lane() == Lane.ONE_WAY
                    && (k.route().copyPath() == CopyPath.CE_P2P_READ || k.route().copyPath() == CopyPath.CE_P2P_WRITE);
            if (collective || send) {
                series.computeIfAbsent(new Series(k.kind(), k.path(), k.ends()), s -> new ArrayList<>()).add(m);
            }
        }
        List<Candidate> out = new ArrayList<>();
        for (List<Measurement> ms : series.values()) {
            Measurement first = ms.get(0);
            Measurement.Key k = first.key();
            Map<Long, Curve.Point> bySize = new TreeMap<>();
            for (Measurement m : ms) {
                Statistics.Bandwidth b = Statistics.bandwidth(m.samples());
                if (b.median() > 0) {
                    // The interval of the median, the figure predicted from: a t-interval of the mean need
                    // not contain it (skewed batches), and an interval must contain its estimate.
                    double[] ci = b.n() >= 2 ? Statistics.medianInterval(m.samples()) : new double[] {Double.NaN, Double.NaN};
                    bySize.put(m.key().sizeBytes(), new Curve.Point(m.key().sizeBytes(), b.median(), ci[0], ci[1]));
                }
            }
            if (bySize.isEmpty()) {
                continue;
            }
            boolean single = ms.stream().anyMatch(Measurement::singleGpu);
            if (k.is(Kind.PEER)) {
                String pair = first.pairLabel();
                out.add(new Candidate(Comm.SEND, new Curve("one-way copy " + k.path() + " " + pair
                        + (single ? " (" + Measurement.SINGLE_GPU + ")" : ""), 2, single,
                        new ArrayList<>(bySize.values())), Kind.PEER, "", null, false));
                continue;
            }
            Comm op = comm(k.route().operation());
            if (op == null) {
                continue;
            }
            int ranks = ((Endpoints.Ranks) k.ends()).size();
            String who = k.is(Kind.NCCL) ? "NCCL " + k.path() : "p2pbench " + k.path().replace("ALL_REDUCE", "all-reduce");
            out.add(new Candidate(op, new Curve(who + " on " + k.pair() + ", bus bandwidth"
                    + (single ? " (" + Measurement.SINGLE_GPU + ")" : ""), ranks, single,
                    new ArrayList<>(bySize.values())), k.is(Kind.NCCL) ? Kind.NCCL : Kind.ALLREDUCE_RING, k.route().dtype(), null,
                    k.route().hostStaged()));
        }
        String origin = data.isRun() ? "measured here: " + data.origin() + ", " + data.source()
                : "imported: " + data.origin() + ", " + data.source();
        Hardware hardware = Hardware.UNKNOWN;
        if (data.topology() != null && !data.topology().gpus().isEmpty()) {
            long memory = data.topology().gpus().stream().mapToLong(g -> g.memoryBytes()).min().orElseThrow();
            hardware = new Hardware(memory, "the run's topology.json", Double.NaN, "");
        }
        return new Source(data.isRun() ? data.label() : data.machine(), origin, out, hardware);
    }

    /** The public reference machines shipped with the suite, by id, in the order of the resource. */
    public static Map<String, Source> references() {
        JsonNode root;
        try (InputStream in = Source.class.getResourceAsStream(REFERENCES)) {
            if (in == null) {
                throw new IllegalStateException("resource " + REFERENCES + " is missing from the build");
            }
            root = new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Source> out = new LinkedHashMap<>();
        for (JsonNode m : root.path("machines")) {
            List<Curve.Point> points = new ArrayList<>();
            for (JsonNode p : m.path("points")) {
                points.add(new Curve.Point(p.get(0).asLong(), p.get(1).asDouble(), Double.NaN, Double.NaN));
            }
            Comm op = Comm.valueOf(m.path("operation").asText());
            int gpus = m.path("gpus").asInt();
            String name = m.path("name").asText();
            Curve curve = new Curve(m.path("tool").asText() + " on " + gpus + " GPUs", gpus, false, points);
            String reduction = m.hasNonNull("inSwitchReduction") ? m.path("inSwitchReduction").asText() : null;
            Hardware hardware = new Hardware(m.path("gpuMemoryBytes").asDouble(Double.NaN),
                    m.path("gpuMemoryFrom").asText(""), m.path("lineRateGBps").asDouble(Double.NaN),
                    m.path("lineRateFrom").asText(""));
            out.put(m.path("id").asText().toLowerCase(Locale.ROOT), new Source(name + " (" + REFERENCE_LABEL + ")",
                    REFERENCE_LABEL + ": " + m.path("interconnect").asText() + "; " + m.path("source").asText(),
                    List.of(new Candidate(op, curve, null, "", reduction, false)), hardware, true));
        }
        return out;
    }

    /** For messages: the communications this source measures directly, with how many curves each. */
    public String measuredSummary() {
        Map<Comm, Integer> n = new EnumMap<>(Comm.class);
        candidates.forEach(c -> n.merge(c.op(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        n.forEach((op, count) -> parts.add(op.label()));
        return parts.isEmpty() ? "nothing usable" : String.join(", ", parts);
    }
}
