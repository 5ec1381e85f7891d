package io.p2pbench.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The commit the suite was built from, as the build wrote it into {@code io/p2pbench/build.properties}
 * (git-commit-id-maven-plugin): {@code 4d047f6}, {@code 4d047f6-dirty} when the working tree had
 * uncommitted changes, or {@code no git} when the suite was built outside a git checkout (from a source archive):
 * the suite version ({@link TopologyProbe#SUITE_VERSION}) is then all that names it.
 */
public final class SuiteBuild {
    /** Where the build writes the properties, on the class path. */
    static final String RESOURCE = "/io/p2pbench/build.properties";
    /** What is written when no commit is known: the suite was built outside a git checkout. */
    public static final String NO_GIT = "no git";
    /** This suite's build, read once. */
    public static final String CURRENT = describe(load());

    private SuiteBuild() {}

    /** The build named by {@code properties} (git.commit.id.abbrev and git.dirty). */
    static String describe(Properties properties) {
        String commit = properties.getProperty("git.commit.id.abbrev", "").trim();
        if (commit.isEmpty() || commit.startsWith("${")) {
            return NO_GIT;
        }
        return "true".equals(properties.getProperty("git.dirty", "").trim()) ? commit + "-dirty" : commit;
    }

    /**
     * What {@code p2pbench --version} says: {@code p2pbench 0.1.0 (build 4d047f6)}, or {@code p2pbench 0.1.0 (no git)}
     * for a build without a commit.
     */
    public static String versionLine(String suiteVersion, String build) {
        return "p2pbench " + suiteVersion + (NO_GIT.equals(build) ? " (no git)" : " (build " + build + ")");
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
