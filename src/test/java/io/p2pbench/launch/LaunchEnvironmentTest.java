package io.p2pbench.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rank, size, local rank, host and job of every launcher, from recorded environments; the one-line refusals. */
class LaunchEnvironmentTest {
    private static LaunchEnvironment detect(Map<String, String> env) {
        return LaunchEnvironment.detect(env).orElseThrow(() -> new AssertionError("no launcher detected in " + env));
    }

    private static String refusal(Map<String, String> env) {
        LaunchException e = assertThrows(LaunchException.class, () -> LaunchEnvironment.detect(env));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void slurmStepTaskOnTheSecondNode() {
        LaunchEnvironment e = detect(EnvFixtures.read("slurm-2x4-rank5.env"));
        assertEquals(Launcher.SLURM, e.launcher());
        assertEquals(5, e.rank());
        assertEquals(8, e.worldSize());
        assertEquals(1, e.localRank());
        assertEquals(4, e.localWorldSize());
        assertEquals(1, e.nodeId());
        assertEquals("gpu-b07", e.nodeName());
        assertEquals("slurm-481516.0", e.launcherJobId());
        assertTrue(e.multiProcess());
        assertEquals(List.of(), e.notes());
    }

    @Test
    void slurmUnevenTasksPerNodeComeFromTheCompressedList() {
        LaunchEnvironment e = detect(EnvFixtures.read("slurm-uneven-rank4.env"));
        assertEquals(4, e.rank());
        assertEquals(5, e.worldSize());
        assertEquals(1, e.localWorldSize(), "2(x2),1: the third node runs one task");
        assertEquals(List.of(2, 2, 1), Launcher.tasksPerNode("2(x2),1", "X"));
        assertEquals(List.of(4, 4, 4, 3), Launcher.tasksPerNode("4(x3),3", "X"));
    }

    @Test
    void aBatchScriptIsNotARankButAnOrdinaryRun() {
        assertTrue(LaunchEnvironment.detect(EnvFixtures.read("slurm-batch-script.env")).isEmpty(),
                "no SLURM_STEP_ID: the batch script itself, one process");
    }

    @Test
    void openMpiFourAndFive() {
        LaunchEnvironment four = detect(EnvFixtures.read("openmpi4-rank3.env"));
        assertEquals(Launcher.OPEN_MPI, four.launcher());
        assertEquals(3, four.rank());
        assertEquals(4, four.worldSize());
        assertEquals(3, four.localRank());
        assertEquals(4, four.localWorldSize());
        assertEquals("ompi-2915893249", four.launcherJobId());
        LaunchEnvironment five = detect(EnvFixtures.read("openmpi5-in-sbatch-rank1.env"));
        assertEquals(Launcher.OPEN_MPI, five.launcher());
        assertEquals(1, five.rank());
        assertEquals("ompi-prterun-gpu-a01-88211@1", five.launcherJobId());
        assertEquals(List.of(), five.notes(), "the batch step's Slurm variables are no job step: not a launcher");
    }

    @Test
    void mpichHydraHasNoJobIdSoP2pbenchJobIdIsAskedFor() {
        LaunchEnvironment e = detect(EnvFixtures.read("mpich-hydra-rank1.env"));
        assertEquals(Launcher.MPICH, e.launcher());
        assertEquals(1, e.rank());
        assertEquals(2, e.worldSize());
        assertEquals(1, e.localRank());
        assertEquals(2, e.localWorldSize());
        LaunchException none = assertThrows(LaunchException.class,
                () -> LaunchSettings.jobId(EnvFixtures.read("mpich-hydra-rank1.env"), e));
        assertTrue(none.getMessage().contains("set P2PBENCH_JOB_ID"), none.getMessage());
        assertEquals("run1", LaunchSettings.jobId(EnvFixtures.with("mpich-hydra-rank1.env", "P2PBENCH_JOB_ID", "run1"), e));
    }

    @Test
    void torchrunStyle() {
        LaunchEnvironment e = detect(EnvFixtures.read("torchrun-rank1.env"));
        assertEquals(Launcher.TORCHRUN, e.launcher());
        assertEquals(1, e.rank());
        assertEquals(2, e.worldSize());
        assertEquals(1, e.localRank());
        assertEquals(2, e.localWorldSize());
        assertEquals(0, e.nodeId());
        assertEquals("torchrun-run7", e.launcherJobId());
        assertEquals("127.0.0.1:29500", e.masterAddress());
        assertNull(detect(EnvFixtures.with("torchrun-rank1.env", "TORCHELASTIC_RUN_ID", "none")).launcherJobId(),
                "torchrun's default run id 'none' names no job");
    }

    @Test
    void theInnermostLauncherWinsAndTheOuterOneIsNoted() {
        LaunchEnvironment e = detect(EnvFixtures.read("torchrun-under-srun-rank3.env"));
        assertEquals(Launcher.TORCHRUN, e.launcher());
        assertEquals(3, e.rank());
        assertEquals(4, e.worldSize());
        assertEquals(1, e.notes().size());
        assertTrue(e.notes().get(0).startsWith("Slurm's variables are set too (rank 1 of 2"), e.notes().get(0));
    }

    @Test
    void anIncompleteLauncherYieldsToTheNextCompleteOne() {
        LaunchEnvironment e = detect(EnvFixtures.read("srun-pmi2-rank1.env"));
        assertEquals(Launcher.SLURM, e.launcher());
        assertEquals(1, e.rank());
        assertEquals(2, e.localWorldSize());
        assertEquals(List.of("MPICH/Hydra (PMI)'s variables are incomplete (MPI_LOCALRANKID is not set); using Slurm's"),
                e.notes());
    }

    @Test
    void srunInsideMpirunNeedsTheLauncherNamed() {
        Map<String, String> env = EnvFixtures.read("srun-inside-mpirun-rank1.env");
        LaunchEnvironment byPrecedence = detect(env);
        assertEquals(Launcher.OPEN_MPI, byPrecedence.launcher());
        assertFalse(byPrecedence.multiProcess(), "the outer mpirun's world of one");
        assertTrue(byPrecedence.notes().get(0).contains("P2PBENCH_LAUNCHER=slurm would use those"),
                byPrecedence.notes().get(0));
        LaunchEnvironment named = detect(EnvFixtures.with("srun-inside-mpirun-rank1.env", "P2PBENCH_LAUNCHER", "slurm"));
        assertEquals(Launcher.SLURM, named.launcher());
        assertEquals(1, named.rank());
        assertEquals(2, named.worldSize());
        assertTrue(LaunchEnvironment.detect(EnvFixtures.with("torchrun-rank1.env", "P2PBENCH_LAUNCHER", "none"))
                .isEmpty());
    }

    @Test
    void noLauncherNoRank() {
        assertTrue(LaunchEnvironment.detect(Map.of("HOME", "/root", "CUDA_VISIBLE_DEVICES", "0")).isEmpty());
    }

    @Test
    void aMissingVariableIsNamedWithTheLauncherThatWasDetected() {
        String m = refusal(EnvFixtures.with("torchrun-rank1.env", "LOCAL_WORLD_SIZE", null));
        assertTrue(m.startsWith("LOCAL_WORLD_SIZE is not set, but the torchrun-style launcher was detected"), m);
        assertTrue(m.contains("RANK, WORLD_SIZE, LOCAL_RANK set"), m);
        m = refusal(EnvFixtures.with("slurm-2x4-rank5.env", "SLURM_LOCALID", null));
        assertTrue(m.startsWith("SLURM_LOCALID is not set, but the Slurm launcher was detected"), m);
        m = refusal(EnvFixtures.with("torchrun-rank1.env", "MASTER_PORT", null));
        assertTrue(m.startsWith("MASTER_PORT is not set"), m);
        m = refusal(EnvFixtures.with("slurm-uneven-rank4.env", "SLURM_STEP_TASKS_PER_NODE", null));
        assertTrue(m.startsWith("SLURM_TASKS_PER_NODE is not set"), m);
    }

    @Test
    void aMalformedVariableIsQuoted() {
        String m = refusal(EnvFixtures.with("openmpi4-rank3.env", "OMPI_COMM_WORLD_RANK", "three"));
        assertTrue(m.startsWith("OMPI_COMM_WORLD_RANK='three' is not a rank (a whole number, 0 or more); the Open MPI "
                + "launcher was detected"), m);
        m = refusal(EnvFixtures.with("mpich-hydra-rank1.env", "PMI_SIZE", "0"));
        assertTrue(m.startsWith("PMI_SIZE=0 is not a count"), m);
        m = refusal(EnvFixtures.with("torchrun-rank1.env", "MASTER_PORT", "70000"));
        assertTrue(m.startsWith("MASTER_PORT=70000 is not a TCP port"), m);
        m = refusal(EnvFixtures.with("slurm-uneven-rank4.env", "SLURM_STEP_TASKS_PER_NODE", "2(y2),1"));
        assertTrue(m.startsWith("SLURM_STEP_TASKS_PER_NODE=2(y2),1 is not a tasks-per-node list"), m);
        m = refusal(EnvFixtures.with("torchrun-rank1.env", "P2PBENCH_LAUNCHER", "lsf"));
        assertTrue(m.startsWith("P2PBENCH_LAUNCHER=lsf names no launcher; use torchrun, openmpi, mpich, slurm or none"), m);
    }

    @Test
    void inconsistentNumbersAreRefused() {
        String m = refusal(EnvFixtures.with("torchrun-rank1.env", "RANK", "2"));
        assertTrue(m.startsWith("RANK=2 is not below WORLD_SIZE=2: ranks run 0..1"), m);
        m = refusal(EnvFixtures.with("openmpi4-rank3.env", "OMPI_COMM_WORLD_LOCAL_RANK", "4"));
        assertTrue(m.startsWith("OMPI_COMM_WORLD_LOCAL_RANK=4 is not below OMPI_COMM_WORLD_LOCAL_SIZE=4"), m);
        m = refusal(EnvFixtures.with("torchrun-rank1.env", "LOCAL_WORLD_SIZE", "3", "LOCAL_RANK", "1"));
        assertTrue(m.startsWith("LOCAL_WORLD_SIZE=3 is more than WORLD_SIZE=2"), m);
        m = refusal(EnvFixtures.with("slurm-2x4-rank5.env", "SLURM_STEP_NUM_TASKS", "9", "SLURM_NTASKS_PER_NODE", null));
        assertTrue(m.startsWith("SLURM_STEP_TASKS_PER_NODE=4(x2) adds up to 8 tasks but SLURM_STEP_NUM_TASKS=9"), m);
        m = refusal(EnvFixtures.with("slurm-uneven-rank4.env", "SLURM_NODEID", "3"));
        assertTrue(m.startsWith("SLURM_NODEID=3 has no entry in SLURM_STEP_TASKS_PER_NODE=2(x2),1"), m);
        m = refusal(EnvFixtures.with("torchrun-rank1.env", "RANK", "0", "LOCAL_RANK", "1"));
        assertTrue(m.startsWith("LOCAL_RANK=1 is more than RANK=0"), m);
    }

    @Test
    void settingsReadTheJobIdAndTheTimeout() {
        LaunchEnvironment e = detect(EnvFixtures.read("slurm-2x4-rank5.env"));
        assertEquals("slurm-481516.0", LaunchSettings.jobId(EnvFixtures.read("slurm-2x4-rank5.env"), e));
        LaunchException bad = assertThrows(LaunchException.class, () -> LaunchSettings.jobId(
                EnvFixtures.with("slurm-2x4-rank5.env", "P2PBENCH_JOB_ID", "../x"), e));
        assertTrue(bad.getMessage().startsWith("P2PBENCH_JOB_ID='../x' is not a usable job id"), bad.getMessage());
        assertEquals(300, LaunchSettings.timeout(null).toSeconds());
        assertEquals(45, LaunchSettings.timeout(" 45 ").toSeconds());
        for (String t : List.of("0", "ten", "100000")) {
            LaunchException e2 = assertThrows(LaunchException.class, () -> LaunchSettings.timeout(t));
            assertTrue(e2.getMessage().startsWith("P2PBENCH_RANK_TIMEOUT=" + t + " is not a number of seconds"),
                    e2.getMessage());
        }
    }
}
