package io.p2pbench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a test leaves the table it measured (what docs quote): {@code target/test-notes/NAME.txt}, written anew
 * each run, so that {@code mvn verify}'s output holds only the build's own lines. The test's assertions carry the
 * same figures in their messages when they fail.
 */
public final class TestNotes {
    /** The folder of the notes, under the build's output. */
    public static final Path DIR = Path.of("target", "test-notes");

    private TestNotes() {}

    /** Writes {@code text} as the note {@code name} (e.g. {@code TimePredictorTest-runs}) and returns its file. */
    public static Path write(String name, CharSequence text) {
        try {
            Files.createDirectories(DIR);
            Path file = DIR.resolve(name + ".txt");
            Files.writeString(file, text, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
