package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.nvrtc.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.bytedeco.cuda.global.nvrtc;
import org.bytedeco.cuda.nvrtc._nvrtcProgram;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.SizeTPointer;

/**
 * Run-time compilation of the suite's CUDA C kernels with NVRTC, to a CUBIN for the GPU's own
 * architecture (PTX for the newest supported one when NVRTC is older than the GPU).
 *
 * <p>A run starts many benchmark JVMs, so compiled images are cached on disk, keyed by a hash of the
 * source, the options and the NVRTC version: compilation stays out of every JVM but the first.
 */
public final class Nvrtc {
    private Nvrtc() {}

    /** A compiled image: CUBIN bytes, or NUL-terminated PTX text. */
    public record Image(byte[] bytes, boolean ptx, String target) {}

    private static void check(int status, String call, Object... args) {
        if (status != NVRTC_SUCCESS) {
            BytePointer text = nvrtcGetErrorString(status);
            throw new CudaException(CudaException.Api.NVRTC, call, Cuda.formatArgs(args), status, "NVRTC_ERROR_" + status,
                    text == null ? "" : text.getString());
        }
    }

    /** NVRTC's version as {major, minor}. */
    public static int[] version() {
        Loader.load(nvrtc.class);
        try (IntPointer major = new IntPointer(1); IntPointer minor = new IntPointer(1)) {
            check(nvrtcVersion(major, minor), "nvrtcVersion");
            return new int[] {major.get(), minor.get()};
        }
    }

    static int[] supportedArchitectures() {
        try (IntPointer n = new IntPointer(1)) {
            check(nvrtcGetNumSupportedArchs(n), "nvrtcGetNumSupportedArchs");
            try (IntPointer archs = new IntPointer(n.get())) {
                check(nvrtcGetSupportedArchs(archs), "nvrtcGetSupportedArchs");
                int[] out = new int[n.get()];
                archs.get(out);
                Arrays.sort(out);
                return out;
            }
        }
    }

    /** Compiles {@code source} for a GPU of compute capability {@code major.minor}, using the disk cache. */
    public static Image compile(String source, String programName, int major, int minor) {
        int arch = major * 10 + minor;
        int[] supported = supportedArchitectures();
        boolean exact = Arrays.binarySearch(supported, arch) >= 0;
        String target = exact ? "sm_" + arch : "compute_" + supported[supported.length - 1];
        String[] options = {"--gpu-architecture=" + target, "--std=c++17", "-default-device"};
        int[] v = version();
        String key = sha256(source + "\n" + String.join(" ", options) + "\nnvrtc " + v[0] + "." + v[1]);
        Path cached = cacheDir().resolve(programName + "-" + target + "-" + key.substring(0, 16)
                + (exact ? ".cubin" : ".ptx"));
        try {
            if (Files.isRegularFile(cached)) {
                return new Image(Files.readAllBytes(cached), !exact, target);
            }
        } catch (IOException unreadable) {
            // fall through to a fresh compile
        }
        Image image = compileNow(source, programName, options, !exact, target);
        store(cached, image.bytes());
        return image;
    }

    private static Image compileNow(String source, String programName, String[] options, boolean ptx,
                                     String target) {
        _nvrtcProgram program = new _nvrtcProgram();
        check(nvrtcCreateProgram(program, new BytePointer(source, StandardCharsets.UTF_8),
                new BytePointer(programName), 0, (PointerPointer<?>) null, (PointerPointer<?>) null),
                "nvrtcCreateProgram", "program", programName);
        Image image;
        try {
            PointerPointer<BytePointer> opts = new PointerPointer<>(options.length);
            BytePointer[] keep = new BytePointer[options.length];
            for (int i = 0; i < options.length; i++) {
                keep[i] = new BytePointer(options[i]);
                opts.put(i, keep[i]);
            }
            int status = nvrtcCompileProgram(program, options.length, opts);
            if (status != NVRTC_SUCCESS) {
                throw new CudaException(CudaException.Api.NVRTC, "nvrtcCompileProgram", "program=" + programName + ", target=" + target,
                        status, "NVRTC_ERROR_" + status, log(program));
            }
            try (SizeTPointer size = new SizeTPointer(1)) {
                if (ptx) {
                    check(nvrtcGetPTXSize(program, size), "nvrtcGetPTXSize");
                } else {
                    check(nvrtcGetCUBINSize(program, size), "nvrtcGetCUBINSize");
                }
                BytePointer out = new BytePointer(size.get());
                if (ptx) {
                    check(nvrtcGetPTX(program, out), "nvrtcGetPTX");
                } else {
                    check(nvrtcGetCUBIN(program, out), "nvrtcGetCUBIN");
                }
                byte[] bytes = new byte[(int) size.get()];
                out.get(bytes);
                out.close();
                image = new Image(bytes, ptx, target);
            }
        } catch (RuntimeException e) {
            int destroyed = nvrtcDestroyProgram(program);
            if (destroyed != NVRTC_SUCCESS) {
                e.addSuppressed(new CudaException(CudaException.Api.NVRTC, "nvrtcDestroyProgram", "program=" + programName, destroyed,
                        "NVRTC_ERROR_" + destroyed, ""));
            }
            throw e;
        }
        check(nvrtcDestroyProgram(program), "nvrtcDestroyProgram", "program", programName);
        return image;
    }

    private static String log(_nvrtcProgram program) {
        try (SizeTPointer size = new SizeTPointer(1)) {
            if (nvrtcGetProgramLogSize(program, size) != NVRTC_SUCCESS) {
                return "";
            }
            BytePointer text = new BytePointer(size.get());
            if (nvrtcGetProgramLog(program, text) != NVRTC_SUCCESS) {
                return "(NVRTC could not return its log)";
            }
            return Pointers.cString(text).strip();
        }
    }

    private static Path cacheDir() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "p2pbench-kernels-" + user);
    }

    private static void store(Path target, byte[] bytes) {
        try {
            Files.createDirectories(target.getParent());
            Path tmp = Files.createTempFile(target.getParent(), "kernel", ".tmp");
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException notCached) {
            // The cache only saves time; a read-only temp dir means compiling in every fork.
        }
    }

    static String sha256(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
