package io.p2pbench.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.read.Measurement;
import io.p2pbench.report.read.ResultData;
import io.p2pbench.report.read.ResultReader;
import io.p2pbench.report.render.TextMatrices;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
    @TempDir
    Path out;

    private static List<Measurement> of(ResultData d) {
        return d.measurements();
    }

    @Test
    void sizeAxisIsLabelledInBinaryUnits() {
        assertEquals("4 KiB", Charts.sizeLabel(12));
        assertEquals("1 MiB", Charts.sizeLabel(20));
        assertEquals("1 GiB", Charts.sizeLabel(30));
        assertEquals("3 MiB", Charts.sizeLabel(Charts.log2(3L << 20)));
    }

    @Test
    void eightGpuFixtureGetsEveryKindOfChartAsPngAndSvg() throws Exception {
        ResultData d = ResultReader.read(Fixtures.X8);
        List<Charts.ChartFile> charts = Charts.forMachine(d, of(d), out, "");
        Set<String> names = charts.stream().map(c -> c.svg().getFileName().toString()).collect(Collectors.toSet());
        assertTrue(names.containsAll(Set.of("bandwidth-peer-0-1.svg", "bandwidth-peer-0-0.svg", "latency-p99-peer-0-1.svg",
                "p2p-on-off-staged-0-1.svg", "heatmap-CE_P2P_READ-256MiB.svg", "busbw-nccl.svg",
                "busbw-allreduce-ring.svg", "busbw-exchange.svg")), names.toString());
        for (Charts.ChartFile c : charts) {
            String svg = Files.readString(c.svg(), StandardCharsets.UTF_8);
            assertTrue(svg.startsWith("<svg") && svg.contains("<text") && svg.contains("<rect"), c.svg() + " is not an SVG drawing");
            assertTrue(svg.contains("h200x8-nv18-r580 (8x NVIDIA H200)"), "the picture names the machine: " + c.svg());
            assertTrue(c.title().contains("h200x8-nv18-r580 (8x NVIDIA H200)"), "title names the machine: " + c.title());
        }
        String p2p = charts.stream().filter(c -> c.svg().getFileName().toString().startsWith("p2p")).findFirst()
                .orElseThrow().title();
        assertTrue(p2p.contains("GPU0→GPU1 (NV18)"), "the comparison uses a pair of distinct GPUs: " + p2p);
    }

    @Test
    void oneGpuChartsSayTheyMeasureNoInterconnect() throws Exception {
        ResultData d = ResultReader.read(Fixtures.X1);
        List<Charts.ChartFile> charts = Charts.forMachine(d, of(d), out, "x1-");
        assertTrue(charts.stream().filter(c -> c.svg().getFileName().toString().contains("peer"))
                .allMatch(c -> c.title().contains(Measurement.SINGLE_GPU)));
        assertTrue(charts.stream().allMatch(c -> c.svg().getFileName().toString().startsWith("x1-")));
        assertTrue(charts.stream().filter(c -> c.svg().getFileName().toString().startsWith("x1-busbw"))
                .allMatch(c -> c.title().contains(Measurement.SINGLE_GPU)), "the quick preset's single-GPU collectives");
        // One rank: bus bandwidth is 0 by definition, so the NCCL chart draws algorithm bandwidth and says why.
        assertFalse(Files.exists(out.resolve("x1-busbw-nccl.svg")));
        String nccl = Files.readString(out.resolve("x1-algbw-nccl.svg"), StandardCharsets.UTF_8);
        assertTrue(nccl.contains("bus bandwidth is 0 by definition"), nccl);
        // The ring on 0,0,0,0 has four ranks: bus bandwidth means something there.
        assertTrue(Files.exists(out.resolve("x1-busbw-allreduce-ring.svg")));
    }

    @Test
    void busBandwidthChartOnlyWithCollectives() throws Exception {
        ResultData d = ResultReader.read(Fixtures.X1);
        List<Measurement> transfers = of(d).stream().filter(m -> !ResultReader.COLLECTIVE_KINDS.contains(m.key().kind()))
                .toList();
        List<Charts.ChartFile> charts = Charts.forMachine(d, transfers, out, "");
        assertFalse(charts.stream().anyMatch(c -> c.svg().getFileName().toString().contains("busbw")));
    }

    @Test
    void heatmapLeavesTheDiagonalAndSkippedPairsBlank() throws Exception {
        ResultData d = ResultReader.read(Fixtures.X8);
        List<Measurement> matrix = TextMatrices.matrixCells(of(d)).stream()
                .filter(m -> m.key().direction().equals("one-way")).toList();
        List<Integer> gpus = Charts.gpuIndices(d.topology(), matrix);
        List<Number[]> cells = Charts.heatmapCells(matrix, gpus);
        // 64 pairs (0-0 and 0-1 from the sweep, which measured them at 256 MiB too), 8 on the diagonal, 3-5 and
        // 5-3 skipped.
        assertEquals(64 - 8 - 2, cells.size());
        // Source 3 is row 7 - 3 = 4 from the bottom, destination 5 is column 5.
        assertFalse(cells.stream().anyMatch(c -> c[0].intValue() == 5 && c[1].intValue() == 4));
        assertTrue(cells.stream().anyMatch(c -> c[0].intValue() == 5 && c[1].intValue() == 7), "0->5 is measured");
        assertFalse(cells.stream().anyMatch(c -> c[0].intValue() + c[1].intValue() == 7), "diagonal is blank");
    }
}
