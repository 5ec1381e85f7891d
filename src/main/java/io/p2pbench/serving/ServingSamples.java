package io.p2pbench.serving;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.p2pbench.files.FileProblem;
import io.p2pbench.partition.StepBreakdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;

/**
 * What a serving benchmark records beside JMH's output ({@code samples/ID.json.gz} of its result
 * folder): the sweep, the capacity it served with, and per point its measured requests one by one
 * (arrival, prompt and output tokens, first and last token times; {@link #REQUEST_COLUMNS}), so the
 * report computes every figure from the requests themselves. Warm-up and cool-down requests are
 * counted, not listed. Written by {@link #json()}, read by {@link #read(byte[])}, which checks every
 * value (a result folder is untrusted input).
 *
 * @param format {@link #FORMAT}
 * @param sweep the sweep ({@link ServingSweep#encode()})
 * @param executor what ran the steps ({@link VerifiedStepExecutor#description()})
 * @param maxSequences sequences per step the scheduler allowed (the sweep's within the executor's limits)
 * @param stepTokens tokens per step it allowed
 * @param kvTokens the plan's KV capacity from the GPUs' free memory ({@link KvCapacity})
 * @param kvBytesPerToken KV bytes of one token on the rank that needs the most per token
 * @param freeBytes the least free memory of the plan's GPUs before the model was loaded
 * @param points in the order run
 * @param kneePerSecond the search's knee (NaN: none)
 * @param breakPerSecond the lowest rate above the knee that broke the target (NaN: none)
 * @param stop why the search stopped
 * @param breakdown one instrumented step of the knee point's mean shape, or null
 * @param bytesVerified bytes the executor checked and found right
 */
