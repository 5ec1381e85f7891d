package io.p2pbench.collective;

import java.util.Locale;

/**
 * The model presets of the activation exchanges, as a type: the {@code model} parameter of the
 * exchange benchmark and of {@code run --model}. Each names a {@link ModelShape}.
 */
public enum ModelPreset {
    /** {@link ModelShape#DENSE_8B}. */
    DENSE_8B,
    /** {@link ModelShape#DENSE_70B}. */
    DENSE_70B,
    /** {@link ModelShape#MOE_8X_TOP2}. */
    MOE_8X_TOP2;

    /** The shape this preset names. */
    public ModelShape shape() {
        return ModelShape.named(name());
    }

    /** The preset named {@code name}, any case; throws naming the accepted ones. */
    public static ModelPreset named(String name) {
        String upper = name == null ? "" : name.toUpperCase(Locale.ROOT);
        for (ModelPreset m : values()) {
            if (m.name().equals(upper)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown model preset '" + name + "'; use DENSE_8B, DENSE_70B or MOE_8X_TOP2");
    }
}
