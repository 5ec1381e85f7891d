package io.p2pbench.run;

import io.p2pbench.settings.Settings;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * An application class-data-sharing archive for the benchmark forks: every fork starts the same JVM
 * with the same class path and loads the same classes (JMH, JavaCPP, the suite), so the first fork
 * of a machine writes their parsed form at exit ({@code -XX:ArchiveClassesAtExit}) and later forks map
 * it ({@code -XX:SharedArchiveFile}) instead of loading and verifying the classes again. The archive
 * lives in the temporary directory, named by a hash of the Java runtime and the class path, so a new
 * build or runtime gets a new one; a JVM that cannot use it warns and starts without it. Only a class
 * path of jars can be archived (the bundle's launcher); with a class directory it is not used.
 * {@code -Dp2pbench.cds=false} turns it off. It changes only how fast a fork starts, never what runs.
 */
public final class ForkArchive {
    /** System property that turns the archive off when {@code false}. */
    public static final String PROPERTY = Settings.CDS;

    private final Path file;
    private final boolean enabled;
    private boolean dumpRequested;

    ForkArchive(Path file, boolean enabled) {
        this.file = file;
        this.enabled = enabled;
    }

    /** The archive for forks of this JVM's runtime and class path. */
    public static ForkArchive forThisJvm() {
        String key = System.getProperty("java.home") + '\n' + System.getProperty("java.vm.version") + '\n'
                + System.getProperty("java.class.path");
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        // Class-data sharing archives classes from jars only (the bundle); a class directory
        // (target/classes under mvn -Pjmh) makes the dump fail, so it is not tried there.
        // A dynamic archive sits on top of the runtime's base archive: without one (a jlink'd runtime
        // that was not given one with -Xshare:dump) the fork that should write it fails to start
        // ("DynamicDumpSharedSpaces is unsupported when base CDS archive is not loaded"), as seen on the GPU node.
        return new ForkArchive(dir.resolve("p2pbench-fork-" + hash(key) + ".jsa"),
                jarsOnly(System.getProperty("java.class.path", "")) && hasBaseArchive(Path.of(System.getProperty("java.home")))
                        && Settings.current().classDataSharing());
    }

    /** Whether the Java runtime at {@code javaHome} has a base class-data archive (lib/server/classes.jsa). */
    static boolean hasBaseArchive(Path javaHome) {
        return Files.isRegularFile(javaHome.resolve("lib").resolve("server").resolve("classes.jsa"));
    }

    /** Whether every entry of {@code classPath} is a file (a jar), which class-data sharing needs. */
    static boolean jarsOnly(String classPath) {
        return Arrays.stream(classPath.split(File.pathSeparator))
                .allMatch(e -> !e.isEmpty() && Files.isRegularFile(Path.of(e)));
    }

    /** The archive file. */
    public Path file() {
        return file;
    }

    /**
     * JVM options for the next fork: use the archive when it exists; else let the first fork write it
     * (once per run: a fork that failed to write it is not asked again); none when turned off.
     */
    public synchronized List<String> jvmArgs() {
        if (!enabled) {
            return List.of();
        }
        if (Files.isRegularFile(file)) {
            return List.of("-XX:SharedArchiveFile=" + file);
        }
        if (!dumpRequested) {
            dumpRequested = true;
            return List.of("-XX:ArchiveClassesAtExit=" + file);
        }
        return List.of();
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
