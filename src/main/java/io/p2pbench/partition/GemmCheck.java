package io.p2pbench.partition;

import io.p2pbench.collective.ModelShape;
import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.Cublas;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.cuda.Resources;
import io.p2pbench.cuda.StreamGate;
import io.p2pbench.cuda.SuiteKernels;
import io.p2pbench.settings.Settings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Prints the cuBLAS time of every distinct layer GEMM of the presets (SINGLE; decode at batch 8,
 * prefill of 2048 tokens), as {@code tools/gemm-check/torch_matmul.py} prints torch.matmul's for the
 * same shapes, so the partition step's compute can be checked against PyTorch on the GPU node.
 * Each shape: 10 untimed GEMMs, then the median over 20 event-timed batches of 10 back-to-back
 * GEMMs; operands hold random-like bf16 values (constant operands run about 10% faster). Each batch
 * is enqueued behind a {@link StreamGate} and then released, so the events time the GEMMs on the device,
 * not the host's launch rate (a small decode GEMM takes less time on the GPU than its launch on the
 * host; torch_matmul.py holds its stream the same way with a sleep kernel).
 *
 * <p>Run: {@code tools/gemm-check/run.sh} (both programs, one GPU call).
 */
public final class GemmCheck {
    private GemmCheck() {}

    /** The shapes both programs time: model, phase, GEMM. Kept in step with torch_matmul.py's list. */
    public static List<String[]> shapes() {
        List<String[]> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (ModelShape m : ModelShape.PRESETS) {
            for (Phase phase : Phase.values()) {
                PartitionSpec s = new PartitionSpec(m, Plan.SINGLE, 1, phase, phase == Phase.DECODE ? 8 : 1, 2048, 4096);
                for (GemmShape g : s.layerGemms()) {
                    String key = g.rows() + "x" + g.inner() + "x" + g.cols();
                    if (seen.add(m.name() + phase + key)) {
                        out.add(new String[] {m.name(), phase.name(), g.name(), Integer.toString(g.rows()),
                            Integer.toString(g.inner()), Integer.toString(g.cols())});
                    }
                }
            }
        }
        return out;
    }

    /**
     * Prints one tab-separated line per shape: model, phase, gemm, rows, inner, cols, median us, TFLOP/s.
     * {@code -Dp2pbench.gemm.only=ROWSxINNERxCOLS,...} times only those shapes; the cuBLAS library the
     * process loaded (path from /proc/self/maps, and its version) goes to standard error.
     *
     * <p>With {@code --serve} it times on request instead, so that a driver can alternate it with
     * torch.matmul shape by shape ({@code tools/gemm-check/torch_matmul.py --paired}): it prints the
     * shape table (model, phase, gemm, rows, inner, cols), a line {@code ready}, then answers every line
     * {@code ROWSxINNERxCOLS} on standard input with {@code ROWSxINNERxCOLS median_us checksum}, where
     * checksum is the sum of the output's first 4096 bf16 values (the operands are {@link #fill}'s
     * pattern, which the driver builds too, so both sides can be seen to compute the same product).
     */
    public static void main(String[] args) throws IOException {
        Cuda.Availability a = Cuda.availability();
        if (!a.available()) {
            System.err.println(a.problem());
            System.exit(1);
        }
        boolean serve = args.length > 0 && args[0].equals("--serve");
        int device = args.length > (serve ? 1 : 0) ? Integer.parseInt(args[serve ? 1 : 0]) : 0;
        try (Timer timer = new Timer(device)) {
            System.err.println("cublas " + timer.blas.version() + " " + loadedLibraries("libcublas"));
            if (serve) {
                serve(timer);
                return;
            }
            System.out.println("model\tphase\tgemm\trows\tinner\tcols\tcublas_us\ttflops");
            Set<String> only = new LinkedHashSet<>();
            for (String o : Settings.current().gemmOnly().split(",")) {
                if (!o.isBlank()) {
                    only.add(o.strip());
                }
            }
            for (String[] s : shapes()) {
                if (!only.isEmpty() && !only.contains(s[3] + "x" + s[4] + "x" + s[5])) {
                    continue;
                }
                int rows = Integer.parseInt(s[3]);
                int inner = Integer.parseInt(s[4]);
                int cols = Integer.parseInt(s[5]);
                double median = timer.time(rows, inner, cols)[0];
                System.out.printf(Locale.ROOT, "%s\t%s\t%s\t%d\t%d\t%d\t%.2f\t%.1f%n", s[0], s[1], s[2], rows, inner,
                        cols, median, 2.0 * rows * inner * cols / (median * 1e-6) / 1e12);
            }
        }
    }

