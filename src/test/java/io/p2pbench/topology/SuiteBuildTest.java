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
    void noCommitOrAnUnfilledPlaceholderIsUnknown() {
        assertEquals(SuiteBuild.UNKNOWN, SuiteBuild.describe(props()));
        assertEquals(SuiteBuild.UNKNOWN, SuiteBuild.describe(props("git.commit.id.abbrev", "${git.commit.id.abbrev}")));
    }

    @Test
    void theBuildOfThisCheckoutNamesItsCommitOrSaysUnknown() {
        // Built by Maven from a git checkout (CI's clean clone), the resource names the commit.
        assertTrue(SuiteBuild.CURRENT.matches("[0-9a-f]{7,40}(-dirty)?|unknown"), SuiteBuild.CURRENT);
    }
}
