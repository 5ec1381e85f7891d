package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.whatif.WhatIfChart;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code p2pbench whatif} end to end, and every bad input as one line with exit code 2. */
class WhatIfCliTest {
    @TempDir
    Path work;

    private String out() {
        return work.resolve("whatif").toString();
    }

    private static String rowOf(String table, String source, String strategy) {
        return table.lines().filter(l -> l.startsWith("| " + source) && l.contains("| " + strategy + " |"))
                .findFirst().orElseThrow(() -> new AssertionError("no row " + source + " / " + strategy + " in\n" + table));
    }

    @Test
    void ncclTestsSourceGivesEveryStrategyWithBytesTimesAndFlags() throws Exception {
        CliTest.Result r = run("whatif", Fixtures.NCCL_TESTS.toString(), "--model", "DENSE_70B", "--dtype", "FP16",
                "--gpus", "8", "--compute-seconds", "10", "--out", out());
        assertEquals(0, r.code(), r.err());
        String dp = rowOf(r.out(), "nccl-tests all_reduce_perf", "data parallel");
        assertTrue(dp.contains("| 245.00 GB |"), dp);
        assertTrue(dp.contains("| interpolation |") && dp.contains("inside what was measured"), dp);
        assertTrue(zero3Row(r.out()).contains("alpha-beta fit"), "1.63 GiB lies beyond 256 MiB: the fit");
        String zero3 = rowOf(r.out(), "nccl-tests all_reduce_perf", "ZeRO-3/FSDP");
        assertTrue(zero3.contains("| 367.50 GB |"), zero3);
        assertTrue(zero3.contains("all-gather and reduce-scatter from all-reduce bus bandwidth"), zero3);
        assertTrue(zero3.contains("extrapolated: 1.63 GiB all-gather outside the measured 1 MiB..256 MiB"), zero3);
        assertTrue(r.out().contains("share of a step (compute 10.000 s)"), r.out());
        assertTrue(Files.readString(work.resolve("whatif/whatif.md")).contains("Made by `p2pbench whatif "));
    }

    private static String zero3Row(String table) {
        return rowOf(table, "nccl-tests all_reduce_perf", "ZeRO-3/FSDP");
    }

    @Test
    void referenceMachinesShowTheNvlinkPcieGapAndAreLabelled() {
        CliTest.Result r = run("whatif", "--reference", "h200x8-nvlink-nvls,rtx5090x8-pcie5", "--strategies", "DP",
                "--out", out());
        assertEquals(0, r.code(), r.err());
        String nvlink = rowOf(r.out(), "8x H200 NVLink", "data parallel");
        String pcie = rowOf(r.out(), "8x RTX 5090 PCIe Gen5", "data parallel");
        assertTrue(nvlink.contains("public reference, not measured here") && pcie.contains("public reference, not measured here"));
        assertTrue(pcie.contains("extrapolated: 25 MiB all-reduce outside the measured 1 GiB only"), pcie);
        // PCIe: 245e9 bytes at 28 GB/s (held at 1 GiB) = 8.750 s.
        assertTrue(pcie.contains("| 8.750 s |"), pcie);
    }

