package io.p2pbench.report.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.results.BatchSamples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A collective bandwidth entry with a samples file is read per batch: algbw from lane 0, busbw from lane 1. */
class CollectiveSamplesTest {
    private static final String ID = "ring-bw-FLOAT32-P2P-g0.1.2.3.4.5.6.7-4KiB";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path tmp;

    private Path withSamples(List<BatchSamples.Batch> batches) throws Exception {
        return withSamples(batches, "run");
    }

    private Path withSamples(List<BatchSamples.Batch> batches, String name) throws Exception {
        Path dir = Fixtures.copy(Fixtures.X8, tmp.resolve(name));
        Files.createDirectories(dir.resolve("samples"));
        MAPPER.writeValue(dir.resolve("samples").resolve(ID + ".json").toFile(),
                new BatchSamples(ID, List.of("algbw", "busbw"), 4096, 8, batches, 32768));
        Path manifest = dir.resolve("manifest.json");
        ObjectNode m = (ObjectNode) MAPPER.readTree(manifest.toFile());
        boolean found = false;
        for (JsonNode e : m.path("entries")) {
            if (e.path("combination").path("id").asText().equals(ID)) {
                ((ObjectNode) e).put("samplesFile", "samples/" + ID + ".json");
                found = true;
            }
        }
        assertTrue(found, "fixture has no entry " + ID);
        MAPPER.writeValue(manifest.toFile(), m);
        return dir;
    }

    private static Measurement find(ResultData d, String direction) {
        return d.measurements().stream().filter(m -> m.id().equals(ID) && m.key().direction().equals(direction))
                .findFirst().orElseThrow();
    }

    @Test
    void algbwAndBusbwComeFromTheirLanesPerBatch() throws Exception {
        ResultData before = ResultReader.read(Fixtures.X8);
        assertTrue(find(before, "bus").samplesFrom().startsWith("JMH busGBps"), find(before, "bus").samplesFrom());

        ResultData d = ResultReader.read(withSamples(List.of(new BatchSamples.Batch(true, List.of(0.10, 0.175)),
                new BatchSamples.Batch(true, List.of(0.12, 0.21)), new BatchSamples.Batch(true, List.of(0.11, 0.1925)))));
        Measurement alg = find(d, "alg");
        Measurement bus = find(d, "bus");
        assertArrayEquals(new double[] {0.10, 0.12, 0.11}, alg.samples(), 0);
        assertArrayEquals(new double[] {0.175, 0.21, 0.1925}, bus.samples(), 0);
        assertEquals("per-batch samples", bus.samplesFrom());
    }

    /**
     * Builds before 2026-12-06 13:10Z enqueued the one-GPU ring all-reduce ungated (too long to hold), so the device
     * waited for the host and the figure was its enqueue rate: such a row is host-paced, the gated ones not.
     */
    @Test
    void aCollectiveWithAnUngatedBatchIsHostPaced() throws Exception {
        ResultData gated = ResultReader.read(withSamples(List.of(new BatchSamples.Batch(true, List.of(0.10, 0.175)),
                new BatchSamples.Batch(true, List.of(0.12, 0.21)))));
        assertTrue(!find(gated, "bus").hostPaced() && !find(gated, "alg").hostPaced());
        ResultData ungated = ResultReader.read(withSamples(List.of(new BatchSamples.Batch(true, List.of(0.10, 0.175)),
                new BatchSamples.Batch(false, List.of(0.12, 0.21))), "ungated"));
        assertTrue(find(ungated, "bus").hostPaced() && find(ungated, "alg").hostPaced());
        // The label stays as it was: committed results keep the figures' digest (CommittedResultsTest).
        assertEquals("per-batch samples", find(ungated, "bus").samplesFrom());
        assertTrue(ResultReader.read(Fixtures.X8).measurements().stream().noneMatch(Measurement::hostPaced),
                "no samples file, nothing known to be ungated");
    }

    @Test
    void aSamplesFileWithOneLanePerBatchIsRefusedWithItsName() throws Exception {
        Path dir = withSamples(List.of(new BatchSamples.Batch(true, List.of(0.10))));
        BadInputException e = assertThrows(BadInputException.class, () -> ResultReader.read(dir));
        assertTrue(e.getMessage().contains("does not hold 2-lane batches for " + ID), e.getMessage());
    }
}
