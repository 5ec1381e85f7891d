package io.p2pbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files p2pbench writes honour the process umask like any other tool's ({@code 0644} under umask 022),
 * instead of the owner-only {@code 0600} a {@code Files.createTempFile} temporary gives its target.
 */
class AtomicFilesModeTest {
    @TempDir
    Path dir;

    @Test
    void aWrittenFileHasTheModeOfAPlainNewFileUnderThisUmask() throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView("posix"), "no POSIX permissions on " + dir);
        Set<PosixFilePermission> expected = defaultFileMode();
        Path plain = Files.createFile(dir.resolve("plain"));
        assertEquals(PosixFilePermissions.toString(expected),
                PosixFilePermissions.toString(Files.getPosixFilePermissions(plain)), "a plain new file under this umask");

        AtomicFiles.write(dir.resolve("sub/summary.md"), "text\n");
        AtomicFiles.writeGzip(dir.resolve("samples.json.gz"), "{}".getBytes(StandardCharsets.UTF_8));
        for (Path written : new Path[] {dir.resolve("sub/summary.md"), dir.resolve("samples.json.gz")}) {
            assertEquals(PosixFilePermissions.toString(expected),
                    PosixFilePermissions.toString(Files.getPosixFilePermissions(written)), written.toString());
        }
        try (Stream<Path> left = Files.walk(dir)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left");
        }
    }

    @Test
    void rewritingAFileKeepsTheDefaultMode() throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView("posix"), "no POSIX permissions on " + dir);
        Path file = dir.resolve("manifest.json");
        AtomicFiles.write(file, "1");
        AtomicFiles.write(file, "2");
        assertEquals("2", Files.readString(file));
        assertEquals(PosixFilePermissions.toString(defaultFileMode()),
                PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    /** {@code 0666} less the umask, read from a child shell ({@code sh -c umask}) so the test needs no privilege. */
    private static Set<PosixFilePermission> defaultFileMode() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "umask").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertEquals(0, p.waitFor(), "sh -c umask: " + out);
        int umask = Integer.parseInt(out, 8);
        Set<PosixFilePermission> mode = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        int allowed = 0666 & ~umask;
        for (int i = 0; i < bits.length; i++) {
            if ((allowed & (1 << i)) != 0) {
                mode.add(bits[i]);
            }
        }
        return mode;
    }
}
