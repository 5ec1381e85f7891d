package io.p2pbench.whatif;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model a what-if asks about: parameter count, and the shape that tensor and pipeline
 * parallelism and per-layer sharding need (layers, hidden size, tokens per step), with the gradient
 * type. Parameter counts are decimal (70B = 70 x 10^9), as model names use them.
 *
 * @param name a preset's name, or {@code custom}
 * @param params parameters
 * @param layers transformer layers (0: not given)
 * @param hidden hidden size (0: not given)
 * @param tokens tokens per training step seen by one model replica (0: not given)
 * @param dtype gradient (and parameter, activation) type
 */
public record TrainingModel(String name, long params, int layers, int hidden, long tokens, GradientType dtype) {
    private static final Pattern COUNT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMBT]?)", Pattern.CASE_INSENSITIVE);

    /** Model presets: a Llama-class shape, one sequence of 4096 tokens per step. */
    public enum Preset {
        /** 8 x 10^9 parameters, 32 layers, hidden 4096. */
        DENSE_8B(8_000_000_000L, 32, 4096),
        /** 13 x 10^9 parameters, 40 layers, hidden 5120. */
        DENSE_13B(13_000_000_000L, 40, 5120),
        /** 70 x 10^9 parameters, 80 layers, hidden 8192. */
        DENSE_70B(70_000_000_000L, 80, 8192);

        /** Tokens per step of every preset: one sequence of 4096 tokens (as the exchange benchmarks' shapes). */
        public static final long TOKENS = 4096;

        final long params;
        final int layers;
        final int hidden;

        Preset(long params, int layers, int hidden) {
            this.params = params;
            this.layers = layers;
            this.hidden = hidden;
        }

        /** The preset named {@code text} (any case); throws naming the accepted ones. */
        public static Preset parse(String text) {
            for (Preset p : values()) {
                if (p.name().equalsIgnoreCase(text == null ? "" : text.trim())) {
                    return p;
                }
            }
            throw new IllegalArgumentException("model '" + text + "' is not a preset; use DENSE_8B, DENSE_13B or "
                    + "DENSE_70B, or give --params (e.g. 70B) with --layers and --hidden");
        }

        /** The preset as a model with gradients of {@code dtype}. */
        public TrainingModel model(GradientType dtype) {
            return new TrainingModel(name(), params, layers, hidden, TOKENS, dtype);
        }
    }

    /** Checks the numbers: everything given must be positive. */
    public TrainingModel {
        if (params <= 0) {
            throw new IllegalArgumentException("--params " + params + " must be a positive parameter count, e.g. 70B");
        }
        if (layers < 0 || hidden < 0 || tokens < 0) {
            throw new IllegalArgumentException("layers, hidden size and tokens must be positive");
        }
    }

    /**
     * Parses a parameter count: {@code 70B}, {@code 6.7B}, {@code 350M}, {@code 1.2T} or a plain
     * number (decimal multiples). Throws naming the value and the accepted forms.
     */
    public static long parseParams(String text) {
        Matcher m = COUNT.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("--params '" + text + "' is not a parameter count; use e.g. 70B, 6.7B, "
                    + "350M or 1.2T (decimal multiples)");
        }
        double scale = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "B" -> 1e9;
            case "T" -> 1e12;
            default -> 1;
        };
        double v = Double.parseDouble(m.group(1)) * scale;
        if (!(v >= 1) || v > 1e15) {
            throw new IllegalArgumentException("--params '" + text + "' must be from 1 to 10^15 parameters");
        }
        return Math.round(v);
    }

    /** Bytes of all gradients (and of all parameters in the same type). */
    public long gradientBytes() {
        return params * dtype.bytes();
    }

    /** Bytes of one [tokens x hidden] activation of one layer, for the whole step. */
    public long activationBytes() {
        return tokens * hidden * dtype.bytes();
    }

    /** As people read it: {@code DENSE_70B (70 x 10^9 parameters, FP16)}. */
    public String describe() {
        String count = params % 1_000_000_000L == 0 ? params / 1_000_000_000L + "B"
                : String.format(Locale.ROOT, "%.3gB", params / 1e9);
        return name + " (" + count + " parameters, " + dtype + (layers > 0 ? ", " + layers + " layers" : "")
                + (hidden > 0 ? ", hidden " + hidden : "") + (tokens > 0 ? ", " + tokens + " tokens per step" : "") + ")";
    }
}
