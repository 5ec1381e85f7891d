package io.p2pbench.collective;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.Nccl.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The CPU reference check's arithmetic, no GPU needed: the parallel blocks compute exactly what a
 * one-core loop computes, a right result passes, and any wrong element (in any block, also the last
 * partial one) fails naming the lowest wrong element.
 */
class ResultCheckTest {
    private static final int N = 3 * ResultCheck.BLOCK + 1234;

    private static ByteBuffer sums(DataType type, int ranks, long offset, int n) {
        ByteBuffer b = ByteBuffer.allocate(n * type.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < n; k++) {
            double s = 0;
            for (int r = 0; r < ranks; r++) {
                s += Reference.value(type, r, offset + k);
            }
            if (type == DataType.FLOAT32) {
                b.putFloat(k * 4, (float) s);
            } else {
                b.putShort(k * 2, (short) (Float.floatToIntBits((float) s) >>> 16)); // truncation: within the bound
            }
        }
        return b;
    }

    @Test
    void parallelBlocksComputeWhatOneLoopComputes() {
        for (DataType type : DataType.values()) {
            double[] want = new double[N];
            double[] tol = new double[N];
            ResultCheck.computeAll(ResultCheck.sum(type, 5, 77), 1000, want, tol, N);
            for (int k = 0; k < N; k += 997) {
                double s = 0;
                double abs = 0;
                for (int r = 0; r < 5; r++) {
                    s += Reference.value(type, r, 77 + 1000 + k);
                    abs += Math.abs(Reference.value(type, r, 77 + 1000 + k));
                }
                assertEquals(s, want[k], 0.0, "element " + k);
                assertEquals(Reference.bound(type, 5, abs), tol[k], 0.0);
            }
            double[] gw = new double[N];
            ResultCheck.computeAll(ResultCheck.gathered(type, 1000, 3), 0, gw, tol, N);
            assertEquals(Reference.value(type, 2, 3 + 500), gw[2500], 0.0);
            assertEquals(Reference.value(type, 0, 3), gw[0], 0.0);
            assertEquals(0.0, tol[N - 1], 0.0);
        }
    }

    @Test
    void aRightResultPassesAndEveryWrongElementFailsNamingTheLowest() {
        for (DataType type : DataType.values()) {
            int ranks = 4;
            double[] want = new double[N];
            double[] tol = new double[N];
            ResultCheck.computeAll(ResultCheck.sum(type, ranks, 0), 0, want, tol, N);
            ByteBuffer right = sums(type, ranks, 0, N);
            assertDoesNotThrow(() -> ResultCheck.requireMatch("t", right, type, 0, want, tol, N));
            for (int bad : new int[] {0, ResultCheck.BLOCK - 1, 2 * ResultCheck.BLOCK + 5, N - 1}) {
                ByteBuffer wrong = sums(type, ranks, 0, N);
                int later = Math.min(N - 1, bad + ResultCheck.BLOCK); // a second wrong element in a later block
                for (int k : new int[] {later, bad}) {
                    if (type == DataType.FLOAT32) {
                        wrong.putFloat(k * 4, wrong.getFloat(k * 4) + 1.0f);
                    } else {
                        wrong.putShort(k * 2, (short) (Float.floatToIntBits(
                                Reference.bf16ToFloat(wrong.getShort(k * 2)) + 1.0f) >>> 16));
                    }
                }
                CollectiveMismatchException e = assertThrows(CollectiveMismatchException.class,
                        () -> ResultCheck.requireMatch("ring all-reduce, output 2", wrong, type, 1 << 20, want, tol, N));
                assertTrue(e.getMessage().startsWith("ring all-reduce, output 2: element " + ((1 << 20) + bad) + " is "),
                        e.getMessage());
            }
        }
    }

    @Test
    void poisonFailsTheCheck() {
        double[] want = new double[N];
        double[] tol = new double[N];
        ResultCheck.computeAll(ResultCheck.gathered(DataType.FLOAT32, 4096, 0), 0, want, tol, N);
        ByteBuffer poison = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < N * 4; k++) {
            poison.put(k, (byte) 0xFF); // NaN: never within any tolerance
        }
        assertThrows(CollectiveMismatchException.class,
                () -> ResultCheck.requireMatch("x", poison, DataType.FLOAT32, 0, want, tol, N));
    }

    @Test
    void outputsUpTo8MiBAreCrossCheckedWholeLargerOnesOnFourPiecesIncludingFirstAndLast() {
        int perPiece = (int) (ResultCheck.PIECE / 4);
        long small = ResultCheck.FULL_CHECK_BYTES / 4; // float32 elements in 8 MiB
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {0, perPiece, 2L * perPiece, 3L * perPiece},
                ResultCheck.pieceStarts(small, perPiece, 4));
        assertEquals(small, ResultCheck.checkedElements(small, 4));
        long big = (4L << 30) / 4 + 5; // 4 GiB and a ragged last piece
        long[] starts = ResultCheck.pieceStarts(big, perPiece, 4);
        assertEquals(ResultCheck.SAMPLED_PIECES, starts.length);
        assertEquals(0, starts[0]);
        long lastPiece = (big + perPiece - 1) / perPiece - 1;
        assertEquals(lastPiece * perPiece, starts[starts.length - 1], "the last (ragged) piece is checked");
        for (int k = 1; k < starts.length; k++) {
            assertTrue(starts[k] > starts[k - 1] && starts[k] % perPiece == 0);
        }
        assertEquals(3L * perPiece + 5, ResultCheck.checkedElements(big, 4));
    }
}
