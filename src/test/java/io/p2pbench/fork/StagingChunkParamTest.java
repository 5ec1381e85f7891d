package io.p2pbench.fork;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.p2pbench.transfer.TransferFixture;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * The staging chunk is a JMH {@code @Param} of exactly the benchmarks with host-staged paths, with the suite's default,
 * so JMH's JSON records the chunk a figure was measured with (checked against the generated BenchmarkList).
 */
class StagingChunkParamTest {
    private static final Set<String> STAGED = Set.of("PeerCopyBenchmark", "PeerCopyBidirectionalBenchmark",
            "AllReduceBenchmark", "ActivationExchangeBenchmark", "PartitionBenchmark", "ServingBenchmark");

    @Test
    void everyBenchmarkWithHostStagedPathsDeclaresTheChunkWithTheDefault() throws IOException {
        Set<String> declaring = new TreeSet<>();
        try (InputStream in = getClass().getResourceAsStream(BenchmarkList.BENCHMARK_LIST)) {
            assertNotNull(in, BenchmarkList.BENCHMARK_LIST + " is not on the test class path; was src/jmh compiled?");
            for (BenchmarkListEntry e : BenchmarkList.readBenchmarkList(in)) {
                Map<String, String[]> params = e.getParams().orElse(Map.of());
                String[] values = params.get(ForkChannel.STAGING_CHUNK_PARAM);
                if (values != null) {
                    assertArrayEquals(new String[] {Long.toString(TransferFixture.DEFAULT_STAGING_CHUNK)}, values,
                            e.getUsername());
                    String name = e.getUsername();
                    String cls = name.substring(0, name.lastIndexOf('.'));
                    declaring.add(cls.substring(cls.lastIndexOf('.') + 1));
                }
            }
        }
        assertEquals(new TreeSet<>(STAGED), declaring);
    }
}
