package io.p2pbench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults of a benchmark's fork, made by a fork launcher script that kills itself, hangs, or fills
 * the disk, around real JMH runs of two planned combinations (on a machine without a GPU the
 * second one fails for want of CUDA; what matters is that it ran and was recorded).
 */
class ExecutorFaultTest {
    private static final Set<String> RAN = Set.of("ok", "failed", "skipped");
    /** The limit of the fork that hangs and must be killed; the others keep {@link ExecutorFaultHarness#MUST_FINISH_SECONDS}. */
    private static final double HANG_LIMIT_SECONDS = 10;
    private static final double MUST_FINISH = ExecutorFaultHarness.MUST_FINISH_SECONDS;

    @TempDir
    Path work;

    /** A launcher that does {@code action} for the first combination and runs java for the others. */
    private Path launcher(String action) throws IOException {
        String first = ExecutorFaultHarness.twoCombinations().get(0).id();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path script = work.resolve("java-" + Math.abs(action.hashCode()));
        Files.writeString(script, "#!/bin/sh\n"
                + "case \"$*\" in\n"
                + "  *p2pbench.combination=" + first + "*) echo $$ > " + work.resolve("fork.pid") + "; " + action + " ;;\n"
                + "esac\n"
                + "exec " + java + " \"$@\"\n");
        assertTrue(script.toFile().setExecutable(true));
        return script;
    }

    private static RunManifest manifestOnDisk(Path dir) throws IOException {
        return ResultFolder.open(dir).readManifest();
    }

    private long forkPid() throws IOException {
        return Long.parseLong(Files.readString(work.resolve("fork.pid")).strip());
    }

    @ParameterizedTest
    @EnumSource(ForkGroups.Mode.class)
    void aForkKilledWithSigkillIsRecordedFailedAndTheRunGoesOn(ForkGroups.Mode mode) throws Exception {
        StringWriter out = new StringWriter();
        ResultFolder folder = ExecutorFaultHarness.run(work.resolve("results"), launcher("kill -9 $$"), MUST_FINISH,
                new PrintWriter(out), mode);
        RunManifest m = manifestOnDisk(folder.dir());
        assertEquals("complete", m.state(), out.toString());
        assertEquals("failed", m.entries().get(0).status(), out.toString());
        assertEquals("the fork died with exit code 137 (killed by SIGKILL: the out-of-memory killer, or a kill -9) "
                + "before it reported a result", m.entries().get(0).reason());
        assertTrue(RAN.contains(m.entries().get(1).status()), "the next benchmark ran: " + m.entries().get(1));
        assertTrue(Files.isRegularFile(folder.resolve(m.entries().get(0).logFile())), "the killed fork's log is kept");
    }

    @ParameterizedTest
    @EnumSource(ForkGroups.Mode.class)
    void aHungForkIsKilledByTheWatchdogAndRecordedAsTimeout(ForkGroups.Mode mode) throws Exception {
        StringWriter out = new StringWriter();
        ResultFolder folder = ExecutorFaultHarness.run(work.resolve("results"), launcher("exec sleep 600"),
                HANG_LIMIT_SECONDS, new PrintWriter(out), mode);
        RunManifest m = manifestOnDisk(folder.dir());
        assertEquals("timeout", m.entries().get(0).status(), out.toString());
        assertEquals("the fork did not finish within " + (long) HANG_LIMIT_SECONDS + " s and was killed",
                m.entries().get(0).reason());
        assertTrue(RAN.contains(m.entries().get(1).status()), "the second fork had its own, generous limit: "
                + m.entries().get(1));
        // On a machine too busy to start even JMH's probe JVM within the limit, the watchdog kills before the
        // launcher has run: no fork hung then, and none is left. When it did run, its process is gone.
        if (Files.exists(work.resolve("fork.pid"))) {
            assertFalse(ProcessHandle.of(forkPid()).map(ProcessHandle::isAlive).orElse(false), "the hung fork is gone");
        }
        assertEquals("complete", m.state());
    }

