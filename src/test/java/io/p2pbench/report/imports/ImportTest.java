package io.p2pbench.report.imports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.render.ComparisonReport;
import io.p2pbench.report.stats.StatisticsTest;
import io.p2pbench.report.verdict.Comparison;
import io.p2pbench.transfer.Sizes;
import java.nio.file.Files;
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
        assertTrue(e.getMessage().contains("device_to_device_memcpy_read_ce has a 7 x 8 matrix; the file lists 8 GPUs "
                + "(GPU Device list); expected 8 x 8"),
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

    @Test
    void ncclTestsPrintedTableGivesTheSameFiguresAsItsJson() throws Exception {
        ResultData json = Compare.read(Fixtures.NCCL_TESTS, MIB_256);
        ResultData text = Compare.read(Fixtures.NCCL_TESTS_TEXT, MIB_256, "ALL_REDUCE");
        assertEquals(json.measurements().size(), text.measurements().size());
        for (Measurement m : json.measurements()) {
            Measurement t = text.measurements().stream().filter(x -> x.key().equals(m.key())).findFirst()
                    .orElseThrow(() -> new AssertionError("text import lacks " + m.key()));
            assertArrayEquals(m.samples(), t.samples(), 0);
        }
        assertTrue(text.machine().startsWith("nccl-tests all_reduce_perf on 8x NVIDIA H200"), text.machine());
    }

    @Test
    void ncclTestsPrintedTableNamesItsProgramOrTheCallerMust(@TempDir Path dir) throws Exception {
        BadInputException unnamed = assertThrows(BadInputException.class,
                () -> Compare.read(Fixtures.NCCL_TESTS_TEXT, MIB_256));
        assertTrue(unnamed.getMessage().contains("does not name its program; say which with --nccl-tests-op "
                + "ALL_GATHER|ALL_REDUCE|ALL_TO_ALL|REDUCE_SCATTER"), unnamed.getMessage());

        Path named = dir.resolve("named.txt");
        Files.writeString(named, "# Collective test starting: all_reduce_perf\n"
                + Files.readString(Fixtures.NCCL_TESTS_TEXT));
        assertEquals(10, Compare.read(named, MIB_256).measurements().size());
        BadInputException other = assertThrows(BadInputException.class,
                () -> Compare.read(named, MIB_256, "ALL_GATHER"));
        assertTrue(other.getMessage().contains("is nccl-tests output of ALL_REDUCE, not ALL_GATHER"), other.getMessage());
        BadInputException bad = assertThrows(BadInputException.class,
                () -> Compare.read(Fixtures.NCCL_TESTS_TEXT, MIB_256, "BROADCAST"));
        assertTrue(bad.getMessage().contains("'BROADCAST' is not a collective nccl-tests measures; use ALL_GATHER, "
                + "ALL_REDUCE"), bad.getMessage());
    }

    @Test
    void ncclTestsPrintedTableWithWrongElementsIsNoBaseline(@TempDir Path dir) throws Exception {
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String row = text.lines().filter(l -> l.strip().startsWith("67108864")).findFirst().orElseThrow();
        String[] t = row.strip().split("\\s+");
        t[8] = "3"; // out-of-place #wrong
        Path file = dir.resolve("wrong.txt");
        Files.writeString(file, text.replace(row, String.join("  ", t)));
        BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE"));
        assertTrue(e.getMessage().contains("wrong elements (#wrong) at size 67108864; a run with wrong data is no "
                + "baseline (accepted: #wrong 0)"),
                e.getMessage());
    }

    @Test
    void ncclTestsFiguresAboveAnyGpusBandwidthAreRefused(@TempDir Path dir) throws Exception {
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String row = text.lines().filter(l -> l.strip().startsWith("67108864")).findFirst().orElseThrow();
        String[] t = row.strip().split("\\s+");
        t[7] = "1e308"; // out-of-place busbw: read as a baseline, it made every candidate "worse"
        Path file = dir.resolve("huge.txt");
        Files.writeString(file, text.replace(row, String.join("  ", t)));
        BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE"));
        assertTrue(e.getMessage().contains("nccl-tests busbw '1e308' at size 67108864 is no bandwidth; "
                + "expected a number of GB/s from 0 to 100000"), e.getMessage());
    }

    @Test
    void ncclTestsFiguresThatAreNoNumberAreNamedNotDropped(@TempDir Path dir) throws Exception {
        // Before: the row was dropped as if nccl-tests had printed 0.00, exit 0 with one size fewer.
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        String row = text.lines().filter(l -> l.strip().startsWith("67108864")).findFirst().orElseThrow();
        for (String bad : new String[] {"abc", "-5", "nan"}) {
            String[] t = row.strip().split("\\s+");
            t[7] = bad;
            Path file = dir.resolve("bad-" + bad + ".txt");
            Files.writeString(file, text.replace(row, String.join("  ", t)));
            BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256, "ALL_REDUCE"));
            assertTrue(e.getMessage().contains("nccl-tests busbw '" + bad + "' at size 67108864 is no bandwidth"),
                    e.getMessage());
        }
        String json = Files.readString(Fixtures.NCCL_TESTS);
        Path file = dir.resolve("bad.json");
        Files.writeString(file, json.replaceFirst("\"bus_bw\"\\s*:\\s*[0-9.eE+-]+", "\"bus_bw\": \"fast\""));
        BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256));
        assertTrue(e.getMessage().contains("nccl-tests busbw '\"fast\"' at size"), e.getMessage());
    }

    private static final Path OLD_LAYOUT =
            Path.of("src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf_mpi-old-layout.txt");
    private static final Path TAG_OUTPUT =
            Path.of("src/test/resources/fixtures/nccl-tests/synthetic-h200x8-all_reduce_perf_mpi-tag-output.txt");

    private void assertSameFiguresAsJson(ResultData text) throws Exception {
        ResultData json = Compare.read(Fixtures.NCCL_TESTS, MIB_256);
        assertEquals(json.measurements().size(), text.measurements().size(), text.measurements().toString());
        for (Measurement m : json.measurements()) {
            Measurement t = text.measurements().stream().filter(x -> x.key().equals(m.key())).findFirst()
                    .orElseThrow(() -> new AssertionError(text.source() + " lacks " + m.key()));
            assertArrayEquals(m.samples(), t.samples(), 0);
        }
    }

    @Test
    void olderPrintedLayoutWithoutGroupAndWithAnErrorColumnIsRead() throws Exception {
        ResultData d = Compare.read(OLD_LAYOUT, MIB_256);
        assertSameFiguresAsJson(d);
        assertTrue(d.machine().startsWith("nccl-tests all_reduce_perf on 8x NVIDIA H200, NCCL 2.28.3"), d.machine());
    }

    @Test
    void printedOutputWithATimestampColumnIsRead(@TempDir Path dir) throws Exception {
        // nccl-tests' timestamp column prints a date and a time: one column, two tokens a row. Before: "has 15
        // columns; the header has 14" (and before that, "holds no nccl-tests result rows").
        StringBuilder out = new StringBuilder();
        for (String line : Files.readString(Fixtures.NCCL_TESTS_TEXT).split("\n", -1)) {
            boolean header = line.startsWith("#") && line.contains("size") && line.contains("busbw");
            boolean row = !line.startsWith("#") && line.strip().matches("\\d+\\s.*");
            out.append(line).append(header ? "  timestamp" : row ? "  2026-01-01 00:10:00" : "").append('\n');
        }
        Path file = Files.writeString(dir.resolve("timestamps.txt"), out);
        assertSameFiguresAsJson(Compare.read(file, MIB_256, "ALL_REDUCE"));
    }

    @Test
    void openMpiTagOutputWithInterleavedWarningsIsRead() throws Exception {
        assertSameFiguresAsJson(Compare.read(TAG_OUTPUT, MIB_256));
    }

    @Test
    void outOfBoundsValuesRefuseAPrintedBaseline(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("oob.txt");
        Files.writeString(file, Files.readString(TAG_OUTPUT).replace("Out of bounds values : 0 OK",
                "Out of bounds values : 12 FAILED"));
        BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256));
        assertTrue(e.getMessage().contains("oob.txt: nccl-tests reports 'Out of bounds values : 12 FAILED'; a run with "
                + "wrong data is no baseline (accepted: Out of bounds values : 0 OK)"), e.getMessage());
    }

    @Test
    void jsonOfASingleProcessDrivingEightGpusListsOneDeviceAndIsReadAsEight(@TempDir Path dir) throws Exception {
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NCCL_TESTS.toFile());
        ArrayNode devices = (ArrayNode) root.path("config").path("devices");
        while (devices.size() > 1) {
            devices.remove(1);
        }
        ((ArrayNode) root.path("args")).set(0, "./build/all_reduce_perf_mpi");
        Path file = dir.resolve("g8.json");
        mapper.writeValue(file.toFile(), root);
        ResultData d = Compare.read(file, MIB_256);
        assertSameFiguresAsJson(d);
        assertTrue(d.measurements().get(0).samplesFrom().contains("the JSON lists only device 0 of 8"),
                d.measurements().get(0).samplesFrom());
    }

    @Test
    void jsonWithWrongElementsOrOutOfBoundsValuesIsRefused(@TempDir Path dir) throws Exception {
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NCCL_TESTS.toFile());
        ((ObjectNode) root.path("results").get(2).path("in_place")).put("nwrong", 5.0);
        Path file = dir.resolve("nwrong.json");
        mapper.writeValue(file.toFile(), root);
        BadInputException e = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256));
        assertTrue(e.getMessage().contains("found 5.0 wrong elements (in_place nwrong) at size 16777216"),
                e.getMessage());

        ObjectNode oob = (ObjectNode) mapper.readTree(Fixtures.NCCL_TESTS.toFile());
        ((ObjectNode) oob.path("out_of_bounds")).put("count", 3).put("okay", "false");
        Path file2 = dir.resolve("oob.json");
        mapper.writeValue(file2.toFile(), oob);
        BadInputException e2 = assertThrows(BadInputException.class, () -> Compare.read(file2, MIB_256));
        assertTrue(e2.getMessage().contains("reports 3 out-of-bounds values"), e2.getMessage());
    }

    @Test
    void nvbandwidthCellsWithoutAPositiveNumberAreSkippedWithTheReason(@TempDir Path dir) throws Exception {
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NVBANDWIDTH.toFile());
        for (JsonNode tc : root.path("nvbandwidth").path("testcases")) {
            if (tc.path("name").asText().equals("host_to_device_memcpy_ce")) {
                ArrayNode row = (ArrayNode) tc.path("bandwidth_matrix").get(0);
                row.set(0, "N/A");
                row.set(1, "-3.5");
                row.set(2, "0");
                row.set(3, "fast");
                row.set(4, "1e308");
            }
            if (tc.path("name").asText().equals("device_to_host_memcpy_ce")) {
                ((ObjectNode) tc).put("status", "Error");
            }
        }
        Path file = dir.resolve("odd.json");
        mapper.writeValue(file.toFile(), root);
        ResultData d = Compare.read(file, MIB_256);
        List<String> h2d = d.measurements().stream().filter(m -> m.key().kind().equals("host")
                && m.key().direction().equals("H2D")).map(m -> m.key().pair()).toList();
        assertEquals(List.of("GPU5", "GPU6", "GPU7"), h2d, "the five odd cells give no figure");
        ResultData.NotMeasured skipped = d.notMeasured().stream()
                .filter(n -> n.id().equals("host_to_device_memcpy_ce (some cells)")).findFirst().orElseThrow();
        for (String why : List.of("1 x '-3.5' (not a positive bandwidth)", "1 x '0' (not a positive bandwidth)",
                "1 x 'N/A' (not measured by nvbandwidth)", "1 x 'fast' (not a number)",
                "1 x '1e308' (above 100000 GB/s: no GPU is that fast)")) {
            assertTrue(skipped.reason().contains(why), skipped.reason());
        }
        assertTrue(d.notMeasured().stream().anyMatch(n -> n.id().equals("device_to_host_memcpy_ce")
                && n.status().equals("error")));
        assertTrue(d.measurements().stream().noneMatch(m -> m.key().direction().equals("D2H")));
    }

    @Test
    void nvbandwidthWithOnlyUnmappedTestcasesNamesThemWhenNothingMatches(@TempDir Path dir) throws Exception {
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NVBANDWIDTH.toFile());
        ArrayNode tcs = (ArrayNode) root.path("nvbandwidth").path("testcases");
        ObjectNode sm = (ObjectNode) tcs.get(0).deepCopy();
        sm.put("name", "host_to_device_memcpy_sm");
        ObjectNode sm2 = (ObjectNode) tcs.get(0).deepCopy();
        sm2.put("name", "device_to_host_memcpy_sm");
        tcs.removeAll();
        tcs.add(sm);
        tcs.add(sm2);
        Path file = dir.resolve("sm.json");
        mapper.writeValue(file.toFile(), root);
        BadInputException e = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(file, MIB_256), ResultReader.read(Fixtures.X8), 5));
        assertTrue(e.getMessage().contains("sm.json holds only testcases with no p2pbench counterpart: "
                + "host_to_device_memcpy_sm, device_to_host_memcpy_sm (p2pbench compares host_to_device_memcpy_ce, "),
                e.getMessage());
        assertFalse(e.getMessage().contains("was assumed"), "the size is not why: " + e.getMessage());
    }

    @Test
    void nvbandwidthWhoseCellsAreAllUnusableSaysSoWhenNothingMatches(@TempDir Path dir) throws Exception {
        // Before: "... was assumed (pass nvbandwidth's -b as --nvbandwidth-size)", the wrong cause.
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NVBANDWIDTH.toFile());
        for (JsonNode tc : root.path("nvbandwidth").path("testcases")) {
            for (JsonNode row : tc.path("bandwidth_matrix")) {
                for (int j = 0; j < row.size(); j++) {
                    ((ArrayNode) row).set(j, mapper.getNodeFactory().textNode("abc"));
                }
            }
        }
        Path file = dir.resolve("abc.json");
        mapper.writeValue(file.toFile(), root);
        BadInputException e = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(file, MIB_256), ResultReader.read(Fixtures.X8), 5));
        assertTrue(e.getMessage().contains("abc.json holds no usable figure: "), e.getMessage());
        assertTrue(e.getMessage().contains("'abc' (not a number)"), e.getMessage());
        assertFalse(e.getMessage().contains("was assumed"), "the size is not why: " + e.getMessage());
    }

    /** A plain nvbandwidth run lists testcases p2pbench has no counterpart for: they are listed, the rest compared. */
    @Test
    void nvbandwidthTestcasesWithoutACounterpartAreListedAndTheRestCompared() throws Exception {
        ResultData all = Compare.read(Fixtures.NVBANDWIDTH_UNMAPPED, MIB_256);
        ResultData mapped = Compare.read(Fixtures.NVBANDWIDTH, MIB_256);
        assertEquals(List.of("all_to_host_memcpy_ce", "host_to_device_memcpy_sm", "device_to_host_memcpy_sm",
                "host_device_latency_sm"), all.notMeasured().stream().filter(n -> n.status().equals("not mapped"))
                .map(ResultData.NotMeasured::id).toList());
        assertEquals(mapped.measurements().size(), all.measurements().size(), "every mapped testcase is still read");
        Comparison.Result r = Comparison.compare(all, ResultReader.read(Fixtures.X8), 5);
        assertEquals(Comparison.compare(mapped, ResultReader.read(Fixtures.X8), 5).rows().size(), r.rows().size());
        assertTrue(ComparisonReport.markdown(r).contains("- device_to_host_memcpy_sm (not mapped): no p2pbench "
                + "counterpart for this nvbandwidth testcase"), ComparisonReport.markdown(r));

        BadInputException wrongSize = assertThrows(BadInputException.class, () -> Comparison.compare(
                Compare.read(Fixtures.NVBANDWIDTH_UNMAPPED, 512 * Sizes.MIB), ResultReader.read(Fixtures.X8), 5));
        assertTrue(wrongSize.getMessage().contains("512 MiB was assumed (pass nvbandwidth's -b as --nvbandwidth-size)"
                + "; h200x8-nv18-r580/synthetic-h200x8 measured copies at 4 KiB, 1 MiB, 64 MiB, 256 MiB; left out, "
                + "and not why nothing matched: testcases with no p2pbench counterpart: all_to_host_memcpy_ce, "
                + "host_to_device_memcpy_sm, device_to_host_memcpy_sm, host_device_latency_sm"), wrongSize.getMessage());
    }

    @Test
    void jsonIsOneJsonDocumentNotTextThatOpensWithABracket() {
        assertTrue(NcclTestsImport.isJson("{\"version\": 2}\n"));
        assertTrue(NcclTestsImport.isJson("  [1, 0]\n"));
        assertFalse(NcclTestsImport.isJson("[1,0]<stdout>:# nThread 1 nGpus 1\n"), "OpenMPI --tag-output");
        assertFalse(NcclTestsImport.isJson("# nThread 1 nGpus 8\n"));
        assertFalse(NcclTestsImport.isJson("{\"version\": 2"), "cut JSON is not a JSON document");
    }

    /** {@code mpirun --tag-output > out.txt}: the first line is tagged too, so the file starts with '['. */
    @Test
    void openMpiTagOutputFromItsFirstLineIsReadAsPrintedOutput(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tagged.txt");
        Files.writeString(file, Files.readString(TAG_OUTPUT).lines().filter(l -> !l.startsWith("$ "))
                .map(l -> l + "\n").reduce("", String::concat));
        assertTrue(Files.readString(file).startsWith("[1,"), "the fixture without its command line");
        BadInputException unnamed = assertThrows(BadInputException.class, () -> Compare.read(file, MIB_256));
        assertTrue(unnamed.getMessage().contains("does not name its program"), unnamed.getMessage());
        assertSameFiguresAsJson(Compare.read(file, MIB_256, "ALL_REDUCE"));

        ResultData two = Compare.read(Fixtures.NCCL_TESTS_TWO_RANKS_ONE_GPU, MIB_256);
        assertEquals(10, two.measurements().size(), "5 sizes x (bus, alg)");
        assertEquals(174.39, StatisticsTest.find(two.measurements(), "bandwidth", "nccl", "ALL_REDUCE FLOAT32", "bus",
                "0,0", 64 * Sizes.MIB).samples()[0], 0);
        assertTrue(two.machine().startsWith("nccl-tests all_reduce_perf on 1x NVIDIA H200, NCCL 2.28.3"),
                two.machine());
    }

    /** Two ranks on one GPU measure no interconnect: labelled single GPU, as the suite labels its own groups. */
    @Test
    void twoRanksOnOneGpuAreLabelledSingleGpu(@TempDir Path dir) throws Exception {
        for (Measurement m : Compare.read(Fixtures.NCCL_TESTS_TWO_RANKS_ONE_GPU, MIB_256).measurements()) {
            assertEquals("0,0", m.key().pair());
            assertTrue(m.singleGpu(), m.toString());
            assertTrue(m.pairWithLink().endsWith(Measurement.SINGLE_GPU), m.pairWithLink());
        }
        ObjectNode root = (ObjectNode) mapper.readTree(Fixtures.NCCL_TESTS.toFile());
        ArrayNode devices = (ArrayNode) root.path("config").path("devices");
        while (devices.size() > 2) {
            devices.remove(2);
        }
        ((ObjectNode) devices.get(1)).put("device", 0);
        ((ObjectNode) root.path("config")).put("ngpus", 1);
        Path file = dir.resolve("two-ranks-gpu0.json");
        mapper.writeValue(file.toFile(), root);
        List<Measurement> json = Compare.read(file, MIB_256).measurements();
        assertFalse(json.isEmpty());
        assertTrue(json.stream().allMatch(m -> m.key().pair().equals("0,0") && m.singleGpu()), json.toString());
        assertTrue(Compare.read(Fixtures.NCCL_TESTS, MIB_256).measurements().stream().noneMatch(Measurement::singleGpu),
                "eight GPUs measure the interconnect");
        ((ObjectNode) devices.get(1)).put("hostname", "other-host");
        mapper.writeValue(file.toFile(), root);
        List<Measurement> twoHosts = Compare.read(file, MIB_256).measurements();
        assertTrue(twoHosts.stream().allMatch(m -> m.key().pair().equals("synthetic-host:0,other-host:0")
                && !m.singleGpu()), "device 0 of two hosts is two GPUs: " + twoHosts);
        assertTrue(NcclTestsImport.singleGpu("0"), "one rank");
        assertTrue(NcclTestsImport.singleGpu("hostA:3,hostA:3"));
        assertFalse(NcclTestsImport.singleGpu("hostA:0,hostB:0"), "device 0 of two hosts is two GPUs");
    }
}
