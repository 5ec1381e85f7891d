package io.p2pbench.report.chart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.ReportFolder;
import io.p2pbench.report.Reporter;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report --png}: where the machine has fonts, every chart also as PNG through XChart, drawn from the
 * chart's own data; where it has none, one line saying so and SVG only (tested through the font-check seam,
 * so it runs on every machine).
 */
class PngChartsTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path work;

    @Test
    void whereTheMachineHasFontsEveryChartIsAlsoASanePng() throws Exception {
        Optional<String> why = PngCharts.here().unavailable();
        assumeTrue(why.isEmpty(), () -> "no PNG on this machine: " + why.orElse(""));
        Path out = work.resolve("report");
        Reporter.Report r = Reporter.render(List.of(Fixtures.X8), null, 0, out, PngCharts.here());
        Set<String> svg = stems(out, ".svg");
        assertFalse(svg.isEmpty());
        assertEquals(svg, stems(out, ".png"), "a PNG for every SVG chart");
        assertTrue(r.pngNote().startsWith("PNG: " + svg.size() + " charts"), r.pngNote());
        try (Stream<Path> s = Files.list(out)) {
            for (Path png : s.filter(p -> p.toString().endsWith(".png")).toList()) {
                byte[] bytes = Files.readAllBytes(png);
                assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, 8), png + " is not a PNG");
                assertTrue(bytes.length > 10_000 && bytes.length < 2_000_000, png + ": " + bytes.length + " bytes");
                BufferedImage image = ImageIO.read(png.toFile());
                assertEquals(SvgChart.WIDTH, image.getWidth(), png.toString());
                assertTrue(image.getHeight() > 500 && image.getHeight() < 2000, png + ": " + image.getHeight() + " px high");
                assertTrue(colours(image) > 8, png + " is blank");
            }
        }
        assertTrue(Files.readString(out.resolve(ReportFolder.INDEX)).contains("bandwidth-peer-0-1.png"),
                "the PNGs are the report's files");
    }

    @Test
    void withoutFontsTheReportSaysSoInOneLineAndWritesSvgOnly() throws Exception {
        PngCharts noFonts = new PngCharts(() -> Optional.of("this machine has no fonts (the JDK lists no font family)"));
        Path out = work.resolve("report");
        Reporter.Report r = Reporter.render(List.of(Fixtures.X8), null, 0, out, noFonts);
        assertEquals("PNG: none written: this machine has no fonts (the JDK lists no font family); the charts are SVG "
                + "only", r.pngNote());
        assertFalse(r.pngNote().contains("\n"));
        assertTrue(stems(out, ".png").isEmpty());
        assertFalse(stems(out, ".svg").isEmpty());
    }

    /** A bandwidth chart's y axis starts at 0, as the SVG's does; a log axis (latency) is left to XChart. */
    @Test
    void aBandwidthAxisStartsAtZero() {
        SvgChart.SizeChart bandwidth = oneSize(false);
        assertEquals(0.0, PngCharts.sizeChart(bandwidth).getStyler().getYAxisMin(), "linear axis from 0");
        assertEquals(null, PngCharts.sizeChart(oneSize(true)).getStyler().getYAxisMin(), "log axis");
    }

    /**
     * A chart of one size still labels its x axis with that size: below the plot's frame, the centre column (where
     * the one size sits) holds two lines of text, the tick label and the axis title, not the title alone.
     */
    @Test
    void aOneSizeChartKeepsItsSizeLabel() throws Exception {
        Optional<String> why = PngCharts.here().unavailable();
        assumeTrue(why.isEmpty(), () -> "no PNG on this machine: " + why.orElse(""));
        BufferedImage image = ImageIO.read(new java.io.ByteArrayInputStream(PngCharts.png(oneSize(false))));
        int frame = -1;
        for (int y = 0; y < image.getHeight(); y++) {
            int dark = 0;
            for (int x = 100; x < 900; x++) {
                dark += dark(image.getRGB(x, y)) ? 1 : 0;
            }
            if (dark > 700) {
                frame = y;
            }
        }
        assertTrue(frame > 0, "the plot's frame");
        int lines = 0;
        boolean inText = false;
        for (int y = frame + 1; y < image.getHeight(); y++) {
            boolean any = false;
            for (int x = 430; x < 530; x++) {
                any |= dark(image.getRGB(x, y));
            }
            lines += any && !inText ? 1 : 0;
            inText = any;
        }
        assertEquals(2, lines, "the size's label and the axis title under the plot");
    }

    private static SvgChart.SizeChart oneSize(boolean logY) {
        return new SvgChart.SizeChart("one size", "test", List.of(), logY ? "p99 latency" : "bandwidth, GB/s", logY, logY,
                "", List.of(new SvgChart.Series("a", List.of(new SvgChart.Point(1L << 30, 480, 2)), false),
                new SvgChart.Series("b", List.of(new SvgChart.Point(1L << 30, 470, 2)), false)));
    }

    private static boolean dark(int rgb) {
        return ((rgb >> 16) & 0xff) < 128 && ((rgb >> 8) & 0xff) < 128 && (rgb & 0xff) < 128;
    }

    private static Set<String> stems(Path dir, String ext) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(ext))
                    .map(n -> n.substring(0, n.length() - ext.length())).collect(Collectors.toSet());
        }
    }

    private static long colours(BufferedImage image) {
        Set<Integer> seen = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                seen.add(image.getRGB(x, y));
            }
        }
        return seen.size();
    }
}
