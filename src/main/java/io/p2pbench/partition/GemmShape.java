package io.p2pbench.partition;

/**
 * One GEMM of a layer, {@code Y[rows x cols] = X[rows x inner] W[inner x cols]} in bfloat16, run
 * {@code count} times per layer (once per local expert for mixtures of experts).
 */
public record GemmShape(String name, int rows, int inner, int cols, int count) {
    /** Floating-point operations of all {@code count} GEMMs: 2 rows inner cols each. */
    public double flops() {
        return 2.0 * rows * inner * cols * count;
    }

    /** {@code name rows x inner x cols}. */
    @Override
    public String toString() {
        return name + " " + rows + "x" + inner + "x" + cols + (count > 1 ? " (x" + count + ")" : "");
    }
}
