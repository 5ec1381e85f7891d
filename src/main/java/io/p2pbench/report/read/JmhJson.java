package io.p2pbench.report.read;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2pbench.files.FileProblem;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the parts of JMH 1.37's JSON the report needs: secondary metrics (one value per measurement
 * iteration in {@code rawData}) and SampleTime histograms ({@code primaryMetric.rawDataHistogram},
 * {@code [fork][iteration][[value, count], ...]}), converted to microseconds. JMH writes NaN as the
 * string {@code "NaN"}; such values are skipped.
 */
public final class JmhJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final JsonNode result;

    private JmhJson(Path file, JsonNode result) {
        this.file = file;
        this.result = result;
    }

    /** Reads the first (for p2pbench: the only) result object of a JMH JSON file. */
    public static JmhJson read(Path file) throws BadInputException {
        JsonNode root = parse(file, "JMH JSON");
        if (!root.isArray() || root.isEmpty() || !root.get(0).has("primaryMetric")) {
            throw new BadInputException(file + " is not JMH JSON (expected an array of results with primaryMetric)");
        }
        return new JmhJson(file, root.get(0));
    }

    /**
     * Parses a JSON file (gzipped when its name ends in {@code .gz}); a one-line message names the file
     * when it is missing or truncated.
     */
    public static JsonNode parse(Path file, String what) throws BadInputException {
        String cannot = FileProblem.unreachable(file);
        if (cannot != null) {
            throw new BadInputException(file + " cannot be read: " + cannot);
        }
        if (!Files.exists(file)) {
            throw new BadInputException(file + " is missing (" + what + ")");
        }
        if (!Files.isRegularFile(file)) {
            throw new BadInputException(file + " is not a regular file (" + what + " expected)");
        }
        try {
            return MAPPER.readTree(AtomicFiles.read(file));
        } catch (JacksonException e) {
            throw new BadInputException(file + " is not readable " + what + ": " + FileProblem.of(e));
        } catch (AtomicFiles.Refused e) {
            throw new BadInputException(e.getMessage());
        } catch (AtomicFiles.BadGzip e) {
            throw new BadInputException(file + " is not readable " + what + ": it " + e.reason());
        } catch (IOException e) {
            throw new BadInputException(file + " cannot be read: " + FileProblem.why(e));
        }
    }

    /** Whether a secondary metric of this name exists. */
    boolean hasSecondary(String name) {
        return result.path("secondaryMetrics").has(name);
    }

    /** The per-iteration values of a secondary metric (every fork), in its own unit. */
    public double[] secondary(String name) throws BadInputException {
        JsonNode m = result.path("secondaryMetrics").path(name);
        if (m.isMissingNode()) {
            throw new BadInputException(file + " has no secondary metric '" + name + "'");
        }
        List<Double> values = new ArrayList<>();
        for (JsonNode fork : m.path("rawData")) {
            for (JsonNode v : fork) {
                addNumber(values, v);
            }
        }
        if (values.isEmpty()) {
            addNumber(values, m.path("score"));
        }
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Every sample of the SampleTime histogram, expanded and converted to microseconds. */
    public double[] histogramMicros() throws BadInputException {
        JsonNode primary = result.path("primaryMetric");
        JsonNode histogram = primary.path("rawDataHistogram");
        if (!histogram.isArray()) {
            throw new BadInputException(file + " has no SampleTime histogram (primaryMetric.rawDataHistogram)");
        }
        double scale = microsPer(primary.path("scoreUnit").asText());
        long total = 0;
        for (JsonNode fork : histogram) {
            for (JsonNode iteration : fork) {
                for (JsonNode bin : iteration) {
                    requireBin(bin, scale);
                    total += Math.min(bin.get(1).asLong(), Integer.MAX_VALUE);
                }
            }
        }
        if (total <= 0 || total > Integer.MAX_VALUE - 8) {
            throw new BadInputException(file + " has a SampleTime histogram with " + total + " samples");
        }
        double[] out = new double[(int) total];
        int i = 0;
        for (JsonNode fork : histogram) {
            for (JsonNode iteration : fork) {
                for (JsonNode bin : iteration) {
                    double v = bin.path(0).asDouble() * scale;
                    for (long k = bin.path(1).asLong(); k > 0; k--) {
                        out[i++] = v;
                    }
                }
            }
        }
        return out;
    }

    /**
     * The longest time a transfer's sample may claim, in microseconds: an hour. Above it a bin is a corrupt or forged
     * file's; read as one it printed 309-digit latencies and "Infinity" in the report's files.
     */
    static final double MAX_SAMPLE_MICROS = 3.6e9;

    /**
     * A negative count would expand to more samples than counted, a time that is no number to 0 us, one of
     * more than an hour ({@link #MAX_SAMPLE_MICROS}; {@code scale} µs per unit of the file) to "Infinity".
     */
    private void requireBin(JsonNode bin, double scale) throws BadInputException {
        double time = bin.path(0).isNumber() ? bin.path(0).asDouble() : -1;
        if (bin.size() != 2 || !(time >= 0) || !(time * scale <= MAX_SAMPLE_MICROS) || !bin.path(1).canConvertToLong()
                || !bin.path(1).isIntegralNumber() || bin.path(1).asLong() < 0) {
            throw new BadInputException(file + " has a SampleTime histogram bin " + bin + "; expected [time, count], "
                    + "a time of 0 to " + (long) (MAX_SAMPLE_MICROS / scale) + " (an hour) and a whole count of 0 or "
                    + "more");
        }
    }

    private double microsPer(String unit) throws BadInputException {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "ns/op" -> 1e-3;
            case "us/op" -> 1.0;
            case "ms/op" -> 1e3;
            case "s/op" -> 1e6;
            default -> throw new BadInputException(file + " has latency in '" + unit
                    + "'; expected a time per operation (ns/op, us/op, ms/op or s/op)");
        };
    }

    private static void addNumber(List<Double> values, JsonNode v) {
        if (v.isNumber() && Double.isFinite(v.asDouble())) {
            values.add(v.asDouble());
        }
    }
}
