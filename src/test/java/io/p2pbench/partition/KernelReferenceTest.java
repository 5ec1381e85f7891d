package io.p2pbench.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The host references the forward kernels are checked against, on cases whose answer is known. */
class KernelReferenceTest {
    @Test
    void equalScoresAverageTheValuesAndOneDominantKeyPicksItsValue() {
        int keys = 3;
        float[] q = new float[128];
        float[] k = new float[keys * 128];
        float[] v = new float[keys * 128];
        for (int j = 0; j < keys; j++) {
            v[j * 128 + 5] = j + 1;
        }
        double[][] even = KernelReference.attention(q, k, v, keys);
        assertEquals(2.0, even[0][5], 1e-12);
        assertEquals(0.0, even[0][6], 1e-12);
        assertTrue(even[1][5] >= Math.scalb(2.0, -8) + Math.scalb(2.0, -7));
        q[0] = 100;
        k[2 * 128] = 1; // only key 2 scores, 100 / sqrt(128) = 8.8 above the others
        double[][] peaked = KernelReference.attention(q, k, v, keys);
        assertEquals(3.0, peaked[0][5], 3 * 2 * Math.exp(-8.8));
    }

    @Test
    void rotaryAtPositionZeroIsTheIdentityAndKeepsTheNorm() {
        float[] inv = KernelReference.inverseFrequencies();
        assertEquals(1.0f, inv[0]);
        assertEquals(1.0 / Math.pow(500000, 2.0 * 63 / 128), inv[63], 1e-12);
        double[] same = KernelReference.rotate(0.75, -0.25, 0, inv[3]);
        assertEquals(0.75, same[0], 0);
        assertEquals(-0.25, same[1], 0);
        double[] turned = KernelReference.rotate(0.75, -0.25, 1234, inv[0]);
        assertEquals(0.75 * 0.75 + 0.25 * 0.25, turned[0] * turned[0] + turned[1] * turned[1], 1e-12);
    }

    @Test
    void theResidualIsRoundedToNearestEvenAsTheGpuRoundsIt() {
        short one = KernelReference.toBf16(1.0f);
        short tiny = KernelReference.toBf16(Math.scalb(1.0f, -8)); // half an ulp of 1 in bf16: ties to even (1.0)
        assertEquals(one, KernelReference.residualSum(one, tiny));
        short three = KernelReference.toBf16(Math.scalb(3.0f, -8)); // 1.5 ulp: rounds up to 1 + 2^-6
        assertEquals(KernelReference.toBf16(1.0f + Math.scalb(1.0f, -6)), KernelReference.residualSum(one, three));
        short[] row = {one, one, one, one};
        assertEquals(1.0 / Math.sqrt(1.0 + 1e-5), KernelReference.inverseRms(row, 1e-5), 1e-15);
    }

    @Test
    void gatesAreASoftmaxOverTheChosenExperts() {
        double[] g = KernelReference.gates(new float[] {1f, 1f + (float) Math.log(3)});
        assertEquals(0.25, g[0], 1e-7);
        assertEquals(0.75, g[1], 1e-7);
        assertEquals(0.5 / (1 + Math.exp(-0.5)) * 2, KernelReference.siluMul(0.5, 2), 1e-15);
    }

    @Test
    void tokenIdsFollowTheKernelsHashAndStayInTheVocabulary() {
        // fmix32 of 0 is 0; row 0 with seed 0 looks up token 0
        assertEquals(0, KernelReference.tokenId(0, 0, 128256));
        for (int row = 0; row < 1000; row++) {
            int id = KernelReference.tokenId(row, 0x70CE, 1000);
            assertTrue(id >= 0 && id < 1000, Integer.toString(id));
        }
        // 0x85ebca6b and 0xc2b2ae35 multiply as unsigned 32-bit words, as the kernel's do
        assertEquals(0x514E28B7, KernelReference.fmix32(1));
    }
}
