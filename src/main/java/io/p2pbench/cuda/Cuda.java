package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import io.p2pbench.settings.Settings;
import java.util.Optional;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.SizeTPointer;

/**
 * Status checks, the one up-front availability probe, and small device utilities.
 *
 * <p>Loading JavaCPP's cudart on a machine without an NVIDIA driver throws {@link
 * UnsatisfiedLinkError} (libcuda.so.1) once, and every later use of the class in the same JVM
 * throws {@link NoClassDefFoundError}. {@link #availability()} is therefore the first thing every
 * entry point calls: it catches that cascade once and turns it into one line.
 */
public final class Cuda {
    /** System property that makes {@link #availability()} report CUDA as absent (tests). */
    public static final String DISABLE_PROPERTY = Settings.CUDA_DISABLE;

    private static volatile Availability availability;

    private Cuda() {}

    /** What the probe found: either usable CUDA with its versions, or one line saying why not. */
    public record Availability(boolean available, String problem, int deviceCount,
                               int driverVersion, int runtimeVersion) {
        /** Throws {@link CudaException#notAvailable} with {@link #problem()} unless available. */
        public Availability require() {
            if (!available) {
                throw CudaException.notAvailable(problem);
            }
            return this;
        }
    }

    /**
     * Probes CUDA once per JVM: loads the bindings, checks CUDA_VISIBLE_DEVICES, the driver and
     * runtime versions and the device count. Never throws.
     */
    public static Availability availability() {
        Availability a = availability;
        if (a == null) {
            synchronized (Cuda.class) {
                a = availability;
                if (a == null) {
                    a = probe();
                    availability = a;
                }
            }
        }
        return a;
    }

    /** Shorthand for {@code availability().require()}. */
    public static Availability require() {
        return availability().require();
    }

    private static Availability probe() {
        if (Settings.current().cudaDisabled()) {
            return absent("CUDA is disabled by -D" + DISABLE_PROPERTY + "=true");
        }
        Optional<String> envProblem = VisibleDevices.checkSyntax(System.getenv("CUDA_VISIBLE_DEVICES"));
        if (envProblem.isPresent()) {
            return absent(envProblem.get());
        }
        try {
            Loader.load(cudart.class);
            int[] driver = {0};
            int[] runtime = {0};
            int driverStatus = cudaDriverGetVersion(driver);
            if (driverStatus != cudaSuccess) {
                return absent("cudaDriverGetVersion failed: " + driverStatus + " " + errorName(driverStatus)
                        + " (" + errorString(driverStatus) + ")");
            }
            int runtimeStatus = cudaRuntimeGetVersion(runtime);
            if (runtimeStatus != cudaSuccess) {
                return absent("cudaRuntimeGetVersion failed: " + runtimeStatus + " " + errorName(runtimeStatus)
                        + " (" + errorString(runtimeStatus) + ")");
            }
            if (driver[0] == 0) {
                return absent("no NVIDIA driver is loaded (cudaDriverGetVersion reports 0); "
                        + "p2pbench needs an NVIDIA GPU and driver");
            }
            int[] count = {0};
            int status = cudaGetDeviceCount(count);
            if (status == cudaErrorInsufficientDriver) {
                return absent("the NVIDIA driver supports CUDA " + formatVersion(driver[0])
                        + " but p2pbench's CUDA runtime is " + formatVersion(runtime[0])
                        + "; update the driver to one for CUDA " + formatVersion(runtime[0]) + " or newer");
            }
            if (status == cudaErrorNoDevice || (status == cudaSuccess && count[0] == 0)) {
                String env = System.getenv("CUDA_VISIBLE_DEVICES");
                return absent("no CUDA device is visible"
                        + (env == null ? "" : " (CUDA_VISIBLE_DEVICES=" + env + ")"));
            }
            if (status != cudaSuccess) {
                return absent("cudaGetDeviceCount failed: " + status + " " + errorName(status)
                        + " (" + errorString(status) + ")");
            }
            checkDriver(cuInit(0), "cuInit"); // the driver API calls (modules, kernels, gate) need it
            Optional<String> visible = VisibleDevices.checkAgainstCount(
                    System.getenv("CUDA_VISIBLE_DEVICES"), count[0]);
            if (visible.isPresent()) {
                return absent(visible.get());
            }
            return new Availability(true, "", count[0], driver[0], runtime[0]);
        } catch (Throwable t) {
            return absent(describeLoadFailure(t));
        }
    }

