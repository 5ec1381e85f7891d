package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The suite's kernels ({@code kernels.cu}: pattern fill and check, SM copy, gate spin, sums; and,
 * as a module of their own, {@code forward.cu} with {@code attention.cu}: the transformer forward
 * pass of the partition step), compiled once per architecture for the life of the process and
 * loaded once per GPU context (again after {@link Cuda#resetDevices()}, from the compiled image kept
 * here).
 */
public final class SuiteKernels {
    /** Threads per block for the element-wise kernels. */
    public static final int BLOCK = 256;
    private static final String RESOURCE = "/io/p2pbench/cuda/kernels.cu";
    /** The forward-pass program: these files, one after another. */
    private static final List<String> FORWARD_RESOURCES = List.of("/io/p2pbench/cuda/forward.cu",
            "/io/p2pbench/cuda/attention.cu");
    private static final Map<Integer, CudaModule> MODULES = new ConcurrentHashMap<>();
    private static final Map<Integer, CudaModule> FORWARD_MODULES = new ConcurrentHashMap<>();
    private static final Map<Integer, Integer> SM_COUNTS = new ConcurrentHashMap<>();
    private static final Map<String, Nvrtc.Image> IMAGES = new ConcurrentHashMap<>();
    private static final Map<String, String> SOURCES = new ConcurrentHashMap<>();

    private SuiteKernels() {}

    /** The module on {@code device}, compiling and loading it on first use. */
    public static CudaModule on(int device) {
        return MODULES.computeIfAbsent(device, d -> load(d, source(), "p2pbench_kernels"));
    }

    /** The forward-pass module ({@code forward.cu}, {@code attention.cu}) on {@code device}, compiled and loaded on first use. */
    public static CudaModule forward(int device) {
        return FORWARD_MODULES.computeIfAbsent(device, d -> load(d, forwardSource(), "p2pbench_forward"));
    }

    private static CudaModule load(int device, String source, String program) {
        int major = Cuda.attribute(device, cudaDevAttrComputeCapabilityMajor);
        int minor = Cuda.attribute(device, cudaDevAttrComputeCapabilityMinor);
        Nvrtc.Image image = IMAGES.computeIfAbsent(program + " " + major + "." + minor,
                arch -> Nvrtc.compile(source, program, major, minor));
        return new CudaModule(device, image);
    }

    /** The kernel {@code name} on {@code device}. */
    public static Kernel kernel(int device, String name) {
        return on(device).kernel(name);
    }

    /** The forward-pass kernel {@code name} on {@code device}. */
    public static Kernel forwardKernel(int device, String name) {
        return forward(device).kernel(name);
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
        for (Map<Integer, CudaModule> modules : List.of(MODULES, FORWARD_MODULES)) {
            for (CudaModule m : modules.values()) {
                m.close();
            }
            modules.clear();
        }
    }

    /** The CUDA C source of the suite's kernels. */
    public static String source() {
        return source(RESOURCE);
    }

    /** The CUDA C source of the forward-pass kernels: {@code forward.cu}, then {@code attention.cu}. */
    public static String forwardSource() {
        StringBuilder all = new StringBuilder();
        for (String r : FORWARD_RESOURCES) {
            all.append(source(r)).append('\n');
        }
        return all.toString();
    }

    private static String source(String resource) {
        return SOURCES.computeIfAbsent(resource, r -> {
            try (InputStream in = SuiteKernels.class.getResourceAsStream(r)) {
                if (in == null) {
                    throw new IllegalStateException("resource " + r + " is missing from the jar");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