    @ParameterizedTest
    @EnumSource(ForkGroups.Mode.class)
    void sigintKeepsWhatWasRecordedMarksTheRunInterruptedAndKillsTheFork(ForkGroups.Mode mode) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path root = work.resolve("results");
        Path hang = launcher("exec sleep 600");
        Process run = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ExecutorFaultHarness.class.getName(), root.toString(), hang.toString(), "600", "-", mode.name())
                .redirectErrorStream(true).redirectOutput(work.resolve("harness.out").toFile()).start();
        try {
            // The launcher writes fork.pid once the first fork runs: from then on the harness has the run's
            // interrupt hook installed and names that combination as the running one.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos((long) MUST_FINISH);
            while (!Files.exists(work.resolve("fork.pid")) && run.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50); // polls for the file; what the test waits for is the file, not the time
            }
            assertTrue(Files.exists(work.resolve("fork.pid")), "the first fork never started: "
                    + Files.readString(work.resolve("harness.out")));
            assertEquals(0, new ProcessBuilder("kill", interruptSignal(), Long.toString(run.pid())).start().waitFor());
            boolean ended = run.waitFor((long) MUST_FINISH, TimeUnit.SECONDS);
            if (!ended) {
                // What the harness was doing: its output and its threads (jstack-like dump on SIGQUIT).
                new ProcessBuilder("kill", "-QUIT", Long.toString(run.pid())).start().waitFor();
                Thread.sleep(1000);
            }
            assertTrue(ended, "the run ends on SIGINT; harness output:\n" + Files.readString(work.resolve("harness.out")));
        } finally {
            run.destroyForcibly();
        }
        List<Path> folders = new ArrayList<>();
        try (var found = Files.find(root, 3, (p, a) -> p.getFileName().toString().equals("manifest.json"))) {
            found.forEach(p -> folders.add(p.getParent()));
        }
        assertEquals(1, folders.size());
        RunManifest m = manifestOnDisk(folders.get(0));
        assertEquals("interrupted", m.state(), Files.readString(work.resolve("harness.out"), StandardCharsets.UTF_8));
        assertEquals("interrupted", m.entries().get(0).status());
        assertEquals("pending", m.entries().get(1).status());
        assertFalse(ProcessHandle.of(forkPid()).map(ProcessHandle::isAlive).orElse(false), "the fork is killed");
    }

    /**
     * SIGINT, as Ctrl-C sends it, where this process can pass it on. A build started in the background of a
     * non-interactive shell (nohup, a CI runner's job) has SIGINT ignored, every child inherits that, and no JVM
     * among them can be interrupted by it; then SIGTERM, which the JVM answers with the same shutdown hooks.
     */
    private static String interruptSignal() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (Files.isReadable(status)) {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("SigIgn:") && (Long.parseLong(line.substring(7).strip(), 16) & 0x2) != 0) {
                    return "-TERM";
                }
            }
        }
        return "-INT";
    }

    /** The benchmark JVMs' command lines in {@code log} (JMH also runs the launcher to read its properties). */
    private static List<String> benchmarkJvms(Path log) throws IOException {
        return Files.readAllLines(log).stream()
                .filter(c -> c.contains("org.openjdk.jmh.runner.ForkedMain") || c.contains(ForkGroupMain.class.getName()))
                .toList();
    }

    /** A launcher that appends its command line to {@code log} and runs java. */
    private Path recordingLauncher(Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path script = work.resolve("java-record-" + log.getFileName());
        Files.writeString(script, "#!/bin/sh\necho \"$*\" >> " + log + "\nexec " + java + " \"$@\"\n");
        assertTrue(script.toFile().setExecutable(true));
        return script;
    }

    /**
     * A group JVM gets the JIT flags JMH gives a JVM it forks (its compile-command file), as a per-benchmark fork
     * does.
     */
    @ParameterizedTest
    @EnumSource(ForkGroups.Mode.class)
    void everyBenchmarkJvmGetsJmhsCompilerHints(ForkGroups.Mode mode) throws Exception {
        Path log = work.resolve("commands-" + mode);
        ExecutorFaultHarness.run(work.resolve("results"), recordingLauncher(log), MUST_FINISH, new PrintWriter(new StringWriter()),
                mode);
        List<String> commands = benchmarkJvms(log);
        // Two host-copy benchmarks of two curves: one JVM each, or one JVM for both where transfers share it.
        assertEquals(mode == ForkGroups.Mode.SHARED ? 1 : 2, commands.size(), mode + ": " + commands);
        for (String c : commands) {
            assertTrue(c.contains("-XX:CompileCommandFile="), mode + " JVM without JMH's compiler hints: " + c);
        }
    }

    /**
     * Two combinations of one curve share a JVM; when that JVM is killed during the first, the first is
     * recorded failed and the second runs in a new JVM.
     */
    @Test
    void aForkGroupRunsInOneJvmAndAfterAKillTheRestRunInANewOne() throws Exception {
        List<io.p2pbench.spec.Combination> curve = ExecutorFaultHarness.oneCurve();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path starts = work.resolve("starts");
        Path script = countingLauncher(starts);
        StringWriter out = new StringWriter();
        ResultFolder folder = ExecutorFaultHarness.run(work.resolve("together"), script, MUST_FINISH, new PrintWriter(out),
                false, ForkGroups.Mode.GROUPED, curve);
        RunManifest m = manifestOnDisk(folder.dir());
        assertEquals(1, Files.readAllLines(starts).size(), "one JVM for the curve: " + Files.readAllLines(starts));
        assertTrue(RAN.contains(m.entries().get(0).status()) && RAN.contains(m.entries().get(1).status()), out.toString());

        Files.delete(starts);
        Path killer = work.resolve("java-kill");
        Files.writeString(killer, "#!/bin/sh\n"
                + "echo \"$*\" | grep -o 'p2pbench.combination=[^ ]*' >> " + starts + "\n"
                + "case \"$*\" in\n"
                + "  *p2pbench.combination=" + curve.get(0).id() + "*) kill -9 $$ ;;\n"
                + "esac\n"
                + "exec " + java + " \"$@\"\n");
        assertTrue(killer.toFile().setExecutable(true));
        out = new StringWriter();
        folder = ExecutorFaultHarness.run(work.resolve("killed"), killer, MUST_FINISH, new PrintWriter(out), false,
                ForkGroups.Mode.GROUPED, curve);
        m = manifestOnDisk(folder.dir());
        assertEquals(List.of("p2pbench.combination=" + curve.get(0).id(), "p2pbench.combination=" + curve.get(1).id()),
                Files.readAllLines(starts), "a new JVM for the rest");
        assertEquals("failed", m.entries().get(0).status(), out.toString());
        assertEquals(ForkLog.forkDeath(137), m.entries().get(0).reason());
        assertTrue(RAN.contains(m.entries().get(1).status()), out.toString());
        assertEquals("complete", m.state());
    }

    /**
     * A launcher that counts the group JVMs in {@code starts} and, for the JVM of the curve's first combination,
     * runs {@code fake} (a shell script body; {@code $token} holds the progress token) instead of java.
     */
    private Path fakeFirstJvm(Path starts, io.p2pbench.spec.Combination first, String fake) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path script = work.resolve("java-fake-" + Math.abs(fake.hashCode()));
        Files.writeString(script, "#!/bin/sh\n"
                + "echo \"$*\" | grep -o 'p2pbench.combination=[^ ]*' >> " + starts + "\n"
                + "case \"$*\" in\n"
                + "  *p2pbench.combination=" + first.id() + "*) for token; do :; done\n" + fake + "\n ;;\n"
                + "esac\n"
                + "exec " + java + " \"$@\"\n");
        assertTrue(script.toFile().setExecutable(true));
        return script;
    }

    /**
     * A group JVM that reports the end of another combination than the one running is broken: the running one
     * fails naming both, the JVM is killed (it would never report again) and the rest run in a new JVM.
     */
    @Test
    void aCompletionLineForAnotherCombinationEndsThatJvmAndTheRestRunInANewOne() throws Exception {
        List<io.p2pbench.spec.Combination> curve = ExecutorFaultHarness.oneCurve();
        Path starts = work.resolve("starts");
        Path fake = fakeFirstJvm(starts, curve.get(0), "echo \"P2PBENCH-START:$token 0 1\"\n"
                + "echo \"P2PBENCH-DONE:$token 7 2 ok\"\n"
                + "exec sleep 120");
        StringWriter out = new StringWriter();
        long began = System.nanoTime();
        ResultFolder folder = ExecutorFaultHarness.run(work.resolve("mismatch"), fake, MUST_FINISH, new PrintWriter(out),
                false, ForkGroups.Mode.GROUPED, curve);
        RunManifest m = manifestOnDisk(folder.dir());
        assertTrue(System.nanoTime() - began < TimeUnit.SECONDS.toNanos(110), "the broken JVM was not waited for");
        assertEquals("failed", m.entries().get(0).status(), out.toString());
        assertEquals("the fork JVM reported the end of combination 7 while combination 0 (" + curve.get(0).id()
                + ") was running, so that JVM was treated as broken; the rest of its group ran in a new JVM",
                m.entries().get(0).reason());
        assertEquals(2, Files.readAllLines(starts).size(), "a new JVM for the rest: " + Files.readAllLines(starts));
        assertTrue(RAN.contains(m.entries().get(1).status()), out.toString());
        assertEquals("complete", m.state());
    }

    /**
     * A combination that poisoned the JVM's CUDA context (a sticky error) fails with its reason and the rest run
     * in a new JVM; a progress line without the JVM's token (a native library's output) is not one, and one
     * printed after another writer's unfinished line still counts.
     */
    @Test
    void aPoisonedContextSendsTheRestToANewJvmAndLinesWithoutTheTokenAreOutput() throws Exception {
        List<io.p2pbench.spec.Combination> curve = ExecutorFaultHarness.oneCurve();
        Path starts = work.resolve("starts");
        Path fake = fakeFirstJvm(starts, curve.get(0), "echo \"P2PBENCH-START:$token 0 1\"\n"
                + "echo \"P2PBENCH-DONE 0 2 ok\"\n"
                + "echo \"P2PBENCH-DONE:0000000000000000 0 2 ok\"\n"
                + "printf 'NCCL INFO unfinished'\n"
                + "echo \"P2PBENCH-DONE:$token 0 2 poisoned cudaStreamSynchronize(device=0) failed: 700 "
                + "cudaErrorIllegalAddress\"\n"
                + "exit 0");
        StringWriter out = new StringWriter();
        ResultFolder folder = ExecutorFaultHarness.run(work.resolve("poisoned"), fake, MUST_FINISH, new PrintWriter(out),
                false, ForkGroups.Mode.GROUPED, curve);
        RunManifest m = manifestOnDisk(folder.dir());
        assertEquals("failed", m.entries().get(0).status(), out.toString());
        assertEquals("cudaStreamSynchronize(device=0) failed: 700 cudaErrorIllegalAddress", m.entries().get(0).reason());
        assertEquals(2, Files.readAllLines(starts).size(), "a new JVM for the rest: " + Files.readAllLines(starts));
        assertTrue(RAN.contains(m.entries().get(1).status()), out.toString());
        assertEquals("complete", m.state());
    }

    /**
     * In rounds, every transfer shares one JVM per round, and a combination that did not finish ok in a round is
     * not measured again: here neither can run (no GPU), so round 1 is the only JVM and each entry names its round.
     */
    @Test
    void roundsShareOneJvmAndALaterRoundMeasuresOnlyWhatIsOk() throws Exception {
        Path starts = work.resolve("starts");
        Path script = countingLauncher(starts);
        StringWriter out = new StringWriter();
        ResultFolder folder = ExecutorFaultHarness.run(work.resolve("rounds"), script, MUST_FINISH, new PrintWriter(out),
                false, ForkGroups.Mode.SHARED, ExecutorFaultHarness.twoCombinations(), 3);
        RunManifest m = manifestOnDisk(folder.dir());
        assertEquals(1, Files.readAllLines(starts).size(), "one JVM, in round 1: " + Files.readAllLines(starts));
        for (RunManifest.Entry e : m.entries()) {
            assertTrue(RAN.contains(e.status()) && !e.status().equals("ok"), out.toString());
            assertTrue(e.reason().startsWith("round 1 of 3: "), e.reason());
            assertEquals(1, e.rounds().size());
        }
        assertTrue(out.toString().contains(" r1/3 "), out.toString());
        assertEquals("complete", m.state());
    }

    @Test
    void aFullDiskStopsTheRunWithTheReasonAndKeepsTheLastGoodManifest() throws Exception {
        Path mount = Files.createDirectories(work.resolve("small-disk"));
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        assumeTrue(m.waitFor((long) MUST_FINISH, TimeUnit.SECONDS) && m.exitValue() == 0,
                "cannot mount a small tmpfs here (needs root): " + new String(m.getInputStream().readAllBytes()));
        try {
            // The first fork fills the disk, then dies: the executor's next write finds no space.
            Path launcher = launcher("dd if=/dev/zero of=" + mount.resolve("filler") + " bs=4k 2>/dev/null; kill -9 $$");
            StringWriter out = new StringWriter();
            IOException e = assertThrows(IOException.class,
                    () -> ExecutorFaultHarness.run(mount.resolve("results"), launcher, MUST_FINISH, new PrintWriter(out)));
            assertTrue(String.valueOf(e.getMessage()).contains("No space left on device"), String.valueOf(e));
            List<Path> manifests = new ArrayList<>();
            try (var found = Files.find(mount.resolve("results"), 3,
                    (p, a) -> p.getFileName().toString().equals("manifest.json"))) {
                found.forEach(manifests::add);
            }
            assertEquals(1, manifests.size());
            RunManifest kept = manifestOnDisk(manifests.get(0).getParent());
            assertEquals(2, kept.entries().size(), "the manifest written before the disk filled is whole");
        } finally {
            new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor((long) MUST_FINISH, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJmhRunThatHoldsTheLockStopsTheRunInsteadOfFailingEveryBenchmark() throws Exception {
        // JMH reads its lock path once per JVM (<java.io.tmpdir>/jmh.lock): the run goes in a JVM of its own.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process other = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                LockHolder.class.getName(), work.resolve("jmh.lock").toString()).start();
        try {
            assertEquals("locked", new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream(),
                    StandardCharsets.UTF_8)).readLine());
            Path root = work.resolve("results");
            Process run = new ProcessBuilder(java, "-Djava.io.tmpdir=" + work, "-cp",
                    System.getProperty("java.class.path"), ExecutorFaultHarness.class.getName(), root.toString(), "-",
                    Long.toString((long) MUST_FINISH), "honour-jmh-lock").redirectErrorStream(true).start();
            String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(run.waitFor((long) MUST_FINISH, TimeUnit.SECONDS));
            assertEquals(3, run.exitValue(), out);
            assertTrue(out.contains("held: another JMH run took JMH's lock"), out);
            List<Path> folders = new ArrayList<>();
            try (var found = Files.find(root, 3, (p, a) -> p.getFileName().toString().equals("manifest.json"))) {
                found.forEach(p -> folders.add(p.getParent()));
            }
            RunManifest m = manifestOnDisk(folders.get(0));
            assertEquals("interrupted", m.state());
            assertEquals("interrupted", m.entries().get(0).status());
            assertEquals("pending", m.entries().get(1).status(), "the second benchmark is not tried");
        } finally {
            other.getOutputStream().close();
            if (!other.waitFor((long) MUST_FINISH, TimeUnit.SECONDS)) {
                other.destroyForcibly();
            }
        }
    }

    /** A launcher that appends the combination each JVM starts with to {@code starts}, then runs this JVM's java. */
    private Path countingLauncher(Path starts) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path script = work.resolve("java-count");
        Files.writeString(script, "#!/bin/sh\n"
                + "echo \"$*\" | grep -o 'p2pbench.combination=[^ ]*' >> " + starts + "\n"
                + "exec " + java + " \"$@\"\n");
        assertTrue(script.toFile().setExecutable(true));
        return script;
    }
}