    static String describeLoadFailure(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = String.valueOf(root.getMessage());
        if (text.contains("libcudart")) {
            return "CUDA is not available: the CUDA 13 runtime libcudart.so.13 was not found; "
                    + "install the CUDA 13 runtime or add its lib64 folder to LD_LIBRARY_PATH";
        }
        if (text.contains("libcuda.so") || text.contains("libnvidia-ml")) {
            return "CUDA is not available: the NVIDIA driver library " + (text.contains("libnvidia-ml")
                    ? "libnvidia-ml.so.1" : "libcuda.so.1") + " was not found; "
                    + "p2pbench needs an NVIDIA GPU with its driver installed";
        }
        return "CUDA is not available: " + root.getClass().getSimpleName() + ": "
                + text.lines().findFirst().orElse("");
    }

    private static Availability absent(String problem) {
        return new Availability(false, problem, 0, 0, 0);
    }

    /** 13000 becomes "13.0". */
    public static String formatVersion(int cudaVersion) {
        return (cudaVersion / 1000) + "." + (cudaVersion % 1000) / 10;
    }

    // ---------------------------------------------------------------- status checks

    /**
     * Throws {@link CudaException} unless {@code status} is cudaSuccess. {@code args}: name, value, ...
     * Calls in measured loops test the status themselves and call {@link #failure} only on error,
     * so that the success path allocates nothing (no varargs array, no boxing).
     */
    public static void check(int status, String call, Object... args) {
        if (status != cudaSuccess) {
            throw failure(status, call, args);
        }
    }

    /** The exception for a failed runtime call (clears the runtime's last error). */
    public static CudaException failure(int status, String call, Object... args) {
        cudaGetLastError(); // clear it, so the next call's status is that call's own
        return new CudaException(call, formatArgs(args), status, errorName(status), errorString(status));
    }

    /** Like {@link #check} for driver API calls (CUresult). */
    public static void checkDriver(int result, String call, Object... args) {
        if (result != CUDA_SUCCESS) {
            throw new CudaException(call, formatArgs(args), result, driverErrorName(result),
                    driverErrorString(result));
        }
    }

