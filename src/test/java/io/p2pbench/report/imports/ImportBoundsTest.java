package io.p2pbench.report.imports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.Compare;
import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files from elsewhere whose values are out of bounds: no GPU listed, more ranks or GPUs than a machine has,
 * bandwidth figures too small to be any copy's, and printed rows that are broken rather than log lines.
 */
class ImportBoundsTest {
    private static final long MIB_256 = 256 * Sizes.MIB;
    private final ObjectMapper mapper = new ObjectMapper();
    @TempDir
    Path dir;

    /** A copy of the JSON {@code fixture} as {@code name}, edited. */
    private Path edited(Path fixture, String name, Consumer<ObjectNode> edit) throws Exception {
        ObjectNode root = (ObjectNode) mapper.readTree(fixture.toFile());
        edit.accept(root);
        Path file = dir.resolve(name);
        mapper.writeValue(file.toFile(), root);
        return file;
    }

    private Path ncclJson(String name, Consumer<ObjectNode> edit) throws Exception {
        return edited(Fixtures.NCCL_TESTS, name, edit);
    }

    private Path nvbandwidth(String name, Consumer<ObjectNode> edit) throws Exception {
        return edited(Fixtures.NVBANDWIDTH, name, edit);
    }

    private static ObjectNode testcase(ObjectNode root, String name) {
        for (JsonNode tc : root.path("nvbandwidth").path("testcases")) {
            if (tc.path("name").asText().equals(name)) {
                return (ObjectNode) tc;
            }
        }
        throw new AssertionError(name);
    }

    private ArrayNode matrix(int rows, int cols) {
        ArrayNode m = mapper.createArrayNode();
        for (int i = 0; i < rows; i++) {
            ArrayNode row = m.addArray();
            for (int j = 0; j < cols; j++) {
                row.add(i == j ? "N/A" : "389.26");
            }
        }
        return m;
    }

    private static String row67M(String text) {
        return text.lines().filter(l -> l.strip().startsWith("67108864")).findFirst().orElseThrow();
    }