public record ServingSamples(String format, String sweep, String executor, int maxSequences, int stepTokens,
                             long kvTokens, long kvBytesPerToken, long freeBytes, List<Point> points, double kneePerSecond,
                             double breakPerSecond, String stop, Breakdown breakdown, long bytesVerified) {
    /** The format this suite writes and reads. */
    public static final String FORMAT = "p2pbench-serving/1";
    /** The columns of a point's {@code requests} rows. */
    public static final List<String> REQUEST_COLUMNS = List.of("index", "arrivalNanos", "promptTokens", "outputTokens",
            "firstTokenNanos", "lastTokenNanos");
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    /** The largest time (ns, about 11.6 days) or token count a file may hold: beyond it a sum or product overflows. */
    static final long MAX_COUNT = 1_000_000_000_000_000L;
    /** The highest request rate a file may hold, per second. */
    static final double MAX_RATE = 1e6;

    static {
        MAPPER.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    }

    /**
     * One point. Times are nanoseconds from its start.
     *
     * @param ratePerSecond the rate the generator offered
     * @param step how the search chose it ({@link CapacitySearch.Step})
     * @param met whether it met the target when it ran
     * @param warmup warm-up requests (the first ones), excluded
     * @param requests the measured requests, {@link #REQUEST_COLUMNS} each; -1: no such token by the cap
     */
    public record Point(double ratePerSecond, String step, boolean met, int warmup, int warmupFinished,
                        int cooldownFinished, boolean capped, long elapsedNanos, int steps, long deviceNanos,
                        long windowStartNanos, long windowEndNanos, long windowTokens, int windowSteps,
                        StepShape meanShape, List<long[]> requests) {
        /** The requests as records (checked). */
        public List<RequestRecord> records() {
            List<RequestRecord> out = new ArrayList<>();
            for (long[] r : requests) {
                if (r == null || r.length != REQUEST_COLUMNS.size()) {
                    throw new IllegalArgumentException("a request row is not " + REQUEST_COLUMNS);
                }
                out.add(new RequestRecord(Math.toIntExact(r[0]), r[1], Math.toIntExact(r[2]), Math.toIntExact(r[3]), r[4],
                        r[5]));
            }
            return out;
        }

        /** The point's figures from its requests. */
        public PointStats stats() {
            return PointStats.of(records(), windowStartNanos, windowEndNanos, windowTokens);
        }

        /** Mean device time of a step, microseconds. */
        public double meanStepUs() {
            return steps == 0 ? Double.NaN : deviceNanos / 1e3 / steps;
        }
    }

    /**
     * One instrumented step, microseconds on its critical rank ({@link StepBreakdown}).
     *
     * @param shape the step (the knee point's mean step)
     */
    public record Breakdown(StepShape shape, double stepUs, double computeUs, double commUs, double waitUs) {
        /** Exposed communication over compute + communication + wait. */
        public double commShare() {
            double all = computeUs + commUs + waitUs;
            return all > 0 ? commUs / all : 0;
        }

        /** From an instrumented step. */
        public static Breakdown of(StepShape shape, StepBreakdown b) {
            return new Breakdown(shape, b.stepUs(), b.computeUs(), b.commUs(), b.waitUs());
        }
    }

    /** A point of a finished search. */
    public static Point point(CapacitySearch.Point p, int warmup) {
        ContinuousBatcher.Served s = p.served();
        List<long[]> rows = new ArrayList<>();
        for (RequestRecord r : s.measured()) {
            rows.add(new long[] {r.index(), r.arrivalNanos(), r.promptTokens(), r.outputTokens(), r.firstTokenNanos(),
                r.lastTokenNanos()});
        }
        return new Point(p.ratePerSecond(), p.step().name(), p.met(), warmup, s.warmupFinished(), s.cooldownFinished(),
                s.capped(), s.elapsedNanos(), s.steps(), s.deviceNanos(), s.windowStartNanos(), s.windowEndNanos(),
                s.windowTokens(), s.windowSteps(), s.meanShape(), rows);
    }

    /**
     * The record of a finished search.
     *
     * @param policy the batch policy the scheduler applied
     * @param breakdown one instrumented step, or null
     */
    public static ServingSamples of(ServingSweep sweep, String executor, BatchPolicy policy, KvCapacity kv,
                                    long freeBytes, CapacitySearch.Outcome outcome, Breakdown breakdown,
                                    long bytesVerified) {
        List<Point> points = new ArrayList<>();
        for (CapacitySearch.Point p : outcome.points()) {
            points.add(point(p, sweep.workload().warmup(p.ratePerSecond())));
        }
        return new ServingSamples(FORMAT, sweep.encode(), executor, policy.maxSequences(), policy.stepTokens(),
                kv.tokens(), kv.kvBytesPerToken(), freeBytes, points, outcome.kneePerSecond(), outcome.breakPerSecond(),
                outcome.stop(), breakdown, bytesVerified);
    }

    /** The mean step of the knee point (else of the first point) of {@code outcome}, or null without steps. */
    public static StepShape representativeStep(CapacitySearch.Outcome outcome) {
        StepShape shape = null;
        for (CapacitySearch.Point p : outcome.points()) {
            if (shape == null || p.ratePerSecond() == outcome.kneePerSecond()) {
                shape = p.served().meanShape() != null ? p.served().meanShape() : shape;
            }
        }
        return shape;
    }

    /** Compact JSON and a newline. */
    public byte[] json() throws IOException {
        return (MAPPER.writeValueAsString(this) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads {@link #json()}'s bytes and checks them: the format, finite positive rates, counts that are
     * not negative, request rows whose times are in order.
     *
     * @throws IOException one line saying what is wrong
     */
    public static ServingSamples read(byte[] json) throws IOException {
        ServingSamples s;
        try {
            s = MAPPER.readValue(json, ServingSamples.class);
        } catch (MismatchedInputException e) {
            String at = FileProblem.jsonPath(e.getPath());
            Class<?> type = e.getTargetType();
            throw new IOException("serving samples with a bad value at " + at + ": expected " + (type == long.class
                    || type == int.class ? "a whole number" : type == null ? "other JSON" : "a " + type.getSimpleName()));
        } catch (JacksonException e) {
            throw new IOException("not readable serving samples: " + FileProblem.of(e));
        }
        if (s == null || !FORMAT.equals(s.format())) {
            throw new IOException("not serving samples of format " + FORMAT + (s == null ? "" : " (format '" + s.format()
                    + "')"));
        }
        try {
            ServingSweep.parse(s.sweep());
            if (s.points() == null || s.points().isEmpty() || s.maxSequences() < 1 || s.stepTokens() < 1
                    || s.kvTokens() < 1 || s.kvTokens() > MAX_COUNT || s.bytesVerified() <= 0) {
                throw new IllegalArgumentException("missing points, or a count below 1 (sequences " + s.maxSequences()
                        + ", step tokens " + s.stepTokens() + ", KV tokens " + s.kvTokens() + ", bytes verified "
                        + s.bytesVerified() + ")");
            }
            Breakdown b = s.breakdown();
            if (b != null && (b.shape() == null || DoubleStream.of(b.stepUs(), b.computeUs(),
                    b.commUs(), b.waitUs()).anyMatch(t -> !(t >= 0 && t < 1e12)))) {
                throw new IllegalArgumentException(b + ": expected a shape, times 0 to 1e12 us");
            }
            var rates = new HashSet<Double>();
            for (Point p : s.points()) {
                if (p == null || !(p.ratePerSecond() > 0 && p.ratePerSecond() <= MAX_RATE) || p.requests() == null
                        || !rates.add(p.ratePerSecond()) || p.requests().isEmpty() || p.warmup() < 0 || p.steps() < 0
                        || p.windowEndNanos() < p.windowStartNanos() || LongStream.of(p.deviceNanos(), p.elapsedNanos(),
                        p.windowStartNanos(), p.windowEndNanos(), p.windowTokens()).anyMatch(v -> v < 0 || v > MAX_COUNT)
                        || p.requests().stream().anyMatch(r -> r != null && LongStream.of(r).anyMatch(v -> v > MAX_COUNT))) {
                    throw new IllegalArgumentException("a point has a rate not above 0 and at most " + (long) MAX_RATE + " req/s, or "
                            + "a repeat, no requests, a count or time below 0 or above " + MAX_COUNT + ", or a window that "
                            + "ends before it starts");
                }
                CapacitySearch.Step.valueOf(String.valueOf(p.step()));
                p.stats();
            }
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IOException("serving samples with a bad value: " + e.getMessage());
        }
        return s;
    }

    /** The progress line: the knee, the points and the capacity. */
    public String headline() {
        String knee = Double.isNaN(kneePerSecond) ? "no rate met the target"
                : String.format(Locale.ROOT, "knee %.3g req/s%s", kneePerSecond,
                Double.isNaN(breakPerSecond) ? " (never broke)" : String.format(Locale.ROOT, " (broke at %.3g)",
                        breakPerSecond));
        return String.format(Locale.ROOT, "%s; %d points; KV cache %,d tokens; %s", knee, points.size(), kvTokens, stop);
    }
}
