package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkArchiveTest {
    @Test
    void theFirstForkWritesTheClassArchiveAndLaterForksMapIt(@TempDir Path dir) throws Exception {
        Path jsa = dir.resolve("fork.jsa");
        ForkArchive archive = new ForkArchive(jsa, true);
        assertEquals(List.of("-XX:ArchiveClassesAtExit=" + jsa), archive.jvmArgs());
        assertEquals(List.of(), archive.jvmArgs(), "a fork that did not write it is not asked again");
        Files.writeString(jsa, "archive");
        assertEquals(List.of("-XX:SharedArchiveFile=" + jsa), archive.jvmArgs());
        assertEquals(List.of(), new ForkArchive(jsa, false).jvmArgs(), "-Dp2pbench.cds=false");
        assertTrue(ForkArchive.forThisJvm().file().getFileName().toString().matches("p2pbench-fork-[0-9a-f]{16}\\.jsa"));
        Files.writeString(dir.resolve("a.jar"), "jar");
        assertTrue(ForkArchive.jarsOnly(dir.resolve("a.jar").toString()));
        assertFalse(ForkArchive.jarsOnly(dir.resolve("a.jar") + java.io.File.pathSeparator + dir),
                "a class directory (target/classes) cannot be archived");
        assertFalse(ForkArchive.hasBaseArchive(dir), "a jlink'd runtime without classes.jsa: no dynamic archive");
        Files.createDirectories(dir.resolve("lib/server"));
        Files.writeString(dir.resolve("lib/server/classes.jsa"), "base");
        assertTrue(ForkArchive.hasBaseArchive(dir));
    }
}
