package io.p2pbench.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.results.BenchmarkRecords;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job of two processes on this machine, end to end: two child JVMs run {@code p2pbench run} with the recorded
 * environment of two Slurm tasks on one node ({@code cpu-slurm-2tasks-rank*.env}) and the CPU stand-in workload
 * (test only: {@link CpuStandInWorkload}), exchanging handles through the job folder; rank 0 collects one result
 * folder. Then the faults: a rank that dies, a rank that hangs, ranks of different builds. Timeouts are generous
 * (the machine has two busy cores); nothing waits by sleeping, nothing is timed.
 */
class LaunchTwoProcessTest {
    private static final long FINISH_SECONDS = 240;

    /** One started rank. */
    private record Rank(Process process, Path stdout, Path stderr) {
        int exit() throws InterruptedException {
            assertTrue(process.waitFor(FINISH_SECONDS, TimeUnit.SECONDS), "rank did not end; stdout: " + read(stdout));
            return process.exitValue();
        }

        String out() {
            return read(stdout);
        }

        String err() {
            return read(stderr);
        }

        private static String read(Path p) {
            try {
                return Files.readString(p);
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }
    }

    private static Rank start(Path work, int rank, Map<String, String> extraEnv, String... jvmProps) throws IOException {
        return start(work, "cpu-slurm-2tasks-rank", rank, extraEnv, jvmProps);
    }

    private static Rank start(Path work, String fixture, int rank, Map<String, String> extraEnv, String... jvmProps)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xshare:auto", "-D" + LaunchSettings.WORKLOAD_PROPERTY + "=" + CpuStandInWorkload.class.getName()));
        cmd.addAll(List.of(jvmProps));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.p2pbench.cli.Main", "run",
                "--sizes", "4K,64K", "--out", work.resolve("results").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM") || k.startsWith("OMPI_") || k.startsWith("PMI")
                || k.startsWith("MPI_LOCAL") || k.startsWith("P2PBENCH_") || k.startsWith("NCCL_") || List.of("RANK",
                "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK", "MASTER_ADDR", "MASTER_PORT",
                "TORCHELASTIC_RUN_ID", "CUDA_VISIBLE_DEVICES").contains(k));
        pb.environment().putAll(EnvFixtures.read(fixture + rank + ".env"));
        pb.environment().putAll(extraEnv);
        Path out = work.resolve("rank" + rank + ".out");
        Path err = work.resolve("rank" + rank + ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        return new Rank(pb.start(), out, err);
    }

    private static ResultFolder onlyResultFolder(Path work) throws IOException {
        try (Stream<Path> s = Files.find(work.resolve("results"), 3, (p, a) -> p.getFileName().toString()
                .equals("manifest.json"))) {
            List<Path> found = s.toList();
            assertEquals(1, found.size(), "one result folder for the whole job: " + found);
            return ResultFolder.open(found.get(0).getParent());
        }
    }

