package io.p2pbench.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.Reporter;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGINT or SIGTERM while a report writes (issue 36): the earlier report in the folder stays whole, a new
 * folder leaves nothing, one line says so, and the exit code is the signal's (130, 143). Before, the new
 * charts and summary stood beside the old ones, or 23 of 31 files without a summary, and nothing was said.
 * The report runs in a child JVM ({@link InterruptedReportHarness}) that stops once every file is written
 * but not yet in place, so the signal comes at the worst moment every time.
 */
class InterruptedReportTest {
    private static final long MUST_FINISH_SECONDS = 180;

    @TempDir
    Path work;

    /** Type, link target or SHA-256 of everything below {@code dir}, by relative path. */
    private static TreeMap<String, String> contents(Path dir) throws Exception {
        TreeMap<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> !p.equals(dir)).toList()) {
                out.put(dir.relativize(f).toString(), Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS) ? "/"
                        : HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))));
            }
        }
        return out;
    }

    private record Ended(int code, String err) {}

    /** Runs the harness into {@code out}, sends {@code signal} once the report is written but not in place. */
    private Ended interruptedReport(Path out, String signal) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
        Path ready = work.resolve("ready");
        Path err = work.resolve("harness.err");
        Process p = new ProcessBuilder(java, "-Djava.awt.headless=true", "-cp", classPath,
                InterruptedReportHarness.class.getName(), out.toString(), ready.toString(),
                Fixtures.X8.toAbsolutePath().toString()).redirectOutput(work.resolve("harness.out").toFile())
                .redirectError(err.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MUST_FINISH_SECONDS);
            while (!Files.exists(ready) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50); // polls for the file; what the test waits for is the file, not the time
            }
            assertTrue(Files.exists(ready), "the harness never got to the end of its files: " + Files.readString(err));
            assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor());
            assertTrue(p.waitFor(MUST_FINISH_SECONDS, TimeUnit.SECONDS), "the report ends on SIG" + signal);
            return new Ended(p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * INT, or TERM where this JVM ignores SIGINT (started in the background by a non-interactive shell): the
     * child inherits that, as a command started so would, and SIGINT would not reach it.
     */
    private static String interrupt() throws Exception {
        Path status = Path.of("/proc/self/status");
        if (Files.isReadable(status)) {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("SigIgn:") && (Long.parseLong(line.substring(7).strip(), 16) & 0x2) != 0) {
                    return "TERM";
                }
            }
        }
        return "INT";
    }

    @Test
    void sigintLeavesTheEarlierReportWholeAndSaysSo() throws Exception {
        Path out = work.resolve("report");
        Reporter.render(List.of(Fixtures.X1), out);
        var before = contents(out);
        String signal = interrupt();
        Ended e = interruptedReport(out, signal);
        assertEquals(signal.equals("INT") ? 130 : 143, e.code(), e.err());
        assertEquals("p2pbench: interrupted: the report was not written; " + out + " is as it was\n", e.err());
        assertEquals(before, contents(out), "the earlier report, whole: no new chart beside its summary, no staging "
                + "folder left");
    }

    @Test
    void sigtermOfAReportIntoANewFolderLeavesNothing() throws Exception {
        Path out = work.resolve("new").resolve("report");
        Ended e = interruptedReport(out, "TERM");
        assertEquals(143, e.code(), e.err());
        assertEquals("p2pbench: interrupted: the report was not written; nothing was left (" + out + " was new)\n",
                e.err());
        assertFalse(Files.exists(work.resolve("new")), "neither the folder nor the one made above it is left");
    }
}
