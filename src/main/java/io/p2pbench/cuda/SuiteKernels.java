package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The suite's kernels ({@code kernels.cu}: pattern fill and check, SM copy, gate spin, sums),
 * compiled once per architecture for the life of the process and loaded once per GPU context (again
 * after {@link Cuda#resetDevices()}, from the compiled image kept here).
 */
public final class SuiteKernels {
    /** Threads per block for the element-wise kernels. */
    public static final int BLOCK = 256;
    private static final String RESOURCE = "/io/p2pbench/cuda/kernels.cu";
    private static final Map<Integer, CudaModule> MODULES = new ConcurrentHashMap<>();
    private static final Map<Integer, Integer> SM_COUNTS = new ConcurrentHashMap<>();
    private static final Map<String, Nvrtc.Image> IMAGES = new ConcurrentHashMap<>();
    private static volatile String source;

    private SuiteKernels() {}

    /** The module on {@code device}, compiling and loading it on first use. */
    public static CudaModule on(int device) {
        return MODULES.computeIfAbsent(device, d -> {
            int major = Cuda.attribute(d, cudaDevAttrComputeCapabilityMajor);
            int minor = Cuda.attribute(d, cudaDevAttrComputeCapabilityMinor);
            Nvrtc.Image image = IMAGES.computeIfAbsent(major + "." + minor,
                    arch -> Nvrtc.compile(source(), "p2pbench_kernels", major, minor));
            return new CudaModule(d, image);
        });
    }

    /** The kernel {@code name} on {@code device}. */
    public static Kernel kernel(int device, String name) {
        return on(device).kernel(name);
    }

    /** Number of SMs of {@code device}. */
    public static int smCount(int device) {
        return SM_COUNTS.computeIfAbsent(device, d -> Cuda.attribute(d, cudaDevAttrMultiProcessorCount));
    }

    /** A grid for a grid-stride loop over {@code items}: enough blocks to fill the GPU, no more than needed. */
    public static int gridFor(int device, long items, int block) {
        long needed = Math.max(1, (items + block - 1) / block);
        return (int) Math.min(needed, smCount(device) * 8L);
    }

    /** Unloads every module (tests that count device memory call this first); compiled images are kept. */
    public static void unloadAll() {
        for (CudaModule m : MODULES.values()) {
            m.close();
        }
        MODULES.clear();
    }

    /** The CUDA C source of the suite's kernels. */
    public static String source() {
        String s = source;
        if (s == null) {
            try (InputStream in = SuiteKernels.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("resource " + RESOURCE + " is missing from the jar");
                }
                s = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            source = s;
        }
        return s;
    }
}
