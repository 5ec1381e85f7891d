package io.p2pbench.tools;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.Fixtures;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The A/A tool for compare's gate on partition and serving figures, over a committed partition run and copies of it:
 * a copy whose TP host-staged eager decode step is 23% longer (as one run of set Z's host drew it) is a false alarm
 * one way on one host, none on two hosts (staged configurations are not judged there), and none where the disturbed
 * run is given together with a rerun. No GPU.
 */
class GatedPairsTest {
    private static final Path PARTITION = Path.of("results/h200x1-single-r580/2026-12-02T18-05-20Z");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void aRunDisturbedInOneConfigurationIsAFalseAlarmOneWayAndNoneBesideARerun() throws Exception {
        Path rerun = Fixtures.copy(PARTITION, work.resolve("rerun"));
        Path disturbed = Fixtures.copy(PARTITION, work.resolve("disturbed"));
        Path jmh = disturbed.resolve("jmh/018-part-step-DENSE_8B-TP-HOST_STAGED-DECODE-eager-g0.0.json.gz");
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(jmh))) {
            root = MAPPER.readTree(in);
        }
        JsonNode step = root.get(0).get("secondaryMetrics").get("stepUs");
        ((ObjectNode) step).put("score", step.get("score").asDouble() * 1.23);
        ArrayNode raw = (ArrayNode) step.get("rawData").get(0);
        raw.set(0, raw.get(0).asDouble() * 1.23);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(jmh))) {
            MAPPER.writeValue(out, root);
        }

        String md = GatedPairs.report(List.of(rerun, disturbed));
        assertTrue(md.contains("| one run a side, one host | 2 | 1 |"), md);
        assertTrue(md.contains("| a host's runs as the baseline, one of them as the candidate | 2 | 0 |"), md);
        assertTrue(md.contains("| a host's runs as the candidate, one of them as the baseline | 2 | 0 |"), md);
        assertTrue(md.contains("| partition | staged | step time (µs) | 23.0% | DENSE_8B TP HOST_STAGED over 0,0, DECODE "
                + "batch 8 eager"), md);
        assertTrue(md.contains("- exit 1: rerun -> disturbed: DENSE_8B TP HOST_STAGED over 0,0, DECODE batch 8 eager"),
                md);
        assertTrue(!md.contains("- exit 1: disturbed -> rerun"), "slower in the baseline reads better: " + md);

        Path topology = disturbed.resolve("topology.json");
        Files.writeString(topology, Files.readString(topology).replace("GPU-773cbcc2-735c-5eb6-d754-7a34642e3211",
                "GPU-00000000-0000-0000-0000-000000000001"));
        String hosts = GatedPairs.report(List.of(rerun, disturbed));
        assertTrue(hosts.contains("| one run a side, two hosts | 2 | 0 |") && !hosts.contains("one host"), hosts);
        assertTrue(hosts.contains("from 2 runs on 2 hosts (GPU UUIDs): GPU-773cbcc2 `rerun`; GPU-00000000 `disturbed`"),
                hosts);
    }
}
