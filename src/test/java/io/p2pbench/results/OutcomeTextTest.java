package io.p2pbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest's status and state words as types ({@link Outcome}, {@link RunStatus}): each word reads as its constant
 * and writes back as the same word, every manifest kept in this repository reads as the words it holds, and a word
 * the suite never writes is refused with one line naming the file, the place and the words accepted.
 */
class OutcomeTextTest {
    private static final ObjectMapper MAPPER = ResultFolder.mapper();

    @TempDir
    Path work;

    @Test
    void everyOutcomeIsTheWordManifestsHold() throws Exception {
        assertEquals(List.of("pending", "ok", "skipped", "failed", "timeout", "interrupted"),
                Arrays.stream(Outcome.values()).map(Outcome::text).toList());
        for (Outcome o : Outcome.values()) {
            assertEquals(o, Outcome.of(o.text()));
            assertEquals("\"" + o.text() + "\"", MAPPER.writeValueAsString(o));
            assertEquals(o, MAPPER.readValue("\"" + o.text() + "\"", Outcome.class));
            assertEquals(o.text(), o.toString(), "messages print the word");
        }
        assertEquals(List.of("running", "complete", "interrupted"),
                Arrays.stream(RunStatus.values()).map(RunStatus::text).toList());
        for (RunStatus s : RunStatus.values()) {
            assertEquals(s, RunStatus.of(s.text()));
            assertEquals(s, MAPPER.readValue(MAPPER.writeValueAsString(s), RunStatus.class));
        }
    }

    @Test
    void textThatIsNoOutcomeIsRefusedNotReadAsAnother() {
        for (String bad : List.of("OK", "Ok", "ok ", "success", "", "skip", "timed out")) {
            Outcome.UnknownText e = assertThrows(Outcome.UnknownText.class, () -> Outcome.of(bad));
            assertEquals("status '" + bad + "' is not one this suite writes; accepted: pending, ok, skipped, failed, "
                    + "timeout, interrupted", e.getMessage());
        }
        assertEquals("state 'done' is not one this suite writes; accepted: running, complete, interrupted",
                assertThrows(Outcome.UnknownText.class, () -> RunStatus.of("done")).getMessage());
        assertThrows(Outcome.UnknownText.class, () -> Outcome.of(null));
    }

    @Test
    void everyKeptManifestReadsAsTheWordsItHolds() throws Exception {
        List<Path> manifests = new ArrayList<>();
        for (String root : List.of("results", "src/test/resources")) {
            try (Stream<Path> s = Files.find(Path.of(root), 8, (p, a) -> p.getFileName().toString()
                    .equals("manifest.json"))) {
                s.forEach(manifests::add);
            }
        }
        assertTrue(manifests.size() >= 20, "the kept manifests: " + manifests);
        for (Path file : manifests) {
            JsonNode tree = new ObjectMapper().readTree(file.toFile());
            RunManifest m = ResultFolder.open(file.getParent()).readManifest();
            assertEquals(RunStatus.of(tree.path("state").asText()), m.runStatus(), file.toString());
            assertEquals(tree.path("state").asText(), m.state());
            for (int i = 0; i < m.entries().size(); i++) {
                String word = tree.path("entries").get(i).path("status").asText();
                assertEquals(word, m.entries().get(i).outcome().text(), file + ": entries[" + i + "]");
                assertEquals(word, m.entries().get(i).status());
            }
        }
    }

    @Test
    void anUnknownStatusInAManifestIsOneLineNamingItsPlace() throws Exception {
        Path dir = folderWith(m -> ((ObjectNode) m.withArray("entries").get(1)).put("status", "succeeded"));
        IOException e = assertThrows(IOException.class, () -> ResultFolder.open(dir).readManifest());
        assertEquals(dir.resolve("manifest.json") + ": entries[1].status 'succeeded' is not one this suite writes; "
                + "accepted: pending, ok, skipped, failed, timeout, interrupted", e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void anUnknownRoundStatusOrRunStateIsOneLineNamingItsPlace() throws Exception {
        Path rounds = folderWith(m -> {
            ObjectNode e = (ObjectNode) m.withArray("entries").get(0);
            ObjectNode round = MAPPER.createObjectNode().put("status", "partial");
            e.putArray("rounds").add(round);
        });
        assertEquals(rounds.resolve("manifest.json") + ": entries[0].rounds[0].status 'partial' is not one this "
                        + "suite writes; accepted: pending, ok, skipped, failed, timeout, interrupted",
                assertThrows(IOException.class, () -> ResultFolder.open(rounds).readManifest()).getMessage());
        Path state = folderWith(m -> m.put("state", "finished"));
        assertEquals(state.resolve("manifest.json") + ": state 'finished' is not one this suite writes; accepted: "
                        + "running, complete, interrupted",
                assertThrows(IOException.class, () -> ResultFolder.open(state).readManifest()).getMessage());
    }

    /** A copy of the kept one-GPU run's manifest, changed by {@code change}, in a folder of its own. */
    private Path folderWith(java.util.function.Consumer<ObjectNode> change) throws IOException {
        Path kept = Path.of("src/test/resources/fixtures/results/synthetic-h200x1/manifest.json");
        ObjectNode m = (ObjectNode) new ObjectMapper().readTree(kept.toFile());
        change.accept(m);
        Path dir = Files.createDirectories(work.resolve("f" + Files.list(work).count()));
        Files.writeString(dir.resolve("manifest.json"), new ObjectMapper().writeValueAsString(m));
        return dir;
    }
}