    private Path printed(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private static void assertMessage(BadInputException e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
        assertTrue(e.getMessage().lines().count() == 1, "one line: " + e.getMessage());
    }

    private static void assertSameFigures(ResultData expected, ResultData actual) {
        assertEquals(expected.measurements().size(), actual.measurements().size(), actual.measurements().toString());
        for (Measurement m : expected.measurements()) {
            Measurement t = actual.measurements().stream().filter(x -> x.key().equals(m.key())).findFirst()
                    .orElseThrow(() -> new AssertionError(actual.source() + " lacks " + m.key()));
            assertArrayEquals(m.samples(), t.samples(), 0);
        }
    }

    // --- nccl-tests: the GPUs of the run --------------------------------------------------------------------

    @Test
    void ncclTestsJsonListingNoDeviceIsRefusedNamingTheFile() throws Exception {
        // Before: "internal error: IllegalArgumentException: a group needs at least one GPU" from new Group(empty).
        Path empty = ncclJson("no-devices.json", r -> ((ObjectNode) r.path("config")).putArray("devices"));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(empty, MIB_256)),
                "no-devices.json: nccl-tests config.devices is empty", "expected the run's GPUs, one entry per rank",
                "1 to 16384");
        Path absent = ncclJson("absent-devices.json", r -> ((ObjectNode) r.path("config")).remove("devices"));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(absent, MIB_256)),
                "absent-devices.json: nccl-tests config.devices is absent");
        Path text = ncclJson("text-devices.json", r -> ((ObjectNode) r.path("config")).put("devices", "0,1"));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(text, MIB_256)),
                "text-devices.json: nccl-tests config.devices is not a list");
    }

    @Test
    void ncclTestsJsonWithMoreDevicesThanAMachineHasRanksIsRefused() throws Exception {
        // Before: 100,000 entries were read as "all-reduce on 100000 ranks" (ngpus x nthreads was bounded, devices not).
        for (int n : new int[] {NcclTestsImport.MAX_RANKS + 1, 100_000}) {
            Path file = ncclJson("devices-" + n + ".json", r -> {
                ArrayNode devices = (ArrayNode) r.path("config").path("devices");
                ObjectNode first = (ObjectNode) devices.get(0);
                devices.removeAll();
                for (int i = 0; i < n; i++) {
                    devices.add(first.deepCopy().put("rank", i).put("device", i % 8).put("hostname", "h" + i / 8));
                }
            });
            assertMessage(assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256)),
                    "devices-" + n + ".json: nccl-tests config.devices lists " + n + " ranks", "1 to 16384");
        }
        // A job across 33 hosts of 8 GPUs (more ranks than one process drives) is read.
        Path most = ncclJson("devices-264.json", r -> {
            ArrayNode devices = (ArrayNode) r.path("config").path("devices");
            ObjectNode first = (ObjectNode) devices.get(0);
            devices.removeAll();
            for (int i = 0; i < 264; i++) {
                devices.add(first.deepCopy().put("rank", i).put("device", i % 8).put("hostname", "h" + i / 8));
            }
        });
        assertEquals(264, Compare.read(most, MIB_256).measurements().get(0).key().pair().split(",").length);
    }

    @Test
    void ncclTestsDeviceThatIsNoGpuIndexIsRefused() throws Exception {
        // Before: an absent device made the group ",,,,,,,", a negative one "-3,-3,...": read, then matched nothing.
        Path absent = ncclJson("no-index.json", r -> ((ObjectNode) r.path("config").path("devices").get(2))
                .remove("device"));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(absent, MIB_256)),
                "no-index.json: nccl-tests config.devices[2].device (none) is not a GPU index; expected a whole number "
                        + "from 0 to 255");
        Path negative = ncclJson("negative.json", r -> ((ObjectNode) r.path("config").path("devices").get(0))
                .put("device", -3));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(negative, MIB_256)),
                "config.devices[0].device -3 is not a GPU index");
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        Path printed = printed("device-9999.txt", text.replace("synthetic-host device  7 ", "synthetic-host device  9999 "));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(printed, MIB_256, "ALL_REDUCE")),
                "names device 9999, which is not a GPU index; expected a whole number from 0 to 255");
    }

    @Test
    void ncclTestsPrintedOutputWithoutRankLinesBeforeItsTableIsRefused() throws Exception {
        // Before: rank lines only after the table: "IllegalArgumentException: a group needs at least one GPU".
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String ranks = text.lines().filter(l -> l.contains(" Rank ")).map(l -> l + "\n").collect(Collectors.joining());
        Path file = printed("ranks-after.txt", text.replace(ranks, "") + ranks);
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE")),
                "ranks-after.txt: nccl-tests output lists no rank before its table",
                "expected '# Using devices' with one '#  Rank N ... device D' line per rank");
    }

    @Test
    void ncclTestsPrintedOutputWithMoreRankLinesThanAMachineHasRanksIsRefused() throws Exception {
        // Before: every rank line became a rank, however many.
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        StringBuilder many = new StringBuilder();
        for (int i = 0; i <= NcclTestsImport.MAX_RANKS; i++) {
            many.append("#  Rank ").append(i).append(" Group  0 Pid   4242 on host").append(i / 8).append(" device  ")
                    .append(i % 8).append(" [0000:18:00] NVIDIA H200\n");
        }
        String ranks = text.lines().filter(l -> l.contains(" Rank ")).map(l -> l + "\n").collect(Collectors.joining());
        Path file = printed("ranks-16385.txt", text.replace(ranks, many));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE")),
                "ranks-16385.txt: nccl-tests output lists 16385 ranks", "1 to 16384");
    }

    // --- nvbandwidth: the matrix against the GPUs the file lists ------------------------------------------------

    @Test
    void nvbandwidthMatrixLargerThanTheGpusTheFileListsIsRefused() throws Exception {
        // Before: a 300 x 300 matrix in a file listing 8 GPUs gave 90,000 pairs (report --nvbandwidth: 45 s).
        Path big = nvbandwidth("300.json", r -> testcase(r, "device_to_device_memcpy_read_ce")
                .set("bandwidth_matrix", matrix(300, 300)));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(big, MIB_256)),
                "300.json: testcase device_to_device_memcpy_read_ce has a 300 x 300 matrix",
                "the file lists 8 GPUs (GPU Device list); expected 8 x 8");
        Path host = nvbandwidth("host-12.json", r -> testcase(r, "host_to_device_memcpy_ce")
                .set("bandwidth_matrix", matrix(1, 12)));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(host, MIB_256)),
                "testcase host_to_device_memcpy_ce has a 1 x 12 matrix", "8 GPUs (GPU Device list); expected 1 x 8");
        Path bidir = nvbandwidth("bidir-4.json", r -> testcase(r,
                "device_to_device_bidirectional_memcpy_read_ce").set("bandwidth_matrix", matrix(12, 4)));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(bidir, MIB_256)),
                "testcase device_to_device_bidirectional_memcpy_read_ce has a 12 x 4 matrix", "expected 24 x 8");
    }

    @Test
    void nvbandwidthWithoutAGpuListIsBoundedByTheMostGpusAMachineHas() throws Exception {
        // Before: with no GPU list any N was read; 3000 x 3000 ran for minutes.
        Path listless = nvbandwidth("no-list.json", r -> ((ObjectNode) r.path("nvbandwidth")).remove("GPU Device list"));
        assertSameFigures(Compare.read(Fixtures.NVBANDWIDTH, MIB_256), Compare.read(listless, MIB_256));
        Path big = nvbandwidth("no-list-257.json", r -> {
            ((ObjectNode) r.path("nvbandwidth")).remove("GPU Device list");
            testcase(r, "device_to_device_memcpy_write_ce").set("bandwidth_matrix", matrix(257, 257));
        });
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(big, MIB_256)),
                "no-list-257.json: testcase device_to_device_memcpy_write_ce has a 257 x 257 matrix",
                "the file lists no GPU (GPU Device list); expected N x N with N from 1 to 256");
        Path longList = nvbandwidth("list-300.json", r -> {
            ArrayNode list = (ArrayNode) r.path("nvbandwidth").path("GPU Device list");
            for (int i = 8; i < 300; i++) {
                list.add(i + ": NVIDIA H200 (00000000:18:00): (synthetic-host)");
            }
        });
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(longList, MIB_256)),
                "list-300.json: nvbandwidth 'GPU Device list' lists 300 GPUs", "at most 256");
    }

    @Test
    void nvbandwidthMatrixWithRaggedRowsOrNoRowsIsRefused() throws Exception {
        // Before: a short row's missing cells were counted as "null (no figure)", a 1 x 9 local-copy row in a file of
        // 8 GPUs made a GPU 8, and a matrix that is an object ended in a NullPointerException.
        Path ragged = nvbandwidth("ragged.json", r -> ((ArrayNode) testcase(r, "device_to_device_memcpy_read_ce")
                .path("bandwidth_matrix").get(3)).remove(7));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(ragged, MIB_256)),
                "ragged.json: testcase device_to_device_memcpy_read_ce has a row of 7 cells (row 3)", "expected 8 x 8");
        Path longRow = nvbandwidth("long-row.json", r -> ((ArrayNode) testcase(r, "device_local_copy")
                .path("bandwidth_matrix").get(0)).add("1604.8"));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(longRow, MIB_256)),
                "testcase device_local_copy has a 1 x 9 matrix");
        Path object = nvbandwidth("object.json", r -> testcase(r, "device_to_device_memcpy_read_ce")
                .putObject("bandwidth_matrix").put("a", 1));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(object, MIB_256)),
                "object.json: testcase device_to_device_memcpy_read_ce has no bandwidth_matrix list of rows");
    }

    // --- figures too small to be a copy's --------------------------------------------------------------------

    @Test
    void ncclTestsFiguresAbove0ButBelowAByteASecondAreRefused() throws Exception {
        // Before: 5e-324 passed "0 to 100000" and became Infinity ratios in compare.md and NaN coordinates in charts.
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String row = row67M(text);
        for (String tiny : new String[] {"5e-324", "1e-320", "0.0000000009"}) {
            String[] t = row.strip().split("\\s+");
            t[7] = tiny;
            Path file = printed("tiny-" + tiny + ".txt", text.replace(row, String.join("  ", t)));
            assertMessage(assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE")),
                    "nccl-tests busbw '" + tiny + "' at size 67108864 is no bandwidth; expected a number of GB/s "
                            + "from 0 to 100000", "0 (no figure) or at least 0.000000001");
        }
        Path json = ncclJson("tiny.json", r -> ((ObjectNode) r.path("results").get(1).path("out_of_place"))
                .put("alg_bw", 1e-10));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(json, MIB_256)),
                "tiny.json: nccl-tests algbw '1.0E-10' at size 4194304 is no bandwidth");

        String[] t = row.strip().split("\\s+");
        t[7] = "0.00"; // one rank's bus bandwidth: still no figure, not bad input
        Path zero = printed("zero.txt", text.replace(row, String.join("  ", t)));
        assertEquals(9, Compare.read(zero, MIB_256, "ALL_REDUCE").measurements().size());
        t[7] = "0.000000001"; // the floor itself is a figure
        Path floor = printed("floor.txt", text.replace(row, String.join("  ", t)));
        assertEquals(10, Compare.read(floor, MIB_256, "ALL_REDUCE").measurements().size());
    }

    @Test
    void nvbandwidthCellsAbove0ButBelowAByteASecondAreSkippedWithTheReason() throws Exception {
        // Before: read as figures; a ratio against them was Infinity.
        Path file = nvbandwidth("tiny.json", r -> {
            ArrayNode row = (ArrayNode) testcase(r, "host_to_device_memcpy_ce").path("bandwidth_matrix").get(0);
            row.set(0, "5e-324");
            row.set(1, mapper.getNodeFactory().numberNode(1e-10));
            row.set(2, "0.000000001");
        });
        ResultData d = Compare.read(file, MIB_256);
        List<String> h2d = d.measurements().stream().filter(m -> m.key().kind().equals("host")
                && m.key().direction().equals("H2D")).map(m -> m.key().pair()).toList();
        assertEquals(List.of("GPU2", "GPU3", "GPU4", "GPU5", "GPU6", "GPU7"), h2d, "0.000000001 GB/s is the floor");
        ResultData.NotMeasured skipped = d.notMeasured().stream()
                .filter(n -> n.id().equals("host_to_device_memcpy_ce (some cells)")).findFirst().orElseThrow();
        assertTrue(skipped.reason().contains("1 x '5e-324' (below 0.000000001 GB/s = 1 B/s: no copy is that slow)"),
                skipped.reason());
        assertTrue(skipped.reason().contains("1 x '1.0E-10' (below 0.000000001 GB/s"), skipped.reason());
    }

    // --- nccl-tests printed rows that are broken, not log lines -------------------------------------------------

    @Test
    void ncclTestsPrintedRowWithASizeThatIsNoWholeNumberIsRefused() throws Exception {
        // Before: the row was skipped as if it were an interleaved log line; exit 0 with one size fewer.
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String row = row67M(text);
        for (String bad : new String[] {"-5", "nan", "6.7e7"}) {
            String broken = row.replace("67108864", bad);
            Path file = printed("size-" + bad + ".txt", text.replace(row, broken));
            assertMessage(assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE")),
                    "size-" + bad + ".txt: nccl-tests size " + bad + " is not a transfer size; expected a whole "
                            + "number of bytes", "(row '" + broken.strip() + "')");
        }
    }

    @Test
    void ncclTestsPrintedRowWithFewerColumnsThanItsHeaderIsRefused() throws Exception {
        // Before: a row of 11 of the header's 13 columns (the in-place figures cut) was skipped silently.
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String row = row67M(text);
        String[] t = row.strip().split("\\s+");
        String cut = String.join("  ", List.of(t).subList(0, 11));
        Path file = printed("cut.txt", text.replace(row, cut));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE")),
                "cut.txt: row '" + cut + "' has 11 columns; the header has 13");
        Path old = Path.of("src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf_mpi-old-layout.txt");
        String oldText = Files.readString(old);
        String oldRow = row67M(oldText);
        String[] o = oldRow.strip().split("\\s+");
        String oldCut = String.join("  ", List.of(o).subList(0, 9));
        Path oldFile = printed("old-cut.txt", oldText.replace(oldRow, oldCut));
        assertMessage(assertThrows(BadInputException.class, () -> Compare.read(oldFile, MIB_256)),
                "old-cut.txt: row '" + oldCut + "' has 9 columns; the header has 12");
    }

    @Test
    void ncclTestsPrintedLogLinesAmongTheRowsAreStillSkipped() throws Exception {
        // Lines that do not look like a result row, even one starting with a number or naming a type, are log lines.
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String row = row67M(text);
        Path file = printed("log.txt", text.replace(row, "WARNING: using float accumulation\n"
                + "1048576 bytes pinned per rank in host memory for staging buffers\n"
                + "synthetic-host:4242:4250 [0] NCCL INFO Channel 00/24 : 0 1 2 3 4 5 6 7\n"
                + "\n" + row));
        assertSameFigures(Compare.read(Fixtures.NCCL_TESTS, MIB_256), Compare.read(file, MIB_256, "ALL_REDUCE"));
    }
}