    static String formatArgs(Object... args) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(args[i]).append('=').append(args[i + 1]);
        }
        return sb.toString();
    }

    /** The runtime's name for a status, e.g. cudaErrorPeerAccessUnsupported. */
    public static String errorName(int status) {
        BytePointer p = cudaGetErrorName(status);
        return p == null ? "cudaError" + status : p.getString();
    }

    static String errorString(int status) {
        BytePointer p = cudaGetErrorString(status);
        return p == null ? "" : p.getString();
    }

    static String driverErrorName(int result) {
        try (PointerPointer<BytePointer> out = new PointerPointer<>(1)) {
            if (cuGetErrorName(result, out) != CUDA_SUCCESS || out.get(0) == null) {
                return "CUresult" + result;
            }
            return out.get(BytePointer.class, 0).getString();
        }
    }

    static String driverErrorString(int result) {
        try (PointerPointer<BytePointer> out = new PointerPointer<>(1)) {
            if (cuGetErrorString(result, out) != CUDA_SUCCESS || out.get(0) == null) {
                return "";
            }
            return out.get(BytePointer.class, 0).getString();
        }
    }

    // ---------------------------------------------------------------- device utilities

    private static final ThreadLocal<int[]> CURRENT_DEVICE = ThreadLocal.withInitial(() -> new int[] {-1});

    /**
     * Destroys the primary context of every GPU this process has a live one on ({@code cudaDeviceReset}),
     * after unloading the suite's kernels, so that what runs next starts in a fresh context, as in a fresh
     * process. Why: on the H200 node the hardware queue a new stream lands on depends on how many streams
     * the context made before, and a small copy's device time with it (the second fixture of a process
     * timed a 1 MiB device-local copy at about 280 GB/s, the first and third at 470-510;
     * {@code docs/notes/run-overhead.md}). Every CUDA handle made before is invalid afterwards: call only
     * when all are closed (a fork group does, between combinations).
     *
     * @return how many GPUs were reset
     */
    public static int resetDevices() {
        int count = require().deviceCount();
        Nccl.destroyKept();
        CudaStream.destroyKept();
        SuiteKernels.unloadAll();
        int reset = 0;
        for (int d = 0; d < count; d++) {
            int[] dev = {0};
            checkDriver(cuDeviceGet(dev, d), "cuDeviceGet", "device", d);
            int[] flags = {0};
            int[] active = {0};
            checkDriver(cuDevicePrimaryCtxGetState(dev[0], flags, active), "cuDevicePrimaryCtxGetState", "device", d);
            if (active[0] != 0) {
                setDevice(d);
                check(cudaDeviceReset(), "cudaDeviceReset", "device", d);
                reset++;
            }
        }
        return reset;
    }

    /**
     * Makes {@code device} current on this thread; called before every per-device call. The
     * thread's current device is remembered, so repeated calls for one GPU cost no JNI call in
     * measured loops. Code that may switch devices behind our back (NCCL) calls
     * {@link #forgetCurrentDevice()} afterwards.
     */
    public static void setDevice(int device) {
        int[] current = CURRENT_DEVICE.get();
        if (current[0] == device) {
            return;
        }
        int status = cudaSetDevice(device);
        if (status != cudaSuccess) {
            current[0] = -1;
            throw failure(status, "cudaSetDevice", "device", device);
        }
        current[0] = device;
    }

    /** Forgets which device this thread has current, so the next {@link #setDevice} calls CUDA. */
    public static void forgetCurrentDevice() {
        CURRENT_DEVICE.get()[0] = -1;
    }

    /** Free and total device memory of {@code device}, in bytes: {@code {free, total}}. */
    public static long[] memInfo(int device) {
        setDevice(device);
        try (SizeTPointer free = new SizeTPointer(1); SizeTPointer total = new SizeTPointer(1)) {
            check(cudaMemGetInfo(free, total), "cudaMemGetInfo", "device", device);
            return new long[] {free.get(), total.get()};
        }
    }

    /** Waits for all work on {@code device}. */
    public static void synchronize(int device) {
        setDevice(device);
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", "device", device);
    }

    /** An integer device attribute (cudaDevAttr*). */
    public static int attribute(int device, int attribute) {
        int[] value = {0};
        check(cudaDeviceGetAttribute(value, attribute, device), "cudaDeviceGetAttribute",
                "device", device, "attribute", attribute);
        return value[0];
    }

    static int cuDevice(int device) {
        int[] dev = {0};
        checkDriver(cuDeviceGet(dev, device), "cuDeviceGet", "ordinal", device);
        return dev[0];
    }

    /** The runtime's view of whether {@code device} can access {@code peer}'s memory. */
    public static boolean canAccessPeer(int device, int peer) {
        int[] can = {0};
        check(cudaDeviceCanAccessPeer(can, device, peer), "cudaDeviceCanAccessPeer",
                "device", device, "peer", peer);
        return can[0] != 0;
    }

    /** The runtime's P2P attributes of the ordered pair src to dst (two different GPUs). */
    public record PeerAttributes(int performanceRank, boolean accessSupported, boolean nativeAtomics) {}

    /** Queries cudaDeviceGetP2PAttribute for src to dst, in that direction only. */
    public static PeerAttributes peerAttributes(int src, int dst) {
        return new PeerAttributes(p2pAttribute(cudaDevP2PAttrPerformanceRank, src, dst),
                p2pAttribute(cudaDevP2PAttrAccessSupported, src, dst) != 0,
                p2pAttribute(cudaDevP2PAttrNativeAtomicSupported, src, dst) != 0);
    }

    private static int p2pAttribute(int attribute, int src, int dst) {
        int[] value = {0};
        check(cudaDeviceGetP2PAttribute(value, attribute, src, dst), "cudaDeviceGetP2PAttribute",
                "attribute", attribute, "src", src, "dst", dst);
        return value[0];
    }
}
