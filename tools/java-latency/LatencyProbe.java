import io.p2pbench.cuda.Copies;
import io.p2pbench.cuda.CudaStream;
import io.p2pbench.cuda.DeviceBuffer;
import io.p2pbench.cuda.Memory;
import io.p2pbench.cuda.PinnedHostBuffer;
import io.p2pbench.transfer.HostDirection;
import io.p2pbench.transfer.HostMemory;
import io.p2pbench.transfer.TransferFixture;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Diagnostic: the native latency loop of tools/native-latency/copy_latency.cu, written in Java on
 * the suite's CUDA layer, outside JMH. It splits the host-observed time of a 4-byte copy and
 * cudaStreamSynchronize into what the JNI path costs (raw: Copies.async + CudaStream.synchronize
 * on plain buffers), what the suite's fixture adds (fixture: TransferFixture.transferOnce, then
 * its data check), and what JMH adds (compare with the JMH latency rows of the same device call).
 *
 * <p>Same method as the C loop: 10,000 untimed warm-up iterations, then N timed ones, each timed
 * with System.nanoTime (CLOCK_MONOTONIC) around copy + synchronize; R-7 percentiles; one JSON
 * object per case.
 *
 * <p>Build: {@code javac -d OUT -cp 'LIB/*' tools/java-latency/LatencyProbe.java} with LIB the
 * bundle's lib folder. Run: {@code java -cp 'OUT:LIB/*' LatencyProbe [iterations]}.
 */
public final class LatencyProbe {
    private static final int WARMUP = 10_000;

    public static void main(String[] args) throws Exception {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        long bytes = 4;
        try (CudaStream stream = new CudaStream(0);
             DeviceBuffer a = new DeviceBuffer(0, bytes);
             DeviceBuffer b = new DeviceBuffer(0, bytes);
             PinnedHostBuffer host = new PinnedHostBuffer(bytes)) {
            raw("raw-D2D", b, a, bytes, stream, iterations);
            raw("raw-H2D", a, host, bytes, stream, iterations);
            raw("raw-D2H", host, a, bytes, stream, iterations);
            Thread worker = new Thread(() -> raw("raw-D2H-thread", host, a, bytes, stream, iterations));
            worker.start();
            worker.join();
        }
        fixture("fixture-H2D", HostDirection.H2D, bytes, iterations);
        fixture("fixture-D2H", HostDirection.D2H, bytes, iterations);
    }

    private static void raw(String name, Memory dst, Memory src, long bytes, CudaStream stream, int n) {
        io.p2pbench.cuda.Cuda.forgetCurrentDevice();
        for (int i = 0; i < WARMUP; i++) {
            Copies.async(dst, 0, src, 0, bytes, stream);
            stream.synchronize();
        }
        long[] ns = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            Copies.async(dst, 0, src, 0, bytes, stream);
            stream.synchronize();
            ns[i] = System.nanoTime() - t0;
        }
        report(name, ns, "unchecked");
    }

    private static void fixture(String name, HostDirection direction, long bytes, int n) {
        try (TransferFixture f = TransferFixture.hostDevice(0, List.of(direction), HostMemory.PINNED, bytes)) {
            for (int i = 0; i < WARMUP; i++) {
                f.transferOnce();
            }
            f.poison();
            long[] ns = new long[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                f.transferOnce();
                ns[i] = System.nanoTime() - t0;
            }
            f.verify();
            report(name, ns, "verified " + f.bytesVerified() + " B");
        }
    }

    private static void report(String name, long[] ns, String data) {
        double[] us = new double[ns.length];
        double sum = 0;
        for (int i = 0; i < ns.length; i++) {
            us[i] = ns[i] / 1000.0;
            sum += us[i];
        }
        Arrays.sort(us);
        System.out.println(String.format(Locale.ROOT,
                "{\"case\":\"%s\",\"bytes\":4,\"iterations\":%d,\"warmup\":%d,\"unit\":\"us\",\"p50\":%.4f,"
                        + "\"p90\":%.4f,\"p99\":%.4f,\"p99.9\":%.4f,\"min\":%.4f,\"mean\":%.4f,\"max\":%.4f,"
                        + "\"percentile_estimator\":\"R-7\",\"clock\":\"System.nanoTime\",\"data\":\"%s\"}",
                name, us.length, WARMUP, r7(us, 0.5), r7(us, 0.9), r7(us, 0.99), r7(us, 0.999), us[0],
                sum / us.length, us[us.length - 1], data));
    }

    private static double r7(double[] s, double p) {
        double h = (s.length - 1) * p;
        int lo = (int) Math.floor(h);
        if (lo + 1 >= s.length) {
            return s[s.length - 1];
        }
        return s[lo] + (h - lo) * (s[lo + 1] - s[lo]);
    }
}
