package io.p2pbench.report.verdict;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.Compare;
import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether an imported baseline lists the run's GPUs is decided on the GPUs it lists, not on its text. */
class ImportedGpusTest {
    @Test
    void aVersionThatReadsLikeTheRunsGpusDoesNotMakeOtherGpusTheSame(@TempDir Path tmp) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(Fixtures.NVBANDWIDTH.toFile());
        ObjectNode nvb = (ObjectNode) root.get("nvbandwidth");
        // nvbandwidth writes its version as it was built; this one happens to read like the run's GPUs.
        nvb.put("version", "v0.8 on 8x NVIDIA H200, patched");
        ArrayNode gpus = json.createArrayNode();
        for (int i = 0; i < 8; i++) {
            gpus.add(i + ": NVIDIA H100 80GB HBM3 (00000000:" + (10 + i) + ":00): (other-host)");
        }
        nvb.set("GPU Device list", gpus);
        Path file = tmp.resolve("nvbandwidth-h100.json");
        Files.writeString(file, json.writeValueAsString(root));

        Comparison.Result r = Comparison.compare(Compare.read(file, 256 * Sizes.MIB),
                ResultReader.read(Fixtures.X8), 5);
        assertTrue(r.note().contains("WARNING: it lists other GPUs (nvbandwidth v0.8 on 8x NVIDIA H200, patched on "
                + "8x NVIDIA H100 80GB HBM3, driver 580.159.04)"), r.note());
    }
}
