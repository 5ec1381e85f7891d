package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One measuring run per machine: a second one is refused naming the first, or waits with --wait. */
class RunLockTest {
    /** How long a child JVM may take to let go of or lose the lock: far more than a busy build machine needs. */
    private static final long RELEASE_AFTER_SECONDS = 180;

    @TempDir
    Path dir;

    private Process holder;
    private String jmhBefore;

    @BeforeEach
    void ownJmhLock() {
        jmhBefore = System.getProperty(RunLock.JMH_LOCK_PROPERTY);
        // Other JMH runs on this build machine must not decide the test.
        System.setProperty(RunLock.JMH_LOCK_PROPERTY, dir.resolve("jmh.lock").toString());
    }

    @AfterEach
    void stop() throws Exception {
        if (jmhBefore == null) {
            System.clearProperty(RunLock.JMH_LOCK_PROPERTY);
        } else {
            System.setProperty(RunLock.JMH_LOCK_PROPERTY, jmhBefore);
        }
        if (holder != null && holder.isAlive()) {
            holder.getOutputStream().close();
            if (!holder.waitFor(RELEASE_AFTER_SECONDS, TimeUnit.SECONDS)) {
                holder.destroyForcibly();
            }
        }
    }

    /** Starts a second JVM holding the lock on {@code file}; returns once it holds it. */
    private Process holdInAnotherProcess(Path file) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(),
                file.toString()).redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("locked", r.readLine());
        return p;
    }

    @Test
    void aSecondRunIsRefusedNamingTheFirst() throws Exception {
        Path file = dir.resolve("p2pbench.lock");
        holder = holdInAnotherProcess(file);
        RunLock.Held e = assertThrows(RunLock.Held.class,
                () -> RunLock.acquire(file, "p2pbench run", false, 50, new PrintWriter(new StringWriter())));
        assertTrue(e.getMessage().startsWith("another p2pbench run is measuring on this machine (pid " + holder.pid()
                + ", started "), e.getMessage());
        assertTrue(e.getMessage().contains("p2pbench run --preset full"), e.getMessage());
        assertTrue(e.getMessage().endsWith("; wait for it to finish, or run with --wait"), e.getMessage());
    }

    @SuppressWarnings("try") // the lock is held for the block, not used in it
    @Test
    void withWaitTheSecondRunStartsWhenTheFirstEnds() throws Exception {
        Path file = dir.resolve("p2pbench.lock");
        holder = holdInAnotherProcess(file);
        StringWriter said = new StringWriter();
        CountDownLatch waiting = new CountDownLatch(1);
        // The holder lets go once the second run has said it waits: then that run has found the lock held.
        PrintWriter sayer = new PrintWriter(new FilterWriter(said) {
            @Override
            public void flush() throws IOException {
                super.flush();
                if (said.toString().contains("Waiting:")) {
                    waiting.countDown();
                }
            }
        });
        Thread release = new Thread(() -> {
            try {
                if (waiting.await(RELEASE_AFTER_SECONDS, TimeUnit.SECONDS)) {
                    holder.getOutputStream().close();
                }
            } catch (Exception ignored) {
                // the test fails on its own if the holder never lets go
            }
        });
        release.start();
        try (RunLock lock = RunLock.acquire(file, "p2pbench run", true, 50, sayer)) {
            assertTrue(said.toString().startsWith("Waiting: another p2pbench run is measuring on this machine (pid "
                    + holder.pid()), said.toString());
            assertTrue(holder.waitFor(RELEASE_AFTER_SECONDS, TimeUnit.SECONDS));
        }
        release.join();
    }

    @SuppressWarnings("try") // the lock is held for the block, not used in it
    @Test
    void aLockOfAKilledRunIsFreeAgain() throws Exception {
        Path file = dir.resolve("p2pbench.lock");
        holder = holdInAnotherProcess(file);
        assertTrue(holder.destroyForcibly().waitFor(RELEASE_AFTER_SECONDS, TimeUnit.SECONDS));
        try (RunLock lock = RunLock.acquire(file, "p2pbench run", false, 50, new PrintWriter(new StringWriter()))) {
            assertTrue(java.nio.file.Files.readString(file).startsWith("pid " + ProcessHandle.current().pid()));
        }
    }

    @Test
    void aJmhRunOfAnotherToolIsNamedToo() throws Exception {
        Path jmhLock = dir.resolve("jmh.lock");
        holder = holdInAnotherProcess(jmhLock); // any OS lock on the file is what JMH would find
        RunLock.Held e = assertThrows(RunLock.Held.class, () -> RunLock.acquire(dir.resolve("p2pbench.lock"),
                "p2pbench run", false, 50, new PrintWriter(new StringWriter())));
        assertTrue(e.getMessage().startsWith("another JMH run holds " + jmhLock), e.getMessage());
    }
}
