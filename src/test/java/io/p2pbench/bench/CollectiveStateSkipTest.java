package io.p2pbench.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.collective.CollectiveOperation;
import io.p2pbench.fork.ForkChannel;
import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.spec.Skip;
import io.p2pbench.transfer.SkipCause;
import io.p2pbench.transfer.BenchmarkSkipped;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only a shape the operation cannot run is a skip; an IllegalArgumentException from a bug fails. */
class CollectiveStateSkipTest {
    @TempDir
    Path run;

    @AfterEach
    void clear() {
        System.clearProperty(ForkChannel.RUN_DIR);
        System.clearProperty(ForkChannel.COMBINATION);
    }

    /** A fixture whose shape check and opening do what the test says. */
    private static final class Fake extends CollectiveState {
        private final RuntimeException shape;
        private final RuntimeException opening;

        Fake(RuntimeException shape, RuntimeException opening) {
            this.shape = shape;
            this.opening = opening;
        }

        @Override
        protected void requireShape() {
            if (shape != null) {
                throw shape;
            }
        }

        @Override
        protected CollectiveOperation open() {
            throw opening;
        }

        @Override
        protected long algorithmBytes() {
            return 0;
        }

        @Override
        protected double busFactor() {
            return 1;
        }
    }

    private Path skipFile() {
        System.setProperty(ForkChannel.RUN_DIR, run.toString());
        System.setProperty(ForkChannel.COMBINATION, "c1");
        return new BenchmarkRecords.Target(run, "c1").skipFile();
    }

    @Test
    void aBadShapeIsRecordedAsSkipped() {
        Path skip = skipFile();
        BenchmarkSkipped e = assertThrows(BenchmarkSkipped.class, () -> new Fake(
                new IllegalArgumentException("a ring all-reduce needs at least 2 ranks"), null).openTrial(null));
        assertEquals("a ring all-reduce needs at least 2 ranks", e.getMessage());
        assertEquals(new Skip(SkipCause.DOES_NOT_DIVIDE, "a ring all-reduce needs at least 2 ranks"),
                assertDoesNotThrow(() -> BenchmarkRecords.readSkip(skip)));
    }

    @Test
    void anIllegalArgumentWhileOpeningFailsTheBenchmarkInsteadOfSkippingIt() {
        Path skip = skipFile();
        IllegalArgumentException bug = new IllegalArgumentException("offset 12 is past the end");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Fake(null, bug).openTrial(null));
        assertEquals(bug, e);
        assertTrue(!Files.exists(skip), "no skip recorded for a bug");
    }

    @Test
    void anExplicitSkipWhileOpeningIsStillASkip() {
        Path skip = skipFile();
        assertThrows(BenchmarkSkipped.class, () -> new Fake(null, new BenchmarkSkipped(SkipCause.DOES_NOT_FIT, "too little memory")).openTrial(null));
        assertTrue(Files.isRegularFile(skip));
    }
}
