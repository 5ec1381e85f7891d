package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.results.AtomicFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk (issue 25): the one line names the file that could not be written and why, and nothing
 * half-done is left behind: no temporary files, no report without its summary, no migration half-way.
 * Made with a small tmpfs, which needs root to mount; skipped, with the reason, elsewhere.
 */
class FullDiskCliTest {
    @TempDir
    Path work;

    private Path disk;

    @BeforeEach
    void mountASmallDisk() throws Exception {
        disk = Files.createDirectories(work.resolve("small-disk"));
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.toString())
                .redirectErrorStream(true).start();
        String said = new String(m.getInputStream().readAllBytes());
        assumeTrue(m.waitFor(30, TimeUnit.SECONDS) && m.exitValue() == 0,
                "cannot mount a small tmpfs here (needs root): " + said);
    }

    @AfterEach
    void unmount() throws Exception {
        new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor(30, TimeUnit.SECONDS);
    }

    /** Fills the disk, then frees {@code freeBytes} of it again. */
    private void fillLeaving(long freeBytes) throws IOException {
        Path filler = disk.resolve("filler");
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // the disk is full
        }
        try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.WRITE)) {
            ch.truncate(Math.max(0, ch.size() - freeBytes));
        }
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void anAtomicWriteOnAFullDiskNamesTheFileAndLeavesNoTemporaryFile() throws Exception {
        fillLeaving(0);
        Path target = disk.resolve("out").resolve("summary.md");
        Files.createDirectories(target.getParent());
        AtomicFiles.CannotWrite e = assertThrows(AtomicFiles.CannotWrite.class,
                () -> AtomicFiles.write(target, new byte[64 * 1024]));
        assertEquals("cannot write " + target + ": No space left on device", e.getMessage());
        assertEquals(List.of(), files(disk.resolve("out")), "no temporary file left");
    }

    @Test
    void aReportThatFillsTheDiskSaysWhichFileAndLeavesNoHalfReport() throws Exception {
        fillLeaving(96 * 1024);
        Path out = disk.resolve("report");
        CliTest.Result r = run("report", Fixtures.X8.toString(), "--out", out.toString());
        assertOneLine(r, "cannot write the report to " + out + ": No space left on device (" + out,
                "the files this report had added there were removed");
        assertFalse(Files.exists(out), "no chart without the summary that names it: what it wrote is gone, and the "
                + "folder made for it");
    }

    @Test
    void aReportThatFillsTheDiskLeavesTheEarlierReportWhole() throws Exception {
        Path out = disk.resolve("report");
        assertEquals(0, run("report", Fixtures.X1.toString(), "--out", out.toString()).code());
        List<Path> files = files(out);
        List<byte[]> before = new java.util.ArrayList<>();
        for (Path f : files) {
            before.add(Files.readAllBytes(f));
        }
        fillLeaving(96 * 1024);
        assertOneLine(run("report", Fixtures.X8.toString(), "--out", out.toString()),
                "cannot write the report to " + out + ": No space left on device");
        assertEquals(files, files(out), "the earlier report's files, no more (was: new charts replaced old ones)");
        for (int i = 0; i < files.size(); i++) {
            assertTrue(java.util.Arrays.equals(before.get(i), Files.readAllBytes(files.get(i))), files.get(i) + " changed");
        }
    }

    @Test
    void aComparisonThatFillsTheDiskSaysWhichFile() throws Exception {
        fillLeaving(16 * 1024);
        Path out = disk.resolve("compare");
        CliTest.Result r = run("compare", Fixtures.X8.toString(), Fixtures.X8.toString(), "--out", out.toString());
        assertOneLine(r, "cannot write the comparison to " + out + ": No space left on device (" + out);
        assertFalse(Files.exists(out));
    }

    @Test
    void whatifOnAFullDiskIsOneLineNamingTheFile() throws Exception {
        fillLeaving(0);
        Path out = disk.resolve("whatif");
        assertOneLine(run("whatif", Fixtures.NCCL_TESTS.toString(), "--out", out.toString()),
                "No space left on device");
    }

    @Test
    void aMigrationThatFillsTheDiskLeavesTheFolderAsItWas() throws Exception {
        Path dir = Fixtures.copy(Fixtures.X1, disk.resolve("run"));
        fillLeaving(24 * 1024); // room for a few of its .gz files, not all
        List<Path> before = files(dir);
        CliTest.Result r = run("migrate", dir.toString());
        assertOneLine(r, "1 of 1 result folder(s) could not be migrated");
        assertTrue(r.out().contains(dir + ": not migrated, left as it was: cannot write " + dir), r.out());
        assertTrue(r.out().contains(": No space left on device"), r.out());
        assertEquals(before, files(dir), "no half-written or finished .gz left, nothing deleted");
    }
}
