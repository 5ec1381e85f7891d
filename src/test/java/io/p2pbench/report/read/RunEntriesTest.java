package io.p2pbench.report.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.results.Outcome;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.spec.HostCopy;
import io.p2pbench.spec.Metric;
import io.p2pbench.spec.PeerCopy;
import io.p2pbench.topology.GpuPair;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.SkipCause;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The typed entries {@link ResultReader} gives per planned combination ({@link ResultData#entries()}): the spec
 * typed, the outcome as {@link Outcome}, a skip's cause as {@link SkipCause}, files resolved in the folder.
 */
class RunEntriesTest {
    private static final Path FIXTURE = Path.of("src/test/resources/fixtures/results/synthetic-h200x1");
    private static final String OK = "peer-bw-CE_P2P_READ-0-0-4KiB";
    private static final String SKIPPED = "peer-bw-CE_P2P_WRITE-0-0-4KiB";
    private static final String SKIPPED_WITH_CAUSE = "peer-lat-CE_P2P_WRITE-0-0-4KiB";
    private static final String FAILED = "peer-bw-SM_P2P_READ-0-0-64MiB";

    @TempDir
    Path work;

    /** A copy of the synthetic one-GPU run, its manifest's entries changed by {@code edit}. */
    private Path copy(Consumer<List<ObjectNode>> edit) throws Exception {
        Path dir = work.resolve("run");
        try (Stream<Path> files = Files.walk(FIXTURE)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path to = dir.resolve(FIXTURE.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        ObjectNode manifest = (ObjectNode) ResultFolder.mapper().readTree(dir.resolve("manifest.json").toFile());
        List<ObjectNode> entries = new ArrayList<>();
        manifest.withArray("entries").forEach(e -> entries.add((ObjectNode) e));
        edit.accept(entries);
        Files.writeString(dir.resolve("manifest.json"), manifest.toPrettyString());
        return dir;
    }

    private static ObjectNode byId(List<ObjectNode> entries, String id) {
        return entries.stream().filter(e -> e.path("combination").path("id").asText().equals(id)).findFirst()
                .orElseThrow();
    }

    private static RunEntry entry(ResultData d, String id) {
        return d.entries().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void everyPlannedCombinationIsOneEntryInTheManifestsOrder() throws Exception {
        ResultData d = ResultReader.read(FIXTURE);
        assertEquals(89, d.entries().size());
        assertEquals(OK, d.entries().get(0).id());
        assertEquals(69, d.entries().stream().filter(RunEntry::ok).count());
        assertEquals(d.notMeasured().stream().map(ResultData.NotMeasured::id).toList(),
                d.entries().stream().filter(e -> !e.ok()).map(RunEntry::id).toList());
    }

    @Test
    void anOkEntryHasItsSpecTypedAndItsFilesInTheFolder() throws Exception {
        RunEntry e = entry(ResultReader.read(FIXTURE), OK);
        assertEquals(Outcome.OK, e.outcome());
        PeerCopy spec = assertInstanceOf(PeerCopy.class, e.spec());
        assertEquals(new PeerCopy(new GpuPair(0, 0), CopyPath.CE_P2P_READ, 4096, spec.binding()), spec);
        assertEquals(Metric.BANDWIDTH, e.metric());
        assertTrue(e.singleGpu());
        assertNull(e.cause());
        assertNull(e.reason());
        assertEquals(FIXTURE.resolve("jmh/001-" + OK + ".json"), e.jmhFile());
        assertEquals(FIXTURE.resolve("samples/" + OK + ".json"), e.samplesFile());
        assertEquals(List.of(new RunEntry.Round(Outcome.OK, e.jmhFile(), e.samplesFile())), e.rounds());
        assertTrue(e.serving().isEmpty() && e.partitionRun().isEmpty(), "a peer copy is neither");
    }

    @Test
    void aSkippedEntryHasItsCauseTypedRecordedOrReadFromItsReason() throws Exception {
        ResultData d = ResultReader.read(copy(entries -> byId(entries, SKIPPED_WITH_CAUSE)
                .put("skipCause", SkipCause.NO_PEER_ACCESS.name())));
        RunEntry recorded = entry(d, SKIPPED_WITH_CAUSE);
        assertEquals(Outcome.SKIPPED, recorded.outcome());
        assertEquals(SkipCause.NO_PEER_ACCESS, recorded.cause());
        assertEquals(Metric.LATENCY, recorded.metric());
        RunEntry legacy = entry(d, SKIPPED);
        assertEquals(Outcome.SKIPPED, legacy.outcome());
        assertEquals(SkipCause.NOT_APPLICABLE, legacy.cause(), "a skip recorded without its cause: its reason's");
        assertTrue(legacy.reason().startsWith("source and destination are the same GPU"), legacy.reason());
        assertEquals(CopyPath.CE_P2P_WRITE, assertInstanceOf(PeerCopy.class, legacy.spec()).path());
        assertNull(legacy.jmhFile());
        assertEquals(List.of(new RunEntry.Round(Outcome.SKIPPED, null, null)), legacy.rounds());
    }

    @Test
    void aFailedEntryHasNoCause() throws Exception {
        RunEntry e = entry(ResultReader.read(FIXTURE), FAILED);
        assertEquals(Outcome.FAILED, e.outcome());
        assertNull(e.cause());
        assertTrue(e.reason().contains("DataMismatchException"), e.reason());
        assertEquals(CopyPath.SM_P2P_READ, assertInstanceOf(PeerCopy.class, e.spec()).path());
        assertNull(e.bytesVerified());
    }

    @Test
    void aTimedOutEntryIsTimeoutWithItsReason() throws Exception {
        String id = "host-bw-PINNED-LOCAL-H2D-0-64MiB";
        Path dir = copy(entries -> {
            ObjectNode e = entries.stream().filter(x -> x.path("combination").path("kind").asText().equals("host")
                    && x.path("status").asText().equals("ok")).findFirst().orElseThrow();
            e.put("status", "timeout").put("reason", "killed after 60 s").putNull("jmhFile").putNull("samplesFile");
            ((ObjectNode) e.path("combination")).put("id", id);
        });
        ResultData d = ResultReader.read(dir);
        RunEntry e = entry(d, id);
        assertEquals(Outcome.TIMEOUT, e.outcome());
        assertNull(e.cause());
        assertEquals("killed after 60 s", e.reason());
        assertInstanceOf(HostCopy.class, e.spec());
        assertTrue(d.notMeasured().stream().anyMatch(n -> n.id().equals(id) && n.status().equals("timeout")));
    }

    @Test
    void aKindThisVersionDoesNotKnowHasNoSpec() throws Exception {
        RunEntry e = entry(ResultReader.read(FIXTURE), "future-kind-0-64MiB");
        assertEquals(Outcome.OK, e.outcome());
        assertNull(e.spec());
        assertEquals(FIXTURE.resolve("jmh/069-future-kind-0-64MiB.json"), e.jmhFile());
    }

    @Test
    void aKnownKindWhoseParametersDoNotReadIsOneLineEvenWhenNotMeasured() throws Exception {
        Path dir = copy(entries -> ((ObjectNode) byId(entries, FAILED).path("combination").path("params"))
                .put("path", "CE_TELEPORT"));
        BadInputException e = assertThrows(BadInputException.class, () -> ResultReader.read(dir));
        assertTrue(e.getMessage().startsWith(dir.resolve("manifest.json") + ": entry " + FAILED + " of kind peer "),
                e.getMessage());
        assertTrue(e.getMessage().contains("CE_TELEPORT"), e.getMessage());
    }
}