    private static RunManifest.Entry entry(RunManifest m, String id) {
        return m.entries().stream().filter(e -> e.combination().id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no entry " + id + " in " + m.entries().stream()
                        .map(e -> e.combination().id()).toList()));
    }

    @Test
    void twoRanksExchangeThroughTheJobFolderAndRankZeroCollectsOneResultFolder(@TempDir Path work) throws Exception {
        Rank zero = start(work, 0, Map.of());
        Rank one = start(work, 1, Map.of());
        assertEquals(0, one.exit(), one.err() + one.out());
        assertEquals(0, zero.exit(), zero.err() + zero.out());
        assertTrue(zero.out().contains("Job slurm-4242.0: 2 ranks on 1 host (Slurm)"), zero.out());
        assertTrue(zero.out().contains("TEST ONLY"), zero.out());
        assertTrue(zero.out().contains("Done: 3 ok, "), zero.out());
        assertTrue(one.out().contains("[rank 1] done: 2 ok"), one.out());

        ResultFolder folder = onlyResultFolder(work);
        RunManifest m = folder.readManifest();
        assertEquals(RunManifest.FORMAT, m.format());
        assertEquals("complete", m.state());
        // Rank 1 imports 0->1 at both sizes (the sweep), rank 0 imports 1->0 at the largest (the matrix).
        RunManifest.Entry small = entry(m, "standin-bw-r0-r1-4KiB");
        assertEquals("ok", small.status());
        assertEquals("test-stand-in", small.combination().kind());
        assertEquals(1, small.placement().rank());
        assertEquals("cpu-node", small.placement().host());
        assertEquals(1, small.placement().gpu(), "local rank 1 takes the second of the two GPUs");
        assertNotNull(small.placement().gpuUuid());
        assertTrue(small.bytesVerified() > 0);
        assertTrue(Files.isRegularFile(folder.resolve(small.samplesFile())));
        assertEquals("standin-bw-r0-r1-4KiB", BenchmarkRecords.readSamples(folder.resolve(small.samplesFile())).id());
        RunManifest.Entry back = entry(m, "standin-bw-r1-r0-64KiB");
        assertEquals("ok", back.status());
        assertEquals(0, back.placement().rank());
        assertEquals(0, back.placement().gpu());
        // NCCL rows exist for every rank, skipped with the stand-in's reason.
        List<RunManifest.Entry> nccl = m.entries().stream().filter(e -> e.combination().kind().equals("nccl-processes"))
                .toList();
        assertFalse(nccl.isEmpty());
        assertTrue(nccl.stream().allMatch(e -> e.status().equals("skipped") && e.reason().contains("stand-in")));
        assertEquals(2, nccl.stream().map(e -> e.placement().rank()).distinct().count());
        // The job folder keeps only the note that it was collected.
        try (Stream<Path> left = Files.walk(work.resolve("results").resolve(JobFolder.JOBS).resolve("slurm-4242.0"))) {
            assertEquals(List.of("collected.json"), left.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .toList());
        }
    }

    @Test
    void twoRanksOnOneGpuAreSingleGpuRows(@TempDir Path work) throws Exception {
        String oneGpu = "-D" + CpuStandInWorkload.TOPOLOGY + "=" + Path.of("src/test/resources/topologies",
                "h200x1-single-r580.json").toAbsolutePath();
        Rank zero = start(work, "cpu-torchrun-one-gpu-rank", 0, Map.of(), oneGpu);
        Rank one = start(work, "cpu-torchrun-one-gpu-rank", 1, Map.of(), oneGpu);
        assertEquals(0, one.exit(), one.err() + one.out());
        assertEquals(0, zero.exit(), zero.err() + zero.out());
        assertTrue(one.out().contains("the one GPU CUDA_VISIBLE_DEVICES=0 leaves visible"), one.out());
        assertTrue(zero.out().contains("intra-node, single GPU"), zero.out());
        RunManifest m = onlyResultFolder(work).readManifest();
        RunManifest.Entry copy = entry(m, "standin-bw-r0-r1-4KiB");
        assertTrue(copy.combination().singleGpu());
        assertEquals("X", copy.combination().link());
        assertEquals(copy.placement().gpuUuid(), entry(m, "standin-bw-r1-r0-64KiB").placement().gpuUuid());
        assertTrue(m.entries().stream().filter(e -> e.combination().kind().equals("nccl-processes"))
                .allMatch(e -> e.combination().singleGpu()), "NCCL rows of ranks sharing a GPU are single-GPU rows");
        assertTrue(m.settings().toString().contains("NCCL_COMM_ID=127.0.0.1:29612"), m.settings().toString());
    }

    @Test
    void aRankThatDiesFailsTheJobNamingItAndWhatFinishedIsKept(@TempDir Path work) throws Exception {
        Rank zero = start(work, 0, Map.of());
        Rank one = start(work, 1, Map.of(), "-D" + CpuStandInWorkload.DIE_AT + "=ipc-r0-r1-64KiB");
        assertEquals(137, one.exit(), one.err());
        assertEquals(1, zero.exit(), zero.out());
        String line = zero.err();
        assertTrue(line.contains("rank 1 (cpu-node, GPU 1) did not finish") && line.contains("has exited"), line);
        RunManifest m = onlyResultFolder(work).readManifest();
        assertEquals("interrupted", m.state());
        assertEquals("ok", entry(m, "standin-bw-r0-r1-4KiB").status(), "finished before the rank died: kept");
        RunManifest.Entry died = entry(m, "standin-bw-r0-r1-64KiB");
        assertEquals("failed", died.status());
        assertTrue(died.reason().startsWith("rank 1 (cpu-node, GPU 1) did not finish"), died.reason());
        RunManifest.Entry fromDead = entry(m, "standin-bw-r1-r0-64KiB");
        assertEquals("failed", fromDead.status());
        assertTrue(fromDead.reason().contains("rank 1") && fromDead.reason().contains("exited"), fromDead.reason());
    }

    @Test
    void aRankThatHangsIsEndedByItsWatchdogAndTheJobFails(@TempDir Path work) throws Exception {
        Map<String, String> quick = Map.of("P2PBENCH_RANK_TIMEOUT", "6");
        Rank zero = start(work, 0, quick);
        Rank one = start(work, 1, quick, "-D" + CpuStandInWorkload.HANG_AT + "=ipc-r0-r1-64KiB");
        assertEquals(1, one.exit(), one.err());
        assertTrue(one.err().contains("did not finish within 12 s"), one.err());
        assertEquals(1, zero.exit(), zero.out());
        assertTrue(zero.err().contains("rank 1"), zero.err());
        RunManifest m = onlyResultFolder(work).readManifest();
        assertEquals("ok", entry(m, "standin-bw-r0-r1-4KiB").status());
        RunManifest.Entry hung = entry(m, "standin-bw-r0-r1-64KiB");
        assertTrue(List.of("timeout", "failed").contains(hung.status()), hung.toString());
        assertEquals(1, hung.placement().rank());
        assertEquals("failed", entry(m, "standin-bw-r1-r0-64KiB").status());
    }

    @Test
    void ranksOfDifferentBuildsAreRefusedWithOneLine(@TempDir Path work) throws Exception {
        Rank zero = start(work, 0, Map.of());
        Rank one = start(work, 1, Map.of(), "-D" + LaunchSettings.BUILD_PROPERTY + "=abc1234");
        assertEquals(2, one.exit(), one.err());
        assertEquals(2, zero.exit(), zero.err());
        for (Rank r : List.of(zero, one)) {
            List<String> lines = r.err().lines().toList();
            assertEquals(1, lines.size(), r.err());
            assertTrue(lines.get(0).contains("abc1234") && lines.get(0).contains("run one build on every rank"),
                    lines.get(0));
        }
        try (Stream<Path> s = Files.find(work.resolve("results"), 3, (p, a) -> p.getFileName().toString()
                .equals("manifest.json"))) {
            assertEquals(0, s.count(), "nothing was measured");
        }
    }
}
