package io.p2pbench.partition;

import io.p2pbench.collective.ModelShape;
import io.p2pbench.cuda.Cublas;
import io.p2pbench.cuda.Cuda;
import io.p2pbench.cuda.CudaEvent;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.StreamGate;
import io.p2pbench.cuda.SuiteKernels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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
     */
    public static void main(String[] args) {
        Cuda.Availability a = Cuda.availability();
        if (!a.available()) {
            System.err.println(a.problem());
            System.exit(1);
        }
        int device = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        System.out.println("model\tphase\tgemm\trows\tinner\tcols\tcublas_us\ttflops");
        try (CudaStream stream = new CudaStream(device); Cublas blas = new Cublas(stream);
             CudaEvent start = CudaEvent.timing(device); CudaEvent stop = CudaEvent.timing(device);
             StreamGate gate = new StreamGate()) {
            System.err.println("cublas " + blas.version() + " " + loadedLibraries("libcublas"));
            Set<String> only = new LinkedHashSet<>();
            for (String o : System.getProperty("p2pbench.gemm.only", "").split(",")) {
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
                try (DeviceBuffer x = filled(device, (long) rows * inner, stream, 1);
                     DeviceBuffer w = filled(device, (long) inner * cols, stream, 2);
                     DeviceBuffer y = new DeviceBuffer(device, (long) rows * cols * 2)) {
                    for (int i = 0; i < 10; i++) {
                        blas.matmulBf16(x, w, y, rows, inner, cols);
                    }
                    double[] us = new double[20];
                    for (int b = 0; b < us.length; b++) {
                        gate.hold(stream);
                        try {
                            start.record(stream);
                            for (int i = 0; i < 10; i++) {
                                blas.matmulBf16(x, w, y, rows, inner, cols);
                            }
                            stop.record(stream);
                        } finally {
                            gate.release();
                        }
                        stop.synchronize();
                        us[b] = CudaEvent.elapsedMillis(start, stop) * 1000.0 / 10;
                    }
                    Arrays.sort(us);
                    double median = (us[9] + us[10]) / 2;
                    System.out.printf(Locale.ROOT, "%s\t%s\t%s\t%d\t%d\t%d\t%.2f\t%.1f%n", s[0], s[1], s[2], rows, inner,
                            cols, median, 2.0 * rows * inner * cols / (median * 1e-6) / 1e12);
                }
            }
        }
    }

    /** The mapped files of this process whose name contains {@code part}, or "?" where /proc is not readable. */
    static String loadedLibraries(String part) {
        try (java.util.stream.Stream<String> lines = java.nio.file.Files.lines(java.nio.file.Path.of("/proc/self/maps"))) {
            return String.join(" ", lines.map(l -> l.substring(l.lastIndexOf(' ') + 1)).filter(f -> f.contains(part))
                    .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new)));
        } catch (java.io.IOException | RuntimeException e) {
            return "?";
        }
    }

    private static DeviceBuffer filled(int device, long elements, CudaStream stream, int seed) {
        DeviceBuffer b = new DeviceBuffer(device, elements * 2);
        SuiteKernels.kernel(device, "fillRankBf16").launch(stream, SuiteKernels.gridFor(device, elements, SuiteKernels.BLOCK),
                SuiteKernels.BLOCK, b, elements, 0x5EED + seed, 0);
        stream.synchronize();
        return b;
    }
}