    @Test
    void singleGpuResultsAreUsableOnlyWithTheExtrapolationFlagAndSaySo() throws Exception {
        String folder = "results/h200x1-single-r580/2026-12-02T14-44-42Z";
        assertOneLine(run("whatif", folder, "--gpus", "8", "--out", out()), "--gpus 8",
                "measured all-reduce on 4 ranks only", "--extrapolate-gpus");
        CliTest.Result r = run("whatif", folder, "--gpus", "8", "--extrapolate-gpus", "--strategies", "DP", "--out", out());
        assertEquals(0, r.code(), r.err());
        String dp = rowOf(r.out(), "h200x1-single-r580", "data parallel");
        assertTrue(dp.contains("single GPU: not an interconnect measurement"), dp);
        assertTrue(dp.contains("group of 8 predicted from 4 measured ranks"), dp);
        String first = r.out().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("h200x1-single-r580") && first.endsWith("; single GPU: not an interconnect measurement"),
                "the first line says it as the table does: " + first);
        String svg = Files.readString(work.resolve("whatif/whatif.svg"));
        assertTrue(svg.contains("(single GPU: not an interconnect measurement)"), svg);
    }

    @Test
    void chartIsDrawnAsSvgWithTextAsText() throws Exception {
        CliTest.Result r = run("whatif", "--reference", "all", "--out", out());
        assertEquals(0, r.code(), r.err());
        String svg = Files.readString(work.resolve("whatif/whatif.svg"));
        assertTrue(svg.contains("<svg") && svg.contains("<rect") && svg.contains(">data parallel</text>"), svg);
        assertTrue(Files.readString(work.resolve("whatif/whatif.md")).contains("(whatif.svg)"));
    }

    @Test
    void validateWritesTheLeaveOneOutTable() {
        CliTest.Result r = run("whatif", "--validate", Fixtures.NCCL_TESTS.toString(), "--reference", "all", "--out", out());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# p2pbench whatif --validate"), r.out());
        assertTrue(r.out().contains("| 8x H200 NVLink (NVLS) (public reference, not measured here): "), r.out());
        assertTrue(Files.exists(work.resolve("whatif/whatif-validate.md")));
    }

    @Test
    void badInputIsOneLineExitTwo() {
        String nccl = Fixtures.NCCL_TESTS.toString();
        assertOneLine(run("whatif", nccl, "--model", "GPT5", "--out", out()), "model 'GPT5'", "DENSE_70B");
        assertOneLine(run("whatif", nccl, "--strategies", "DP,EP", "--out", out()), "strategy 'EP'", "ZERO3");
        assertOneLine(run("whatif", nccl, "--gpus", "0", "--out", out()), "--gpus 0", "2 to 1024");
        assertOneLine(run("whatif", nccl, "--gpus", "-4", "--out", out()), "--gpus -4");
        assertOneLine(run("whatif", nccl, "--params", "-70B", "--out", out()), "--params '-70B'", "70B");
        assertOneLine(run("whatif", nccl, "--params", "0", "--out", out()), "--params '0'");
        assertOneLine(run("whatif", nccl, "--layers", "0", "--out", out()), "--layers 0 is not from 1 to 100000");
        // Before: "message size must be positive, was 0" (no option named), and a TP row of 469762048 GB.
        assertOneLine(run("whatif", nccl, "--params", "1", "--layers", "80", "--hidden", "8192", "--tokens", "4096",
                "--strategies", "ZERO3", "--out", out()), "--layers 80 splits 2 B of gradients", "at most 2 layers");
        assertOneLine(run("whatif", nccl, "--micro-batches", "1000000000", "--strategies", "PP", "--out", out()),
                "--micro-batches 1000000000 is more than the 4096 tokens of a step");
        assertOneLine(run("whatif", nccl, "--layers", "1000000000", "--out", out()), "--layers 1000000000 is not from 1");
        assertOneLine(run("whatif", nccl, "--tokens", "9000000000000000000", "--out", out()), "--tokens");
        assertOneLine(run("whatif", nccl, "--compute-seconds", "-1", "--out", out()), "--compute-seconds -1 must be a positive number");
        assertOneLine(run("whatif", nccl, "--dtype", "FP8", "--out", out()), "gradient dtype 'FP8'", "BF16");
        assertOneLine(run("whatif", nccl, "--method", "spline", "--out", out()), "--method 'spline'");
        assertOneLine(run("whatif", nccl, "--gpus", "4", "--out", out()), "--gpus 4", "8 ranks only",
                "--extrapolate-gpus");
        assertOneLine(run("whatif", Fixtures.NVBANDWIDTH.toString(), "--out", out()), "has no all-reduce bus bandwidth",
                "data parallel");
        assertOneLine(run("whatif", "--reference", "dgx-b200", "--out", out()), "--reference 'dgx-b200'",
                "h200x8-nvlink-nvls");
        assertOneLine(run("whatif", "--reference", "all", "--gpus", "16", "--out", out()), "no reference machine has 16");
        assertOneLine(run("whatif", "--out", out()), "no source");
        assertOneLine(run("whatif", work.resolve("missing").toString(), "--out", out()), "does not exist");
        assertOneLine(run("whatif", nccl, "--params", "70B", "--strategies", "TP", "--out", out()),
                "tensor parallel needs --layers");
    }

    /** The terminal and whatif.md start with one plain line per source, then say which references --gpus left out. */
    @Test
    void plainLinesComeFirstAndSayWhatGpusLeftOut() throws Exception {
        CliTest.Result r = run("whatif", "--reference", "all", "--out", out());
        assertEquals(0, r.code(), r.err());
        java.util.List<String> lines = r.out().lines().toList();
        assertEquals("8x H200 NVLink (NVLS) (public reference, not measured here): data-parallel gradient sync ≈ 0.87 s "
                + "per step", lines.get(0));
        assertEquals("8x RTX 5090 PCIe Gen5 (public reference, not measured here): data-parallel gradient sync ≈ 8.75 s "
                + "per step", lines.get(2));
        assertTrue(lines.get(1).contains("DENSE_70B in FP16 does not fit a GPU's 150.11 GB under data parallel, "
                + "ZeRO-1/2"), lines.get(1));
        assertEquals("--gpus 8 leaves out 4x RTX 5090 PCIe Gen5 (4 GPUs), 4x RTX 4090 PCIe Gen4 (4 GPUs): public "
                + "references are predicted for the GPU count they were measured on; add --extrapolate-gpus to include "
                + "them (flagged)", lines.get(4));
        assertEquals("", lines.get(5));
        String md = Files.readString(work.resolve("whatif/whatif.md"));
        assertTrue(md.startsWith("# p2pbench whatif\n\n" + lines.get(0) + "  \n"), md);
        String zero3 = rowOf(r.out(), "8x H200 NVLink", "ZeRO-3/FSDP");
        assertTrue(zero3.contains("| ≥ 780.56 ms | none: one value per size; the time is a lower bound |"), zero3);
    }

    /**
     * On the committed ring sweep (batches with skew) every interval contains its estimate; the 4x RTX 4090
     * curve's 3-size fit, extrapolated 10x down to 25 MiB buckets, gives none and says why.
     */
    @Test
    void intervalsContainTheirEstimateOrAreWithheldWithTheReason() {
        CliTest.Result r = run("whatif", "results/h200x1-single-r580/2026-12-02T17-50-12Z", "--gpus", "4", "--out",
                out());
        assertEquals(0, r.code(), r.err());
        int checked = 0;
        for (String row : r.out().lines().filter(l -> l.startsWith("| h200x1-single-r580/2026-12-02T17-50-12Z | ")
                && l.contains(" .. ")).toList()) {
            String[] cells = row.split("\\|");
            double estimate = seconds(cells[5].strip());
            String[] ends = cells[6].strip().split(" \\.\\. ");
            assertTrue(seconds(ends[0]) <= estimate && estimate <= seconds(ends[1]), row);
            checked++;
        }
        assertTrue(checked >= 3, "rows with an interval: " + checked + "\n" + r.out());
        CliTest.Result pcie = run("whatif", "--reference", "rtx4090x4-pcie4", "--gpus", "4", "--strategies", "DP",
                "--out", out());
        assertEquals(0, pcie.code(), pcie.err());
        assertTrue(rowOf(pcie.out(), "4x RTX 4090", "data parallel").contains("| 9.017 s | none: a fit on 3 sizes has "
                + "1 degree of freedom, and --validate cannot check it; 25 MiB is 10.2x below the measured 256 MiB..1 GiB "
                + "(3 sizes), where the fit is not checked; 14.4 MiB is 17.8x below"), pcie.out());
    }

    /** {@code 279.79 ms}, {@code 3.778 s}, {@code 1.17 ms}, {@code 364.7 µs} in seconds. */
    private static double seconds(String text) {
        String[] t = text.split(" ");
        double v = Double.parseDouble(t[0]);
        return switch (t[1]) {
            case "s" -> v;
            case "ms" -> v * 1e-3;
            case "µs" -> v * 1e-6;
            default -> throw new AssertionError(text);
        };
    }

    /** The example of docs/whatif.md (plain lines and table) is what the command prints today, unedited. */
    @Test
    void docsExampleIsWhatTheCommandPrints() throws Exception {
        String doc = Files.readString(Path.of("docs/whatif.md"));
        String example = doc.substring(doc.indexOf("DENSE_70B, FP16, 8 GPUs, from the two 8-GPU references"),
                doc.indexOf("## Validation (leave-one-out)"));
        CliTest.Result r = run("whatif", "--model", "DENSE_70B", "--dtype", "FP16", "--gpus", "8", "--reference",
                "h200x8-nvlink-nvls,rtx5090x8-pcie5", "--out", out());
        assertEquals(0, r.code(), r.err());
        java.util.List<String> shown = example.lines().filter(l -> l.startsWith("8x ") || l.startsWith("| 8x ")).toList();
        assertEquals(14, shown.size(), "4 plain lines and 10 rows: " + shown);
        for (String line : shown) {
            assertTrue(r.out().lines().anyMatch(line::equals), "docs/whatif.md shows a line the command does not "
                    + "print:\n" + line + "\n--- printed:\n" + r.out());
        }
    }
}
