package io.p2pbench.report.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names made from input text: bounded, apart when their inputs differ, and never over a file of the same output. */
class FileNamesTest {
    @TempDir
    Path work;

    @Test
    void aLongNameKeepsItsStartAndAHashOfTheWhole() {
        String hosts = "node-a.cluster.example.org:0,".repeat(16);
        String a = FileNames.bounded(hosts + "x");
        String b = FileNames.bounded(hosts + "y");
        assertEquals(FileNames.MAX_STEM, a.length());
        assertTrue(a.startsWith("node-a.cluster.example.org:0,node-a"), a);
        assertNotEquals(a, b, "two long names with one start stay apart");
        assertEquals("bandwidth-peer-0-1", FileNames.bounded("bandwidth-peer-0-1"), "a short name is kept as it is");
        assertEquals(FileNames.MAX_STEM, Charts.stem(hosts).length());
    }

    @Test
    void aNameTakenInTheFolderGetsANumber() throws Exception {
        assertEquals(work.resolve("compare-x.svg"), FileNames.fresh(work, "compare-x", ".svg"));
        Files.writeString(work.resolve("compare-x.svg"), "");
        assertEquals(work.resolve("compare-x-2.svg"), FileNames.fresh(work, "compare-x", ".svg"));
        Files.writeString(work.resolve("compare-x-2.svg"), "");
        assertEquals(work.resolve("compare-x-3.svg"), FileNames.fresh(work, "compare-x", ".svg"));
        assertEquals(work.resolve("x.json"), FileNames.fresh(work, "", ".json"), "an empty stem still names a file");
    }
}
