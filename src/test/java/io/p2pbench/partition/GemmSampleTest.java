package io.p2pbench.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The sampled GEMM reference: a right product passes, wrong ones (an element, a transposed operand) fail. */
class GemmSampleTest {
    private static final GemmShape SHAPE = new GemmShape("qkv", 8, 4096, 96, 1);

    /** bf16 values uniform in [-0.5, 0.5) on a 2^-8 grid, as the fill kernel writes them. */
    private static short[] random(Random rnd, int n) {
        short[] v = new short[n];
        for (int i = 0; i < n; i++) {
            v[i] = GemmSample.floatToBf16((rnd.nextInt(256) - 128) / 256f);
        }
        return v;
    }

    private static ByteBuffer bytes(short[] v, int from, int count) {
        ByteBuffer b = ByteBuffer.allocate(2 * count).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            b.putShort(2 * i, v[from + i]);
        }
        return b;
    }

    /** Y = X W with float32 accumulation and bf16 output, as cuBLAS computes it. */
    private static short[] product(short[] x, short[] w, GemmShape s) {
        short[] y = new short[s.rows() * s.cols()];
        for (int i = 0; i < s.rows(); i++) {
            for (int j = 0; j < s.cols(); j++) {
                float acc = 0;
                for (int k = 0; k < s.inner(); k++) {
                    acc += GemmSample.bf16ToFloat(x[i * s.inner() + k]) * GemmSample.bf16ToFloat(w[k * s.cols() + j]);
                }
                y[i * s.cols() + j] = GemmSample.floatToBf16(acc);
            }
        }
        return y;
    }

    private static GemmSample fed(short[] x, short[] w, int samples, int piece) {
        GemmSample g = new GemmSample("test", SHAPE, samples);
        for (int s = 0; s < g.samples(); s++) {
            g.setRow(s, bytes(x, g.row(s) * SHAPE.inner(), SHAPE.inner()));
        }
        for (int k = 0; k < SHAPE.inner(); k += piece) {
            int n = Math.min(piece, SHAPE.inner() - k);
            g.addWeightRows(k, bytes(w, k * SHAPE.cols(), n * SHAPE.cols()), n);
        }
        return g;
    }

    @Test
    void theRightProductPassesEverySample() {
        Random rnd = new Random(1);
        short[] x = random(rnd, SHAPE.rows() * SHAPE.inner());
        short[] w = random(rnd, SHAPE.inner() * SHAPE.cols());
        short[] y = product(x, w, SHAPE);
        GemmSample g = fed(x, w, 32, 1000);
        for (int s = 0; s < g.samples(); s++) {
            g.check(s, y[g.row(s) * SHAPE.cols() + g.col(s)]);
            assertTrue(g.tolerance(s) < 1.0, "tolerance " + g.tolerance(s));
        }
        assertEquals(0, g.row(0));
        assertEquals(SHAPE.cols() - 1, g.col(1));
    }

    @Test
    void aWrongElementFailsNamingIt() {
        Random rnd = new Random(2);
        short[] x = random(rnd, SHAPE.rows() * SHAPE.inner());
        short[] w = random(rnd, SHAPE.inner() * SHAPE.cols());
        short[] y = product(x, w, SHAPE);
        GemmSample g = fed(x, w, 8, SHAPE.inner());
        short right = y[g.row(0) * SHAPE.cols() + g.col(0)];
        short wrong = GemmSample.floatToBf16(GemmSample.bf16ToFloat(right) + 2.0f);
        GemmMismatchException e = assertThrows(GemmMismatchException.class, () -> g.check(0, wrong));
        assertTrue(e.getMessage().contains("output [0, 0]"), e.getMessage());
        // the poison a never-written output holds (0xA5A5) fails too
        assertThrows(GemmMismatchException.class, () -> {
            for (int s = 0; s < g.samples(); s++) {
                g.check(s, (short) 0xA5A5);
            }
        });
    }

    @Test
    void aTransposedOperandFails() {
        Random rnd = new Random(3);
        short[] x = random(rnd, SHAPE.rows() * SHAPE.inner());
        short[] w = random(rnd, SHAPE.inner() * SHAPE.cols());
        short[] y = product(x, w, SHAPE);
        // read W as if it were stored column-major: every sampled element's reference is wrong
        short[] wt = new short[w.length];
        for (int k = 0; k < SHAPE.inner(); k++) {
            for (int j = 0; j < SHAPE.cols(); j++) {
                wt[k * SHAPE.cols() + j] = w[(int) (((long) j * SHAPE.inner() + k) % w.length)];
            }
        }
        GemmSample g = fed(x, wt, 32, 512);
        int failed = 0;
        for (int s = 0; s < g.samples(); s++) {
            try {
                g.check(s, y[g.row(s) * SHAPE.cols() + g.col(s)]);
            } catch (GemmMismatchException expected) {
                failed++;
            }
        }
        assertTrue(failed >= 28, failed + " of 32 samples caught the transposed operand");
    }
}
