package io.p2pbench.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class SuiteBuildTest {
    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void cleanCommitIsItsAbbreviatedId() {
        assertEquals("4d047f6", SuiteBuild.describe(props("git.commit.id.abbrev", "4d047f6", "git.dirty", "false")));
    }

    @Test
    void uncommittedChangesAreMarkedDirty() {
        assertEquals("4d047f6-dirty", SuiteBuild.describe(props("git.commit.id.abbrev", "4d047f6", "git.dirty", "true")));
    }

    @Test
    void noCommitOrAnUnfilledPlaceholderIsABuildWithoutGit() {
        assertEquals("no git", SuiteBuild.describe(props()));
        assertEquals("no git", SuiteBuild.describe(props("git.commit.id.abbrev", "${git.commit.id.abbrev}")));
    }

    @Test
    void theVersionLineNamesTheCommitOrSaysNoGit() {
        assertEquals("p2pbench 0.1.0 (build 4d047f6)", SuiteBuild.versionLine("0.1.0", "4d047f6"));
        assertEquals("p2pbench 0.1.0 (build 4d047f6-dirty)", SuiteBuild.versionLine("0.1.0", "4d047f6-dirty"));
        assertEquals("p2pbench 0.1.0 (no git)", SuiteBuild.versionLine("0.1.0", SuiteBuild.describe(props())));
    }

    @Test
    void theBuildOfThisCheckoutNamesItsCommitOrSaysUnknown() {
        // Built by Maven from a git checkout (CI's clean clone), the resource names the commit.
        assertTrue(SuiteBuild.CURRENT.matches("[0-9a-f]{7,40}(-dirty)?|no git"), SuiteBuild.CURRENT);
    }
}
