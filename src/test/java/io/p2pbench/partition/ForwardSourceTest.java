package io.p2pbench.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.SuiteKernels;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The forward-pass program the GPU compiles: every kernel the step launches is in it, once. */
class ForwardSourceTest {
    @Test
    void everyKernelTheStepLaunchesIsDefinedOnce() {
        String source = SuiteKernels.forwardSource();
        for (String name : List.of("fillScaledBf16", "embedRows", "addRmsNorm", "siluMul", "rotaryCache", "decodeCombine",
                "prefillAttention", "gatherRows", "routerGates", "expertCombine")) {
            Matcher m = Pattern.compile("extern \"C\" __global__ void (__launch_bounds__\\([^)]*\\) )?" + name + "\\(")
                    .matcher(source);
            int found = 0;
            while (m.find()) {
                found++;
            }
            assertEquals(1, found, name);
        }
        // the decode kernel is instantiated per query heads per KV head
        for (int g : new int[] {1, 2, 4, 8}) {
            assertTrue(source.contains("DECODE_ATTENTION(" + g + ", "), "decodeAttentionG" + g);
        }
        assertTrue(source.indexOf("__device__ __forceinline__ float bf(") < source.indexOf("decodeAttentionBody"),
                "attention.cu follows forward.cu, whose helpers it uses");
    }
}
