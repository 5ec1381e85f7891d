package io.p2pbench.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileProblemTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A record as the suite's manifests are read: fields of several JSON types. */
    record Shape(String name, int count, List<Long> sizes) {}

    private static String readAs(String json) {
        JacksonException e = assertThrows(JacksonException.class, () -> MAPPER.readValue(json, Shape.class));
        return FileProblem.of(e);
    }

    @Test
    void jsonProblemsAreSaidInTheUsersTermsWithThePlace() {
        // Before: "Cannot deserialize value of type `io.p2pbench.results.RunManifest` from Array value (token ...)".
        assertEquals("a list where an object belongs at line 1, column 1", readAs("[]"));
        assertEquals("it ends early (truncated?) at line 1, column 2", readAs("{"));
        assertTrue(readAs("x{").startsWith("it is not JSON (damaged or truncated?) at line 1, column "), readAs("x{"));
        assertEquals("\"count\": text where a whole number belongs at line 1, column 10", readAs("{\"count\":\"many\"}"));
        assertTrue(readAs("{\"sizes\":[1,\"b\"]}").startsWith("\"sizes[1]\": text where a whole number belongs"),
                readAs("{\"sizes\":[1,\"b\"]}"));
        for (String json : List.of("[]", "{", "{\"count\":\"many\"}", "{\"sizes\":{}}")) {
            String said = readAs(json);
            assertFalse(said.contains("`") || said.contains("io.p2pbench") || said.contains("Jackson")
                    || said.contains("token"), said);
        }
    }

    @Test
    void fileSystemProblemsNameTheFileAndTheCauseNotTheClass() {
        assertEquals("/x/run: permission denied", FileProblem.of(new AccessDeniedException("/x/run")));
        assertEquals("/x/run: no such file or folder", FileProblem.of(new NoSuchFileException("/x/run")));
        assertEquals("disk full", FileProblem.of(new IOException("disk full\nsecond line")));
        assertEquals("an I/O error", FileProblem.of(new IOException()));
        // java.io's wording, as reading a manifest through a File gave it: "/x/manifest.json (Permission denied)".
        assertEquals("/x/manifest.json: permission denied",
                FileProblem.of(new java.io.FileNotFoundException("/x/manifest.json (Permission denied)")));
    }

    @Test
    void aFileBehindAFolderThatMayNotBeEnteredIsNotCalledAbsent(@TempDir Path dir) throws IOException {
        assumeFalse("root".equals(System.getProperty("user.name")), "root enters every folder");
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Files.writeString(locked.resolve("manifest.json"), "{}");
        assertNull(FileProblem.unreachable(locked.resolve("manifest.json")));
        assertNull(FileProblem.unreachable(dir.resolve("absent")));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        try {
            assertFalse(Files.exists(locked.resolve("manifest.json")), "what Files.exists says");
            assertEquals("permission denied", FileProblem.unreachable(locked.resolve("manifest.json")));
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
