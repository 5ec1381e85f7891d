package io.p2pbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nvbandwidth -j and nccl-tests -J baselines mapped onto p2pbench measurements. */
class ImportTest {
    private static final long MIB_256 = 256 * Sizes.MIB;
    private final ObjectMapper mapper = new ObjectMapper();

    private JsonNode testcase(String name) throws Exception {
        for (JsonNode tc : mapper.readTree(Fixtures.NVBANDWIDTH.toFile()).path("nvbandwidth").path("testcases")) {
            if (tc.path("name").asText().equals(name)) {
                return tc;
            }
        }
        throw new AssertionError(name);
    }

    private static double value(List<Measurement> ms, String path, String direction, String pair) {
        return StatisticsTest.find(ms, "bandwidth", "peer", path, direction, pair, MIB_256).samples()[0];
    }

    @Test
    void readMatrixCellRowIColumnJIsDataFromJIntoI() throws Exception {
        List<Measurement> ms = Compare.read(Fixtures.NVBANDWIDTH, MIB_256).measurements();
        JsonNode read = testcase("device_to_device_memcpy_read_ce").path("bandwidth_matrix");
        // Row 0, column 1: GPU 0 reads from GPU 1, so the data goes 1 -> 0.
        assertEquals(read.get(0).get(1).asDouble(), value(ms, "CE_P2P_READ", "one-way", "1-0"), 0);
        assertEquals(read.get(3).get(5).asDouble(), value(ms, "CE_P2P_READ", "one-way", "5-3"), 0);
        JsonNode write = testcase("device_to_device_memcpy_write_ce").path("bandwidth_matrix");
        assertEquals(write.get(0).get(1).asDouble(), value(ms, "CE_P2P_WRITE", "one-way", "0-1"), 0);
    }

    @Test
    void bidirectionalTestAppendsThreeMatricesOfWhichFirstAndTotalAreUsed() throws Exception {
        List<Measurement> ms = Compare.read(Fixtures.NVBANDWIDTH, MIB_256).measurements();
        JsonNode m = testcase("device_to_device_bidirectional_memcpy_read_ce").path("bandwidth_matrix");
        assertEquals(24, m.size(), "8 rows each of read1, read2 and total");
        assertEquals(m.get(0).get(1).asDouble(), value(ms, "CE_P2P_READ", "one-way, reverse running", "1-0"), 0);
        assertEquals(m.get(16 + 2).get(6).asDouble(), value(ms, "CE_P2P_READ", "both ways (sum)", "2-6"), 0);
        assertEquals(56, ms.stream().filter(x -> x.key().direction().equals("one-way, reverse running")
                && x.key().path().equals("CE_P2P_READ")).count());
        assertEquals(28, ms.stream().filter(x -> x.key().direction().equals("both ways (sum)")).count());
    }

    @Test
    void localCopiesAndHostRowsMapToTheirGpu() throws Exception {
        ResultData d = Compare.read(Fixtures.NVBANDWIDTH, MIB_256);
        Measurement local = StatisticsTest.find(d.measurements(), "bandwidth", "peer", "CE_P2P_READ", "one-way", "7-7",
                MIB_256);
        assertTrue(local.singleGpu());
        assertEquals(1604.8, local.samples()[0], 0);
        assertEquals(55.2, StatisticsTest.find(d.measurements(), "bandwidth", "host", "PINNED LOCAL", "H2D", "GPU3",
                MIB_256).samples()[0], 0);
        assertEquals(50.1, StatisticsTest.find(d.measurements(), "bandwidth", "host", "PINNED LOCAL",
                "H2D, D2H running", "GPU0", MIB_256).samples()[0], 0);
        assertTrue(d.notMeasured().stream().anyMatch(n -> n.id().equals("device_to_device_memcpy_read_sm")
                && n.status().equals("waived")));
        assertTrue(d.machine().contains("8x NVIDIA H200") && d.machine().contains("580.159.04"), d.machine());
    }

    @Test
    void bufferSizeDefaultsToNvbandwidthsDefault() throws Exception {
        ResultData d = Compare.read(Fixtures.NVBANDWIDTH, NvbandwidthImport.DEFAULT_BUFFER_BYTES);
        assertTrue(d.measurements().stream().allMatch(m -> m.key().sizeBytes() == 512 * Sizes.MIB));
    }

    @Test
    void aMatrixOfTheWrongShapeIsRefused(@TempDir Path dir) throws Exception {
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NVBANDWIDTH.toFile());
        ArrayNode tcs = (ArrayNode) root.path("nvbandwidth").path("testcases");
        for (JsonNode tc : tcs) {
            if (tc.path("name").asText().equals("device_to_device_memcpy_read_ce")) {
                ((ArrayNode) tc.path("bandwidth_matrix")).remove(7);
            }
        }
        Path file = dir.resolve("short.json");
        mapper.writeValue(file.toFile(), root);
        BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256));
        assertTrue(e.getMessage().contains("device_to_device_memcpy_read_ce has a 7 x 8 matrix; expected 8 x N"),
                e.getMessage());
    }

    @Test
    void ncclTestsAllReduceBecomesBusAndAlgorithmBandwidth() throws Exception {
        ResultData d = Compare.read(Fixtures.NCCL_TESTS, MIB_256);
        assertEquals(10, d.measurements().size(), "5 sizes x (bus, alg)");
        Measurement bus = StatisticsTest.find(d.measurements(), "bandwidth", "nccl", "ALL_REDUCE FLOAT32", "bus",
                "0,1,2,3,4,5,6,7", MIB_256);
        JsonNode last = mapper.readTree(Fixtures.NCCL_TESTS.toFile()).path("results").get(4);
        assertEquals(last.path("out_of_place").path("bus_bw").asDouble(), bus.samples()[0], 0);
        assertTrue(d.machine().contains("NCCL 2.28.3") && d.machine().contains("8x NVIDIA H200"), d.machine());
        assertEquals("2.28.3", NcclTestsImport.ncclVersion(22803));
        assertEquals("FLOAT16", NcclTestsImport.dtype("half"));
    }

    @Test
    void ncclTestsOfAnUnmappedProgramIsRefused(@TempDir Path dir) throws Exception {
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NCCL_TESTS.toFile());
        ((ArrayNode) root.path("args")).set(0, "./build/sendrecv_perf");
        Path file = dir.resolve("sendrecv.json");
        mapper.writeValue(file.toFile(), root);
        BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256));
        assertTrue(e.getMessage().contains("'sendrecv_perf', which has no p2pbench counterpart"), e.getMessage());
    }
}
