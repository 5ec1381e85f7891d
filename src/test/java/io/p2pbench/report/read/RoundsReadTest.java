package io.p2pbench.report.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.p2pbench.report.read.BadInputException;
import io.p2pbench.results.ResultFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An entry measured in rounds reads as one measurement per row with every round's samples kept apart. */
class RoundsReadTest {
    private static final Path RUN = Path.of("results/h200x1-single-r580/2026-12-02T16-52-40Z");

    @TempDir
    Path work;

    /** A copy of a committed quick run whose first bandwidth entry lists its files as two rounds. */
    private Path twoRounds(String secondSamples) throws Exception {
        Path dir = work.resolve("run");
        try (Stream<Path> files = Files.walk(RUN)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path to = dir.resolve(RUN.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        ObjectNode manifest = (ObjectNode) ResultFolder.mapper().readTree(dir.resolve("manifest.json").toFile());
        for (var node : manifest.withArray("entries")) {
            ObjectNode e = (ObjectNode) node;
            if (e.path("samplesFile").isTextual() && e.path("status").asText().equals("ok")) {
                ArrayNode rounds = e.putArray("rounds");
                ObjectNode r1 = rounds.addObject();
                r1.put("status", "ok").put("jmhFile", e.get("jmhFile").asText())
                        .put("samplesFile", e.get("samplesFile").asText());
                ObjectNode r2 = r1.deepCopy();
                r2.put("samplesFile", secondSamples == null ? e.get("samplesFile").asText() : secondSamples);
                rounds.add(r2);
                break;
            }
        }
        Files.writeString(dir.resolve("manifest.json"), manifest.toPrettyString());
        return dir;
    }

    @Test
    void anEntryOfTwoRoundsReadsAsOneRowOfTwoRounds() throws Exception {
        ResultData plain = ResultReader.read(RUN);
        ResultData read = ResultReader.read(twoRounds(null));
        Measurement two = read.measurements().stream().filter(m -> m.roundCount() == 2).findFirst().orElseThrow();
        Measurement one = plain.measurements().stream().filter(m -> m.key().equals(two.key())).findFirst()
                .orElseThrow();
        assertEquals(2 * one.samples().length, two.samples().length);
        assertTrue(two.samplesFrom().endsWith(", 2 rounds"), two.samplesFrom());
        assertEquals(plain.measurements().size(), read.measurements().size());
    }

    @Test
    void aRoundNamingAFileOutsideItsFolderIsRefused() throws Exception {
        Path dir = twoRounds("../../outside.json.gz");
        BadInputException e = assertThrows(BadInputException.class, () -> ResultReader.read(dir));
        assertTrue(e.getMessage().contains(".rounds[1].samplesFile '../../outside.json.gz' leads out of the folder"),
                e.getMessage());
    }
}
