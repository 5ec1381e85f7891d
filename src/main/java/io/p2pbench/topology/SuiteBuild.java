package io.p2pbench.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The commit the suite was built from, as the build wrote it into {@code io/p2pbench/build.properties}
 * (git-commit-id-maven-plugin): {@code 4d047f6}, {@code 4d047f6-dirty} when the working tree had
 * uncommitted changes, or {@code unknown} when the suite was built outside a git checkout.
 */
public final class SuiteBuild {
    /** Where the build writes the properties, on the class path. */
    static final String RESOURCE = "/io/p2pbench/build.properties";
    /** What is written when no commit is known. */
    public static final String UNKNOWN = "unknown";
    /** This suite's build, read once. */
    public static final String CURRENT = describe(load());

    private SuiteBuild() {}

    /** The build named by {@code properties} (git.commit.id.abbrev and git.dirty). */
    static String describe(Properties properties) {
        String commit = properties.getProperty("git.commit.id.abbrev", "").trim();
        if (commit.isEmpty() || commit.startsWith("${")) {
            return UNKNOWN;
        }
        return "true".equals(properties.getProperty("git.dirty", "").trim()) ? commit + "-dirty" : commit;
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = SuiteBuild.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + " from the suite's jar", e);
        }
        return p;
    }
}
