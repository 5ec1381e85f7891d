package io.p2pbench.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The command line in a child JVM with a working directory of its own: what a command does without
 * {@code --out} (relative to the working directory) or with an empty path is tried there, never in the
 * checkout the tests run in, whose {@code results/} and {@code charts/} are committed.
 */
final class ChildCli {
    private ChildCli() {}

    /** This JVM's class path with every entry absolute, so a child started elsewhere finds the classes. */
    static String classPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * Runs {@code p2pbench ARGS} in {@code dir}; {@code env} sets variables (a null value removes one).
     * stdout and stderr are read from files: a child that fills one pipe while we read the other never ends.
     */
    static CliTest.Result run(Path dir, Map<String, String> env, String... args) throws IOException,
            InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Djava.awt.headless=true", "-cp", classPath(),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("p2pbench-child-", ".out");
        Path err = Files.createTempFile("p2pbench-child-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            env.forEach((k, v) -> {
                if (v == null) {
                    pb.environment().remove(k);
                } else {
                    pb.environment().put(k, v);
                }
            });
            Process p = pb.start();
            // A JVM that must finish: generous, for a build machine whose cores are busy with other builds.
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the child JVM did not end");
            return new CliTest.Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
