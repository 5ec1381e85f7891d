package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.Fixtures;
import io.p2pbench.results.ResultMigration;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, the input side: values that made an internal error (exit 1), or made a command spin until the
 * heap ran out, are one line naming the value and what is accepted, exit 2 (docs/hardening.md lists them).
 */
class InputBoundsCliTest {
    private static final String EIGHT_GPUS = "src/test/resources/topologies/h200x8-nv18-r580.json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path work;

    // ------------------------------------------------------------------ options

    @Test
    void aListOfOnlySeparatorsIsOneLineNotAnInternalError() {
        // Was: internal error: IndexOutOfBoundsException (--pairs, --strategies); --sizes , silently ran the defaults.
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT_GPUS, "--pairs", ","),
                "--pairs ',' lists nothing, only separators", "e.g. 0-1,1-0");
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT_GPUS, "--sizes", ",,"), "--sizes ',,' lists nothing");
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT_GPUS, "--paths", ","), "--paths ',' lists nothing");
        assertOneLine(run("whatif", "--reference", "all", "--strategies", ",", "--out", work.toString()),
                "--strategies ',' lists nothing", "DP, ZERO1, ZERO2, ZERO3 (FSDP), TP, PP");
        assertEquals(0, run("run", "--dry-run", "--topology", EIGHT_GPUS, "--pairs", "0-1,").code(),
                "a list with a value and a trailing comma is the value");
    }

    @Test
    void aWordOrAPathIsQuotedAsTyped() {
        // Found by tools/hardening-sweep.sh: the path word was quoted upper-cased, an empty --topology not at all.
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT_GPUS, "--paths", "nccl,abc"), "unknown path 'abc'");
        assertOneLine(run("run", "--dry-run", "--topology", ""), "--topology '' is empty");
    }

    @Test
    void aGroupOfNineHundredRanksIsOneLineNotAStackOverflow() {
        // Was: internal error: StackOverflowError, from the regular expression that checked the whole list.
        String group = String.join(",", Collections.nCopies(950, "0"));
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT_GPUS, "--group", group),
                "has 950 ranks; a collective runs on one machine with at most 256 ranks");
        // Deep enough to overflow any thread's stack in the old expression, the test runner's included.
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT_GPUS, "--group",
                String.join(",", Collections.nCopies(100_000, "0"))), "has 100000 ranks");
        assertOneLine(run("run", "--dry-run", "--topology", EIGHT_GPUS, "--group", "0,,1"), "group '0,,1' is malformed");
        assertEquals(0, run("run", "--dry-run", "--topology", EIGHT_GPUS, "--group", "0, 1 ,2,3").code());
    }

    // ------------------------------------------------------------------ imports

    @Test
    void anNcclTestsSizeBeyond64BitsIsOneLineNamingTheFile() throws Exception {
        // Was: internal error: NumberFormatException (printed output); the JSON form was read as a wrapped size.
        String huge = "99999999999999999999999";
        Path text = Files.writeString(work.resolve("big.txt"), Files.readString(Fixtures.NCCL_TESTS_TEXT)
                .replace("   268435456 ", "   " + huge + " "));
        Path json = Files.writeString(work.resolve("big.json"), Files.readString(Fixtures.NCCL_TESTS)
                .replace("\"size\":268435456", "\"size\":" + huge));
        assertTrue(Files.readString(text).contains(huge) && Files.readString(json).contains(huge), "the fixtures changed");
        for (Path file : new Path[] {text, json}) {
            assertOneLine(run("compare", file.toString(), Fixtures.X8.toString(), "--nccl-tests-op", "ALL_REDUCE",
                    "--out", work.resolve("c").toString()), file + ": nccl-tests size " + huge
                    + " is not a transfer size; expected a whole number of bytes from 1 to");
        }
        Path zero = Files.writeString(work.resolve("zero.json"), Files.readString(Fixtures.NCCL_TESTS)
                .replace("\"size\":268435456", "\"size\":0"));
        assertOneLine(run("compare", zero.toString(), Fixtures.X8.toString(), "--out", work.resolve("c").toString()),
                "nccl-tests size 0 is not a transfer size");
    }

    @Test
    void anNcclTestsRunThatWouldNameAMillionGpusOrHadWrongDataInPlaceIsRefused() throws Exception {
        // Was: -g 10^9 in the JSON's config made the reader list 10^9 devices: 23 s, then out of memory.
        Path many = Files.writeString(work.resolve("many.json"), Files.readString(Fixtures.NCCL_TESTS)
                .replace("\"ngpus\":8", "\"ngpus\":1000000000"));
        assertOneLine(run("compare", many.toString(), Fixtures.X8.toString(), "--out", work.resolve("c").toString()),
                many + ": config.ngpus x config.nthreads is 1000000000 x 1 GPUs per process", "at most 256");
        // Was: only the out-of-place #wrong column was read, so wrong data in place passed as a baseline.
        String text = Files.readString(Fixtures.NCCL_TESTS_TEXT);
        int row = text.indexOf("   268435456 ");
        String line = text.substring(row, text.indexOf('\n', row));
        String wrong = line.substring(0, line.lastIndexOf(' ')) + " 7";
        Path inPlace = Files.writeString(work.resolve("inplace.txt"), text.replace(line, wrong));
        assertOneLine(run("compare", inPlace.toString(), Fixtures.X8.toString(), "--nccl-tests-op", "ALL_REDUCE",
                "--out", work.resolve("c").toString()), inPlace + ": nccl-tests found 7 wrong elements (#wrong) at size "
                + "268435456");
    }

    @Test
    void anNvbandwidthBufferSizeThatIsNoSizeIsOneLine() throws Exception {
        // Was: read as a buffer of 0 B (or a wrapped product), then "no measurement in common ... 0 B was assumed".
        String json = Files.readString(Fixtures.NVBANDWIDTH);
        for (String bad : new String[] {"0", "-1", "1152921504606846976", "\"big\""}) {
            String withSize = json.replaceFirst("\"nvbandwidth\"\\s*:\\s*\\{",
                    java.util.regex.Matcher.quoteReplacement("\"nvbandwidth\": {\"bufferSize\": " + bad + ","));
            Path file = Files.writeString(work.resolve("nvb" + Math.abs(bad.hashCode()) + ".json"), withSize);
            assertOneLine(run("compare", file.toString(), Fixtures.X8.toString(), "--out", work.resolve("c").toString()),
                    file + ": nvbandwidth.bufferSize " + bad + " (MiB) is not a buffer size");
        }
    }

    // ------------------------------------------------------------------ manifests

    /** A format 2 copy of the one-GPU fixture, its manifest as a tree to change. */
    private Path format2(String name) throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, work.resolve(name));
        ResultMigration.migrate(dir);
        return dir;
    }

    private static ObjectNode manifest(Path dir) throws Exception {
        return (ObjectNode) MAPPER.readTree(dir.resolve("manifest.json").toFile());
    }

    private static void write(Path dir, ObjectNode manifest) throws Exception {
        MAPPER.writeValue(dir.resolve("manifest.json").toFile(), manifest);
    }

    private CliTest.Result report(Path dir) {
        return run("report", dir.toString(), "--out", work.resolve("r-" + dir.getFileName()).toString());
    }

    @Test
    void aManifestWithoutStartedAtIsOneLine() throws Exception {
        // Was: internal error: NullPointerException, from the report's table of runs.
        Path dir = format2("nostart");
        ObjectNode m = manifest(dir);
        m.remove("startedAt");
        write(dir, m);
        assertOneLine(report(dir), dir.resolve("manifest.json") + " has no \"startedAt\"", "2026-12-02T14:27:49Z");
        m.put("startedAt", "yesterday");
        write(dir, m);
        assertOneLine(report(dir), "startedAt 'yesterday' is not a UTC time");
        m.put("startedAt", "2026-01-01T00:00:00Z").remove("state");
        write(dir, m);
        assertOneLine(report(dir), "has no \"state\"");
        assertFalse(Files.exists(work.resolve("r-nostart/summary.md")));
    }

    @Test
    void aManifestGroupOfAThousandRanksIsOneLine() throws Exception {
        // Was: internal error: StackOverflowError while the entry's spec was read.
        Path dir = format2("thousand");
        ObjectNode m = manifest(dir);
        String group = String.join(",", Collections.nCopies(1000, "0"));
        boolean changed = false;
        for (var e : m.withArray("entries")) {
            ObjectNode params = (ObjectNode) e.path("combination").path("params");
            if ("ok".equals(e.path("status").asText()) && params.has("group")) {
                params.put("group", group);
                changed = true;
            }
        }
        assertTrue(changed, "the fixture has collectives");
        write(dir, m);
        assertOneLine(report(dir), dir.resolve("manifest.json") + ": entry ", "has 1000 ranks; a collective runs on one "
                + "machine with at most 256 ranks");
    }

    @Test
    void aSizeOfZeroIsRefusedAtOnceNamingTheFileAndTheField() throws Exception {
        // Was: the size axis ran from log2(0), minus infinity: 40-70 s, then "out of memory ... give it more heap".
        for (long bad : new long[] {0, -4, 1L << 60}) {
            Path dir = format2("size" + Long.hashCode(bad));
            ObjectNode m = manifest(dir);
            ((ObjectNode) m.withArray("entries").get(0).path("combination")).put("sizeBytes", bad);
            write(dir, m);
            assertOneLine(report(dir), dir.resolve("manifest.json") + ": entries[0].combination.sizeBytes " + bad
                    + " is not a transfer size: expected a whole number of bytes from 1 to 1125899906842624 (1024 TiB)");
        }
    }

    @Test
    void aGzipBombIsRefusedNamingTheFile() throws Exception {
        // Was: read whole into the heap (3 MB of gzip expand to 3 GB), then "out of memory" without the file's name.
        Path dir = format2("bomb");
        Path samples = Fixtures.find(dir.resolve("samples"), "peer-bw-CE_P2P_READ-0-0-4KiB");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(samples))) {
            out.write("{\"batches\":[".getBytes(StandardCharsets.UTF_8));
            byte[] spaces = new byte[1 << 20];
            java.util.Arrays.fill(spaces, (byte) ' ');
            for (int i = 0; i < 80; i++) {
                out.write(spaces);
            }
            out.write("]}".getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(Files.size(samples) < 1 << 20, "a small file that expands to 80 MiB");
        assertOneLine(report(dir), samples + " expands to more than 64 MiB when gunzipped", "a gzip bomb?");
    }

    @Test
    void aSamplesFileThatIsAFifoIsOneLineNotAHang() throws Exception {
        // Was: the reader opened the FIFO and waited for a writer for ever.
        Path dir = format2("fifo");
        Path samples = Fixtures.find(dir.resolve("samples"), "peer-bw-CE_P2P_READ-0-0-4KiB");
        Files.delete(samples);
        assumeTrue(new ProcessBuilder("mkfifo", samples.toString()).start().waitFor() == 0, "mkfifo is not available");
        CliTest.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> report(dir));
        assertOneLine(r, samples + " is not a regular file (a folder, FIFO, device or socket)");
    }
}
