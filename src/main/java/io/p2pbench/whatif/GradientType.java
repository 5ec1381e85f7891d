package io.p2pbench.whatif;

import java.util.Locale;

/** Element type of gradients (and, as assumed here, of the parameters ZeRO gathers and of activations). */
public enum GradientType {
    /** IEEE half precision, 2 bytes. */
    FP16(2, "FLOAT16"),
    /** bfloat16, 2 bytes. */
    BF16(2, "BFLOAT16"),
    /** single precision, 4 bytes. */
    FP32(4, "FLOAT32");

    private final int bytes;
    private final String resultName;

    GradientType(int bytes, String resultName) {
        this.bytes = bytes;
        this.resultName = resultName;
    }

    /** Bytes per element. */
    public int bytes() {
        return bytes;
    }

    /** The data type as p2pbench results and nccl-tests imports spell it ({@code FLOAT16}, ...). */
    public String resultName() {
        return resultName;
    }

    /** Parses {@code FP16}, {@code BF16} or {@code FP32} (any case); throws naming the accepted values. */
    public static GradientType parse(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        return switch (t) {
            case "FP16", "FLOAT16", "HALF" -> FP16;
            case "BF16", "BFLOAT16" -> BF16;
            case "FP32", "FLOAT32", "FLOAT" -> FP32;
            default -> throw new IllegalArgumentException("gradient dtype '" + text + "' is not one of FP16, BF16, FP32");
        };
    }
}
