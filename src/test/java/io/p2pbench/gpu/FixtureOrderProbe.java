package io.p2pbench.gpu;

import io.p2pbench.cuda.Cuda;
import io.p2pbench.transfer.BandwidthProbe;
import io.p2pbench.transfer.CopyPath;
import io.p2pbench.transfer.Sizes;
import io.p2pbench.transfer.TransferFixture;
import io.p2pbench.topology.GpuPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A diagnostic, not a test (run with {@code main} on the GPU node, see tools/device/gpu-session.sh step
 * {@code order}): does a device-local copy's bandwidth depend on what ran before it in the same process?
 * Opens one fixture per token of a sequence on the pair 0-0, outside JMH, warms it up, measures gated
 * batches for a fixed time and prints their median, then closes it. Tokens: a size ({@code 1M}, {@code 4K});
 * {@code sN} sleeps N ms (GPU idle); {@code tSIZE} opens that size on a fresh thread (as JMH runs a trial);
 * {@code r} resets every GPU's context ({@link Cuda#resetDevices()}) and prints how long it took.
 *
 * <p>Usage: {@code FixtureOrderProbe PATH WARMUP_MS MEASURE_MS TOKEN,TOKEN,...}
 */
public final class FixtureOrderProbe {
    private FixtureOrderProbe() {}

    public static void main(String[] args) throws Exception {
        CopyPath path = CopyPath.valueOf(args[0]);
        long warmupMs = Long.parseLong(args[1]);
        long measureMs = Long.parseLong(args[2]);
        long t0 = System.nanoTime();
        int step = 0;
        for (String token : args[3].split(",")) {
            step++;
            if (token.equals("r")) {
                long r0 = System.nanoTime();
                int n = Cuda.resetDevices();
                System.out.printf(Locale.ROOT, "order %-2d t=%7.3fs reset    %d GPU(s) in %.1f ms%n", step,
                        (System.nanoTime() - t0) / 1e9, n, (System.nanoTime() - r0) / 1e6);
                continue;
            }
            if (token.startsWith("s")) {
                Thread.sleep(Long.parseLong(token.substring(1)));
                continue;
            }
            boolean thread = token.startsWith("t");
            long bytes = Sizes.parse(thread ? token.substring(1) : token);
            String[] line = new String[1];
            Runnable one = () -> line[0] = measure(path, bytes, warmupMs, measureMs);
            if (thread) {
                Thread th = new Thread(one, "probe-" + step);
                th.start();
                th.join();
            } else {
                one.run();
            }
            System.out.printf(Locale.ROOT, "order %-2d t=%7.3fs %-8s %s%n", step, (System.nanoTime() - t0) / 1e9,
                    token, line[0]);
        }
    }

    private static String measure(CopyPath path, long bytes, long warmupMs, long measureMs) {
        try (TransferFixture f = TransferFixture.peer(path, new GpuPair(0, 0), bytes, false,
                TransferFixture.DEFAULT_STAGING_CHUNK)) {
            int warm = 0;
            long end = System.nanoTime() + warmupMs * 1_000_000;
            List<Double> warmFigures = new ArrayList<>();
            do {
                warmFigures.add(f.measureBatch().gbps(0));
                warm++;
            } while (System.nanoTime() < end);
            List<Double> figures = new ArrayList<>();
            end = System.nanoTime() + measureMs * 1_000_000;
            do {
                BandwidthProbe.Batch b = f.measureBatch();
                figures.add(b.gbps(0));
            } while (System.nanoTime() < end);
            double[] v = figures.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return String.format(Locale.ROOT, "median %8.2f GB/s  min %8.2f  max %8.2f  batches %4d (warm-up %d, first %.1f last %.1f)",
                    v[v.length / 2], v[0], v[v.length - 1], v.length, warm, warmFigures.get(0),
                    warmFigures.get(warmFigures.size() - 1));
        }
    }
}