    private static void serve(Timer timer) throws IOException {
        for (String[] s : shapes()) {
            System.out.println(String.join("\t", s));
        }
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            String[] d = line.strip().split("x");
            if (d.length != 3) {
                System.out.println("error: expected ROWSxINNERxCOLS, got '" + line.strip() + "'");
                System.out.flush();
                continue;
            }
            double[] r = timer.time(Integer.parseInt(d[0]), Integer.parseInt(d[1]), Integer.parseInt(d[2]));
            System.out.printf(Locale.ROOT, "%s %.3f %.6f%n", line.strip(), r[0], r[1]);
            System.out.flush();
        }
    }

    /**
     * How long the gate holds the stream before each batch, at least (default 2000 us,
     * {@code -Dp2pbench.gemm.holdMicros}): as long as torch_matmul.py's sleep kernel (4,000,000 cycles, about
     * 2 ms), so both sides start every batch after the same near-idle gap. Long prefill GEMMs are power-bound
     * on the H200, and a batch that starts after 2 ms of rest runs faster than one that starts at once.
     */
    static final long HOLD_NANOS = Settings.current().gemmHoldMicros() * 1000;

    /** One GPU's stream, cuBLAS handle, events and gate, timing one shape at a time. */
    private static final class Timer implements AutoCloseable {
        static final int CHECKSUM_ELEMENTS = 4096;
        final int device;
        final CudaStream stream;
        final Cublas blas;
        final CudaEvent start;
        final CudaEvent stop;
        final StreamGate gate;
        final PinnedHostBuffer head;

        Timer(int device) {
            this.device = device;
            List<AutoCloseable> made = new ArrayList<>();
            try {
                stream = add(made, new CudaStream(device));
                blas = add(made, new Cublas(stream));
                start = add(made, CudaEvent.timing(device));
                stop = add(made, CudaEvent.timing(device));
                gate = add(made, new StreamGate());
                head = add(made, new PinnedHostBuffer(CHECKSUM_ELEMENTS * 2L));
            } catch (RuntimeException ex) {
                try {
                    Resources.closeReversed(made);
                } catch (RuntimeException closing) {
                    ex.addSuppressed(closing);
                }
                throw ex;
            }
        }

        private static <T extends AutoCloseable> T add(List<AutoCloseable> made, T handle) {
            made.add(handle);
            return handle;
        }

        /**
         * 10 untimed GEMMs, then 20 gated, event-timed batches of 10.
         *
         * @return {median microseconds per GEMM, sum of the output's first 4096 values}
         */
        double[] time(int rows, int inner, int cols) {
            try (DeviceBuffer x = fill(device, (long) rows * inner, stream, 1);
                 DeviceBuffer w = fill(device, (long) inner * cols, stream, 2);
                 DeviceBuffer y = new DeviceBuffer(device, (long) rows * cols * 2)) {
                for (int i = 0; i < 10; i++) {
                    blas.matmulBf16(x, w, y, rows, inner, cols);
                }
                double[] us = new double[20];
                for (int b = 0; b < us.length; b++) {
                    gate.hold(stream);
                    long held = System.nanoTime();
                    try {
                        start.record(stream);
                        for (int i = 0; i < 10; i++) {
                            blas.matmulBf16(x, w, y, rows, inner, cols);
                        }
                        stop.record(stream);
                        while (System.nanoTime() - held < HOLD_NANOS) {
                            Thread.onSpinWait();
                        }
                    } finally {
                        gate.release();
                    }
                    stop.synchronize();
                    us[b] = CudaEvent.elapsedMillis(start, stop) * 1000.0 / 10;
                }
                Arrays.sort(us);
                long n = Math.min(CHECKSUM_ELEMENTS, (long) rows * cols);
                Copies.async(head, 0, y, 0, n * 2, stream);
                stream.synchronize();
                ByteBuffer h = head.hostView().order(ByteOrder.LITTLE_ENDIAN);
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += Float.intBitsToFloat((h.getShort(2 * i) & 0xFFFF) << 16);
                }
                return new double[] {(us[9] + us[10]) / 2, sum};
            }
        }

        @Override
        public void close() {
            Resources.closeEach(List.of(head, gate, stop, start, blas, stream));
        }
    }

    /** The mapped files of this process whose name contains {@code part}, or "?" where /proc is not readable. */
    static String loadedLibraries(String part) {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return String.join(" ", lines.map(l -> l.substring(l.lastIndexOf(' ') + 1)).filter(f -> f.contains(part))
                    .collect(Collectors.toCollection(TreeSet::new)));
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /**
     * {@code elements} bf16 values of the suite's rank pattern (seed 0x5EED + {@code seed}, rank 0: multiples of
     * 2^-8 in [-0.5, 0.5)), as {@code torch_matmul.py}'s {@code pattern} builds them.
     */
    static DeviceBuffer fill(int device, long elements, CudaStream stream, int seed) {
        DeviceBuffer b = new DeviceBuffer(device, elements * 2);
        SuiteKernels.kernel(device, "fillRankBf16").launch(stream, SuiteKernels.gridFor(device, elements, SuiteKernels.BLOCK),
                SuiteKernels.BLOCK, b, elements, 0x5EED + seed, 0);
        stream.synchronize();
        return b;
    }
}
