package io.p2pbench.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code p2pbench run} under a launcher, in a child JVM with a recorded environment: dry run and bad input. */
class LaunchCliTest {
    record Result(int code, String out, String err) {}

    static Result run(Map<String, String> env, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dp2pbench.cuda.disable=true", "-cp", System.getProperty("java.class.path"), "io.p2pbench.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM") || k.startsWith("OMPI_") || k.startsWith("PMI")
                || k.startsWith("MPI_LOCAL") || k.startsWith("P2PBENCH_") || k.startsWith("NCCL_COMM") || List.of("RANK",
                "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "CUDA_VISIBLE_DEVICES").contains(k));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Result(p.exitValue(), out, err);
    }

    private static String topology(String name) {
        return Path.of("src/test/resources/topologies", name).toString();
    }

    /** Rank 13 of 16: two nodes of eight tasks, the second node's local task 5. */
    private static Map<String, String> twoNodesOfEight() {
        return EnvFixtures.with("slurm-2x4-rank5.env", "SLURM_PROCID", "13", "SLURM_LOCALID", "5", "SLURM_NTASKS", "16",
                "SLURM_STEP_NUM_TASKS", "16", "SLURM_NTASKS_PER_NODE", "8", "SLURM_STEP_TASKS_PER_NODE", "8(x2)");
    }

    private static void assertOneLine(Result r, String start) {
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("p2pbench: " + start), r.err());
    }

    @Test
    void dryRunShowsTheRanksGpuAndItsPartOfTheJobWithoutCuda() throws Exception {
        Result r = run(twoNodesOfEight(), "run", "--dry-run", "--topology", topology("h200x8-nv18-r580.json"),
                "--sizes", "1M,256M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Dry run: rank 13 of 16 (local rank 5 of 8, Slurm) on gpu-b07: GPU 5 "
                + "(GPU-00000005-0000-0000-0000-000000000000; local rank 5 of 8 takes visible GPU 5); job slurm-481516.0"),
                r.out());
        assertTrue(r.out().contains("Assuming block placement (8 ranks per host, 2 hosts) for the plan:"), r.out());
        assertTrue(r.out().contains("Plan: 114 CUDA IPC copies (intra-node), 48 NCCL collectives"), r.out());
        assertTrue(r.out().contains("  ipc-r8-r13-256MiB            imports from rank 8"), r.out());
        assertTrue(r.out().contains("  16 NCCL collectives over all 16 ranks (inter-node): ALL_REDUCE, ALL_GATHER, "
                + "REDUCE_SCATTER, ALL_TO_ALL x FLOAT32, BFLOAT16 x 1 MiB, 256 MiB\n"), r.out());
        assertTrue(r.out().contains("  16 NCCL collectives over gpu-b07's 8 ranks (intra-node)"), r.out());
    }

    @Test
    void ranksThatDoNotFitTheGpusAreRefused() throws Exception {
        assertOneLine(run(EnvFixtures.read("slurm-2x4-rank5.env"), "run", "--dry-run", "--topology",
                topology("h200x8-nv18-r580.json")), "rank 5: gpu-b07 runs 4 ranks (SLURM_NTASKS_PER_NODE=4, Slurm) but rank 5 "
                + "sees 8 GPUs (CUDA_VISIBLE_DEVICES=unset)");
    }

    @Test
    void aMalformedLauncherVariableIsOneLine() throws Exception {
        assertOneLine(run(EnvFixtures.with("openmpi4-rank3.env", "OMPI_COMM_WORLD_RANK", "three"), "run", "--dry-run"),
                "OMPI_COMM_WORLD_RANK='three' is not a rank (a whole number, 0 or more); the Open MPI launcher was "
                        + "detected");
    }

    @Test
    void optionsOfTheOneProcessRunAreRefusedUnderALauncher() throws Exception {
        assertOneLine(run(twoNodesOfEight(), "run", "--pairs", "0-1", "--dry-run"), "--pairs does not apply to a job "
                + "of several processes");
        assertOneLine(run(twoNodesOfEight(), "run", "--paths", "CE_P2P_READ", "--dry-run"), "--paths CE_P2P_READ does "
                + "not apply to a job of several processes; there --paths takes IPC, NCCL");
    }

    @Test
    void aWorldOfOneIsTheOrdinaryRunWithANote() throws Exception {
        Result r = run(EnvFixtures.read("srun-inside-mpirun-rank1.env"), "run", "--dry-run", "--topology",
                topology("h200x1-single-r580.json"), "--paths", "CE_P2P_READ", "--sizes", "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().startsWith("p2pbench: note: rank 0 of 1 (local rank 0 of 1, Open MPI), so this is an ordinary "
                + "one-process run; Slurm's variables are set too (rank 1 of 2"), r.err());
        assertTrue(r.out().startsWith("Plan for h200x1-single-r580 (1 GPU)"), r.out());
    }
}
