package io.p2pbench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.cuda.Cuda;
import io.p2pbench.results.ResultFolder;
import io.p2pbench.results.RunManifest;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job of two processes on the GPU node, as torchrun would start it (RANK, WORLD_SIZE, ...; NCCL_COMM_ID for
 * NCCL's bootstrap): CUDA IPC copies each way between the two processes, verified and device-timed, and NCCL
 * collectives across them. On a one-GPU machine both processes use GPU 0 (CUDA_VISIBLE_DEVICES=0 each): the copies
 * are single-GPU rows, and NCCL, which refuses two ranks of one communicator on one GPU, is recorded as skipped
 * with NCCL's own answer. The same is {@code tools/device/gpu-session.sh ipc}, with the output kept.
 */
@RequiresGpu
class GpuProcessJobTest {
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void twoProcessesCopyThroughCudaIpcAndRankZeroCollects(@TempDir Path work) throws Exception {
        boolean oneGpu = Cuda.availability().deviceCount() < 2;
        int master = freePort();
        int nccl = freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "io.p2pbench.cli.Main", "run", "--sizes", "1M", "--out", work.resolve("results").toString());
            pb.environment().keySet().removeIf(k -> k.startsWith("SLURM") || k.startsWith("OMPI_") || k.startsWith("PMI"));
            pb.environment().put("RANK", Integer.toString(r));
            pb.environment().put("WORLD_SIZE", "2");
            pb.environment().put("LOCAL_RANK", Integer.toString(r));
            pb.environment().put("LOCAL_WORLD_SIZE", "2");
            pb.environment().put("MASTER_ADDR", "127.0.0.1");
            pb.environment().put("MASTER_PORT", Integer.toString(master));
            pb.environment().put("TORCHELASTIC_RUN_ID", "gpu-test");
            pb.environment().put("NCCL_COMM_ID", "127.0.0.1:" + nccl);
            pb.environment().put("NCCL_NVLS_ENABLE", "0");
            if (oneGpu) {
                pb.environment().put("CUDA_VISIBLE_DEVICES", "0");
            } else {
                pb.environment().put("CUDA_VISIBLE_DEVICES", "0,1");
            }
            pb.redirectOutput(work.resolve("rank" + r + ".out").toFile())
                    .redirectError(work.resolve("rank" + r + ".err").toFile());
            ranks.add(pb.start());
        }
        for (int r = 1; r >= 0; r--) {
            assertTrue(ranks.get(r).waitFor(240, TimeUnit.SECONDS), "rank " + r + " did not end");
            assertEquals(0, ranks.get(r).exitValue(), Files.readString(work.resolve("rank" + r + ".err"))
                    + Files.readString(work.resolve("rank" + r + ".out")));
        }
        Path manifest;
        try (Stream<Path> s = Files.find(work.resolve("results"), 3, (p, a) -> p.endsWith("manifest.json"))) {
            manifest = s.findFirst().orElseThrow();
        }
        RunManifest m = ResultFolder.open(manifest.getParent()).readManifest();
        List<RunManifest.Entry> copies = m.entries().stream().filter(e -> e.combination().kind().equals("ipc")).toList();
        assertEquals(2, copies.size(), "0->1 and 1->0 at 1 MiB");
        for (RunManifest.Entry e : copies) {
            assertEquals("ok", e.status(), e.reason());
            assertTrue(e.bytesVerified() >= 2L * (1 << 20), "the source once and every batch: " + e.bytesVerified());
            assertEquals(oneGpu, e.combination().singleGpu());
            assertFalse(e.headline().isBlank());
        }
        List<RunManifest.Entry> collectives = m.entries().stream()
                .filter(e -> e.combination().kind().equals("nccl-processes")).toList();
        assertFalse(collectives.isEmpty());
        for (RunManifest.Entry e : collectives) {
            if (oneGpu) {
                assertTrue(e.status().equals("ok") || (e.status().equals("skipped")
                        && e.reason().startsWith("NCCL refuses two ranks of one communicator on one GPU")), e.toString());
            } else {
                assertEquals("ok", e.status(), e.reason());
            }
        }
    }
}
