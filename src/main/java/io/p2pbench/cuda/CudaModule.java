package io.p2pbench.cuda;

import static org.bytedeco.cuda.global.cudart.*;

import java.util.HashMap;
import java.util.Map;
import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.cuda.cudart.CUmod_st;
import org.bytedeco.javacpp.BytePointer;

/**
 * A compiled image loaded into one GPU's primary context (driver API cuModuleLoadData), and the
 * kernels looked up in it. Modules are per context, so each GPU loads its own.
 */
public final class CudaModule implements AutoCloseable {
    private final int device;
    private final Map<String, Kernel> kernels = new HashMap<>();
    private CUmod_st handle;

    /** Loads {@code image} on {@code device}. */
    public CudaModule(int device, Nvrtc.Image image) {
        this.device = device;
        Cuda.setDevice(device);
        // cudaFree(0) makes sure the runtime has created and bound the primary context that the
        // driver API call below loads into.
        Cuda.check(cudaFree(null), "cudaFree", "device", device, "ptr", "null (context init)");
        byte[] bytes = image.bytes();
        BytePointer data = new BytePointer(bytes.length + 1L);
        data.put(bytes);
        data.put(bytes.length, (byte) 0);
        CUmod_st mod = new CUmod_st();
        try {
            Cuda.checkDriver(cuModuleLoadData(mod, data), "cuModuleLoadData", "device", device,
                    "target", image.target(), "bytes", bytes.length);
        } finally {
            data.close();
        }
        this.handle = mod;
    }

    /** The GPU the module is loaded on. */
    public int device() {
        return device;
    }

    /** The kernel {@code name} (an extern "C" function of the module). */
    public synchronized Kernel kernel(String name) {
        return kernels.computeIfAbsent(name, n -> {
            CUfunc_st f = new CUfunc_st();
            Cuda.setDevice(device);
            Cuda.checkDriver(cuModuleGetFunction(f, live(), n), "cuModuleGetFunction",
                    "device", device, "name", n);
            return new Kernel(this, n, f);
        });
    }

    private CUmod_st live() {
        if (handle == null) {
            throw new IllegalStateException("module on GPU " + device + " is closed");
        }
        return handle;
    }

    @Override
    public synchronized void close() {
        if (handle != null) {
            CUmod_st m = handle;
            handle = null;
            kernels.clear();
            Cuda.setDevice(device);
            Cuda.checkDriver(cuModuleUnload(m), "cuModuleUnload", "device", device);
        }
    }
}
