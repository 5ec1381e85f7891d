package io.p2pbench.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Waiting for another rank's file: it comes, the rank ended, the rank exited, or the rank went silent. */
class JobFolderTest {
    private static RankState state(JobFolder f, int rank) {
        RankHello me = JobPlanTest.hello(rank, 2, rank, 2, "node0", rank, "GPU-" + rank, null, null);
        return new RankState(f, me, Duration.ofSeconds(30), new java.io.PrintWriter(java.io.Writer.nullWriter()));
    }

    @Test
    void aFileThatIsThereIsReadAtOnce(@TempDir Path out) throws Exception {
        JobFolder f = JobFolder.at(out, "job1");
        f.write(f.doneFile(1), new JobFolder.RankDone(1, "complete", "2 ok"));
        RankState s = state(f, 0);
        JobFolder.RankDone d = f.await(f.doneFile(1), JobFolder.RankDone.class, Duration.ofSeconds(30),
                s.watch(List.of(1)), "rank 1's end");
        assertEquals("complete", d.state());
        assertEquals(out.resolve(".p2pbench-jobs").resolve("job1"), f.dir());
    }

    @Test
    void aRankThatEndedWillNotWriteAgain(@TempDir Path out) {
        JobFolder f = JobFolder.at(out, "job2");
        f.write(f.doneFile(1), new JobFolder.RankDone(1, "refused", "no GPU"));
        RankState s = state(f, 0);
        JobFolder.Gone g = assertThrows(JobFolder.Gone.class, () -> f.await(f.handleFile("ipc-r1-r0-4KiB"),
                JobFolder.HandleMessage.class, Duration.ofSeconds(30), s.watch(List.of(1)), "rank 1's handle"));
        assertEquals("rank 1's handle will not come: rank 1 has ended (refused: no GPU)", g.getMessage());
        assertFalse(g.silent());
    }

    @Test
    void aRankOfThisHostWhoseProcessIsGoneHasExited(@TempDir Path out) throws Exception {
        JobFolder f = JobFolder.at(out, "job3");
        RankState s = state(f, 0);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS));
        RankHello one = JobPlanTest.hello(1, 2, 1, 2, "node0", 1, "GPU-1", null, null);
        s.know(new RankHello(1, 2, 1, 2, "node0", null, p.pid(), s.me.pidNamespace(), one.startedAt(), one.launcher(),
                one.suiteVersion(), one.suiteBuild(), 1, "GPU-1", null, 0, "", null, null, null, "", "", null));
        JobFolder.Gone g = assertThrows(JobFolder.Gone.class, () -> f.await(f.handleFile("x"),
                JobFolder.HandleMessage.class, Duration.ofSeconds(30), s.watch(List.of(1)), "rank 1's handle"));
        assertTrue(g.getMessage().endsWith("rank 1 (pid " + p.pid() + " on node0) has exited"), g.getMessage());
    }

    @Test
    void aRankWithoutProgressIsGivenUpAfterThePatienceAndNotWaitedForAgain(@TempDir Path out) {
        JobFolder f = JobFolder.at(out, "job4");
        RankState s = state(f, 0);
        JobFolder.Gone g = assertThrows(JobFolder.Gone.class, () -> f.await(f.handleFile("x"),
                JobFolder.HandleMessage.class, Duration.ofMillis(1), s.watch(List.of(1)), "rank 1's handle"));
        assertTrue(g.silent());
        assertTrue(g.getMessage().startsWith("rank 1's handle did not come within 0 s without progress"), g.getMessage());
        s.giveUpOn(1);
        assertEquals("rank 1 stopped answering earlier in this job", s.gone(1));
    }

    @Test
    void aPartFromAnotherProcessThatDoesNotParseIsOneLine(@TempDir Path out) throws Exception {
        JobFolder f = JobFolder.at(out, "job5");
        Files.createDirectories(f.partFile(1).getParent());
        Files.writeString(f.partFile(1), "{\"rank\": 1, \"entries\": [");
        LaunchException e = assertThrows(LaunchException.class, () -> f.read(f.partFile(1), JobFolder.RankPart.class));
        assertTrue(e.getMessage().startsWith(f.partFile(1) + " is not a readable RankPart: "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }
}
