package io.p2pbench.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Local rank to GPU for every launcher, and the counts that do not fit. */
class RankGpuTest {
    private static LaunchEnvironment env(String fixture, String... extra) {
        return LaunchEnvironment.detect(EnvFixtures.with(fixture, extra)).orElseThrow();
    }

    @Test
    void localRankTakesTheSameNumberedVisibleGpu() {
        assertEquals(1, RankGpu.bind(env("slurm-2x4-rank5.env"), "gpu-b07", 4, null).device());
        assertEquals(3, RankGpu.bind(env("openmpi4-rank3.env"), "n0", 4, "0,1,2,3").device());
        assertEquals(1, RankGpu.bind(env("mpich-hydra-rank1.env"), "n0", 2, null).device());
        RankGpu t = RankGpu.bind(env("torchrun-rank1.env"), "n0", 2, null);
        assertEquals(1, t.device());
        assertEquals("local rank 1 of 2 takes visible GPU 1", t.how());
    }

    @Test
    void aLauncherThatBoundOneGpuPerProcessIsRespected() {
        RankGpu g = RankGpu.bind(env("slurm-gpus-per-task-rank1.env"), "gpu-a01", 1, "1");
        assertEquals(0, g.device(), "the one GPU it sees");
        assertEquals("the one GPU CUDA_VISIBLE_DEVICES=1 leaves visible", g.how());
        // Two ranks bound to the same GPU (the one-GPU node's ipc step): each sees GPU 0.
        assertEquals(0, RankGpu.bind(env("torchrun-rank1.env"), "n0", 1, "0").device());
    }

    @Test
    void countsThatDoNotFitAreOneLine() {
        LaunchException e = assertThrows(LaunchException.class,
                () -> RankGpu.bind(env("torchrun-rank1.env"), "n0", 1, null));
        assertTrue(e.getMessage().startsWith("n0 runs 2 ranks (LOCAL_WORLD_SIZE=2, torchrun-style) but rank 1 sees 1 GPU "
                + "(CUDA_VISIBLE_DEVICES=unset); start one rank per GPU (1 per host), or give each rank one GPU"),
                e.getMessage());
        e = assertThrows(LaunchException.class, () -> RankGpu.bind(env("slurm-2x4-rank5.env"), "gpu-b07", 8, null));
        assertTrue(e.getMessage().startsWith("gpu-b07 runs 4 ranks (SLURM_NTASKS_PER_NODE=4, Slurm) but rank 5 sees 8 GPUs"),
                e.getMessage());
        e = assertThrows(LaunchException.class, () -> RankGpu.bind(env("openmpi4-rank3.env"), "n0", 2, "0,1"));
        assertTrue(e.getMessage().contains("sees 2 GPUs (CUDA_VISIBLE_DEVICES=0,1)"), e.getMessage());
    }
}
